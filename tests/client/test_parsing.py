"""Argument parsing: defaults, options on either side of the subcommand, ``campaign -- CMD``."""

from __future__ import annotations

import argparse

import pytest
from fde_client.cli import parse_args
from fde_client.commands import make_client
from fde_client.workspace import RunRef

from tests.client.conftest import FdeRunner


def test_start_defaults_to_the_main_condition_and_a_practice_run() -> None:
    """Trying the README's example must not put a run on the public board."""
    args = parse_args(["start", "tiny-knapsack"])
    assert (args.case, args.condition, args.mode, args.label, args.dir) == (
        "tiny-knapsack", "interact_req", "practice", "", None,
    )  # fmt: skip


def test_campaigns_are_ranked_unless_told_otherwise() -> None:
    args = parse_args(["campaign", "--cases", "a", "--label", "x", "--", "true"])
    assert args.mode == "ranked"


def test_label_defaults_to_empty_but_can_be_set() -> None:
    assert parse_args(["start", "c", "--label", "gpt/react"]).label == "gpt/react"


def test_url_and_token_work_before_the_subcommand() -> None:
    args = parse_args(["--url", "http://a:1", "--token", "t", "cases"])
    assert (args.url, args.token) == ("http://a:1", "t")


def test_url_and_token_work_after_the_subcommand() -> None:
    args = parse_args(["cases", "--url", "http://a:1", "--token", "t"])
    assert (args.url, args.token) == ("http://a:1", "t")


def test_a_subcommand_does_not_reset_a_url_given_before_it() -> None:
    assert parse_args(["--url", "http://a:1", "status"]).url == "http://a:1"


def test_ask_joins_unquoted_words_into_one_message() -> None:
    args = parse_args(["ask", "What", "is", "a", "batch?", "--to", "ops"])
    assert args.text == ["What", "is", "a", "batch?"]
    assert args.to == "ops"


def test_campaign_takes_everything_after_the_double_dash_verbatim() -> None:
    argv = ["campaign", "--cases", "a,b", "--label", "L", "--", "agent", "--json", "--", "-x"]
    args = parse_args(argv)
    assert args.command == ["agent", "--json", "--", "-x"]
    assert (args.cases, args.repeats, args.json) == ("a,b", 1, False)


def test_campaign_split_is_found_after_global_options() -> None:
    args = parse_args(["--url", "http://h:1", "campaign", "--cases", "a", "--label", "L",
                       "--repeats", "3", "--", "run.sh"])  # fmt: skip
    assert (args.url, args.repeats, args.command) == ("http://h:1", 3, ["run.sh"])


def test_ask_keeps_a_double_dash_meaning_end_of_options() -> None:
    assert parse_args(["ask", "--", "--is this a flag?"]).text == ["--is this a flag?"]


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["start"],
        ["start", "c", "--condition", "telepathy"],
        ["start", "c", "--mode", "casual"],
        ["campaign", "--repeats", "many"],
        ["close", "--timeout", "soon"],
        ["frobnicate"],
    ],
)
def test_usage_errors_exit_with_2(fde: FdeRunner, argv: list[str]) -> None:
    outcome = fde(*argv)
    assert outcome.code == 2
    assert "usage:" in outcome.err
    assert "Traceback" not in outcome.err


def test_help_exits_with_0(fde: FdeRunner) -> None:
    outcome = fde("--help")
    assert outcome.code == 0
    assert "campaign" in outcome.out


def test_campaign_without_a_command_is_a_usage_error(fde: FdeRunner) -> None:
    outcome = fde("campaign", "--cases", "a", "--label", "L")
    assert outcome.code == 2
    assert "no agent: pass --agent floor|generic-asker|llm, or a command after `--`" in outcome.err


def test_campaign_with_a_missing_program_fails_before_starting_anything(fde: FdeRunner) -> None:
    outcome = fde("campaign", "--cases", "a", "--label", "L", "--", "no-such-agent-xyz")
    assert outcome.code == 2
    assert "not on the PATH" in outcome.err


def _args(**values: object) -> argparse.Namespace:
    return argparse.Namespace(**{"url": None, "token": None, **values})


def test_the_url_flag_beats_the_workspace_and_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("FDE_URL", "http://env:1")
    ref = RunRef("r", server="http://workspace:1")
    assert make_client(_args(url="http://flag:1"), ref).base_url == "http://flag:1"


def test_the_workspace_server_beats_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FDE_URL", "http://env:1")
    ref = RunRef("r", server="http://workspace:1/")
    assert make_client(_args(), ref).base_url == "http://workspace:1"


def test_the_environment_and_then_the_default_apply_without_a_workspace(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert make_client(_args()).base_url == "http://127.0.0.1:8000"
    monkeypatch.setenv("FDE_URL", "http://env:1")
    assert make_client(_args()).base_url == "http://env:1"


def test_the_token_comes_from_the_flag_or_the_environment_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert make_client(_args()).token is None
    monkeypatch.setenv("FDE_TOKEN", "from-env")
    assert make_client(_args()).token == "from-env"
    assert make_client(_args(token="from-flag")).token == "from-flag"
