"""The LLM customer against a local OpenAI-compatible server, through the real openai client."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from customer_sim import make_customer
from customer_sim.base import CustomerUnavailable, Exchange
from customer_sim.llm import UNAVAILABLE_MESSAGE, LLMCustomer
from customer_sim.scripted import ScriptedCustomer
from tests.support.fake_openai import Canned, FakeChatServer, completion, server_error

CASE = Path(__file__).resolve().parents[1] / "fixtures" / "customer" / "bakery-routes"
REQUEST = (CASE / "instruction.md").read_text()
INFORMATION = (CASE / "hidden" / "information.md").read_text()
API_KEY = "sk-test-not-a-secret"


@pytest.fixture
def serve() -> Iterator[list[FakeChatServer]]:
    started: list[FakeChatServer] = []
    yield started
    for server in started:
        server.close()


def make(
    serve: list[FakeChatServer], *responses: Canned, timeout: float = 5.0, max_retries: int = 2
) -> tuple[LLMCustomer, FakeChatServer]:
    server = FakeChatServer(list(responses))
    serve.append(server)
    customer = LLMCustomer(
        REQUEST,
        INFORMATION,
        model="customer-test-model",
        base_url=server.base_url,
        api_key=API_KEY,
        timeout=timeout,
        max_retries=max_retries,
        retry_base_delay=0.01,
    )
    return customer, server


HISTORY = [
    Exchange("Are supermarket windows strict?", "Yes, they refuse late orders.", "customer"),
    Exchange("And cafés?", "Half an hour late is fine.", "customer"),
]


def test_it_sends_the_request_information_and_history_to_the_model(
    serve: list[FakeChatServer],
) -> None:
    customer, server = make(serve, completion("Every van takes 140 trays."))
    reply = customer.reply("How many trays fit in a van?", HISTORY)

    assert reply.text == "Every van takes 140 trays."
    assert reply.units == ["How many trays fit in a van?"]
    assert reply.disclosed == []
    (sent,) = server.requests
    assert sent.path == "/v1/chat/completions"
    assert sent.headers["authorization"] == f"Bearer {API_KEY}"
    assert sent.body["model"] == "customer-test-model"
    messages = sent.body["messages"]
    assert [m["role"] for m in messages] == [
        "system",
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
    ]
    assert REQUEST.strip() in messages[0]["content"]
    assert INFORMATION.strip() in messages[0]["content"]
    assert [m["content"] for m in messages[1:]] == [
        "Are supermarket windows strict?",
        "Yes, they refuse late orders.",
        "And cafés?",
        "Half an hour late is fine.",
        "How many trays fit in a van?",
    ]


def test_it_never_sends_targets_evaluator_or_script(serve: list[FakeChatServer]) -> None:
    customer, server = make(serve, completion("Fine."))
    customer.reply("What should the plan minimise?", HISTORY)
    sent = server.requests[0].raw
    hidden = CASE / "hidden"
    targets = json.loads((hidden / "gt.json").read_text())["targets"]
    secrets = [t["key"] for t in targets] + [t["requirement"] for t in targets]
    secrets.append("ZZ-EVALUATOR-CODE")
    secrets += [f.key for f in ScriptedCustomer.from_hidden_dir(hidden).script.facts]
    for secret in secrets:
        assert json.dumps(secret)[1:-1] not in sent, secret
    assert "ZZ-SECRET" not in sent


def test_it_retries_server_errors_and_then_answers(serve: list[FakeChatServer]) -> None:
    customer, server = make(
        serve, server_error(500), server_error(503), completion("Kilometres."), max_retries=3
    )
    assert customer.reply("What do we pay for?").text == "Kilometres."
    assert len(server.requests) == 3


def test_it_reports_unavailable_when_the_server_keeps_failing(
    serve: list[FakeChatServer],
) -> None:
    customer, server = make(serve, server_error(500), max_retries=2)
    with pytest.raises(CustomerUnavailable) as failure:
        customer.reply("What do we pay for?")
    assert len(server.requests) == 3
    message = str(failure.value)
    assert message == UNAVAILABLE_MESSAGE
    assert "127.0.0.1" not in message and API_KEY not in message


@pytest.mark.parametrize(
    "bad",
    [
        Canned(body="{this is not json"),
        Canned(body=json.dumps({"unexpected": "shape"})),
        completion(""),
        completion("   "),
        completion(None),
    ],
    ids=["invalid-json", "no-choices", "empty", "blank", "null-content"],
)
def test_a_malformed_or_empty_reply_is_retried_then_unavailable(
    serve: list[FakeChatServer], bad: Canned
) -> None:
    customer, server = make(serve, bad, max_retries=2)
    with pytest.raises(CustomerUnavailable):
        customer.reply("What do we pay for?")
    assert len(server.requests) == 3


def test_a_malformed_reply_followed_by_a_good_one_is_answered(
    serve: list[FakeChatServer],
) -> None:
    customer, server = make(serve, Canned(body="{oops"), completion(""), completion("Yes."))
    assert customer.reply("Is that a hard rule?").text == "Yes."
    assert len(server.requests) == 3


def test_a_model_that_stalls_past_the_timeout_is_unavailable(
    serve: list[FakeChatServer],
) -> None:
    customer, server = make(serve, Canned(delay=2.0, body="{}"), timeout=0.3, max_retries=1)
    started = time.monotonic()
    with pytest.raises(CustomerUnavailable):
        customer.reply("Are you there?")
    assert time.monotonic() - started < 1.9
    assert len(server.requests) == 2


def test_a_rejected_request_is_not_retried(serve: list[FakeChatServer]) -> None:
    customer, server = make(serve, Canned(status=401, body='{"error": {"message": "no"}}'))
    with pytest.raises(CustomerUnavailable):
        customer.reply("Hello?")
    assert len(server.requests) == 1


def test_from_env_reads_the_openai_settings(serve: list[FakeChatServer]) -> None:
    server = FakeChatServer([completion("From the environment.")])
    serve.append(server)
    environ = {
        "OPENAI_BASE_URL": server.base_url,
        "OPENAI_API_KEY": API_KEY,
        "CUSTOMER_MODEL": "env-model",
    }
    customer = LLMCustomer.from_env(REQUEST, INFORMATION, environ=environ, timeout=5.0)
    assert customer.reply("Hi?").text == "From the environment."
    assert server.requests[0].body["model"] == "env-model"
    with pytest.raises(ValueError, match="CUSTOMER_MODEL"):
        LLMCustomer.from_env(REQUEST, INFORMATION, environ={"OPENAI_API_KEY": API_KEY})


def test_make_customer_builds_either_backend(
    serve: list[FakeChatServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    server = FakeChatServer([completion("LLM here.")])
    serve.append(server)
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
    monkeypatch.setenv("CUSTOMER_MODEL", "env-model")
    llm = make_customer("llm", request_md=REQUEST, information_md=INFORMATION, max_retries=0)
    assert llm.reply("Hi?").text == "LLM here."
    scripted = make_customer(hidden_dir=CASE / "hidden")
    assert scripted.reply("How many trays fit in a van?").disclosed == ["van_capacity"]
    with pytest.raises(ValueError, match="unknown customer backend"):
        make_customer("oracle", hidden_dir=CASE / "hidden")
    with pytest.raises(ValueError, match="hidden_dir"):
        make_customer("scripted")


def test_it_follows_the_papers_customer_settings_by_default(
    serve: list[FakeChatServer],
) -> None:
    # FDE-Bench A.9.2: business defaults allowed, at most 10,000 output tokens, no temperature.
    customer, server = make(serve, completion("We'd assume the usual."))
    customer.reply("Do you have a preferred file encoding?")
    (sent,) = server.requests
    assert sent.body["max_tokens"] == 10_000
    assert "temperature" not in sent.body and "seed" not in sent.body
    system = sent.body["messages"][0]["content"]
    assert "reasonable business default" in system
    assert "Never contradict the request or the business information" in system


def test_business_defaults_can_be_switched_off_by_setting() -> None:
    strict = LLMCustomer.from_env(
        REQUEST,
        INFORMATION,
        environ={
            "CUSTOMER_MODEL": "m",
            "OPENAI_API_KEY": API_KEY,
            "CUSTOMER_BUSINESS_DEFAULTS": "false",
        },
    )
    assert "never invent" in strict.system_prompt
    assert "business default" not in strict.system_prompt
