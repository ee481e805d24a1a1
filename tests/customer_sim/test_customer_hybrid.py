"""The hybrid customer against a local OpenAI-compatible server, through the real openai client:
the scripted engine decides what is disclosed, the model only words the reply."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from customer_sim import make_customer
from customer_sim.base import Exchange
from customer_sim.hybrid import HybridCustomer, faithful
from customer_sim.scripted import ScriptedCustomer
from tests.support.fake_openai import FakeChatServer, completion, server_error

TUTORIAL = Path(__file__).resolve().parents[2] / "cases" / "tutorial-bake-sale" / "hidden"


@pytest.fixture
def serve() -> Iterator[list[FakeChatServer]]:
    started: list[FakeChatServer] = []
    yield started
    for server in started:
        server.close()


def _hybrid(serve: list[FakeChatServer], *responses) -> tuple[HybridCustomer, FakeChatServer]:
    server = FakeChatServer(list(responses))
    serve.append(server)
    customer = make_customer(
        "hybrid",
        hidden_dir=TUTORIAL,
        model="voice-test-model",
        base_url=server.base_url,
        api_key="sk-test-not-a-secret",
        max_retries=0,
        retry_base_delay=0.01,
        timeout=5.0,
    )
    assert isinstance(customer, HybridCustomer)
    return customer, server


def test_a_faithful_rewording_is_used_and_the_disclosure_stays_the_scripted_one(
    serve: list[FakeChatServer],
) -> None:
    scripted = ScriptedCustomer.from_hidden_dir(TUTORIAL).reply("hi")
    customer, server = _hybrid(serve, completion("Hi! Lovely to have you. What do you need?"))
    reply = customer.reply("hi")
    assert reply.text == "Hi! Lovely to have you. What do you need?"
    assert reply.disclosed == scripted.disclosed == []
    # the model saw the scripted reply and the message, nothing of the case's hidden files
    prompt = " ".join(m["content"] for m in server.bodies[0]["messages"])
    assert scripted.text in prompt and "Engineer: hi" in prompt
    assert "nut" not in prompt.lower() and "300" not in prompt


def test_a_rewording_that_changes_a_figure_is_dropped_for_the_scripted_text(
    serve: list[FakeChatServer],
) -> None:
    question = "how much oven time do we have on friday?"
    scripted = ScriptedCustomer.from_hidden_dir(TUTORIAL).reply(question)
    assert scripted.disclosed == ["oven_time"]
    customer, _ = _hybrid(serve, completion("We have 360 oven minutes on Friday."))
    reply = customer.reply(question)
    assert reply.text == scripted.text
    assert reply.disclosed == ["oven_time"]


def test_when_the_model_is_down_the_scripted_reply_is_given(serve: list[FakeChatServer]) -> None:
    customer, _ = _hybrid(serve, server_error(503))
    history = [Exchange("hi", "Hello! What would you like to know?", "priya", [])]
    reply = customer.reply("thanks!", history)
    assert reply.text == ScriptedCustomer.from_hidden_dir(TUTORIAL).reply("thanks!", history).text


def test_faithful_keeps_figures_both_ways_and_bounds_length() -> None:
    original = "Keep the total at 300 minutes or less; 30 portions sell at most."
    assert faithful(original, "At most 30 portions sell, and stay within 300 minutes.")
    assert not faithful(original, "Stay within 300 minutes.")  # a figure lost
    assert not faithful(original, "Stay within 300 minutes; 30 portions, 12 trays.")  # added
    assert not faithful(original, "")
    assert not faithful("Hi!", "Hi! " + "Lovely weather. " * 20)
