"""The ``fde`` console script: argument parsing and the exit-code policy.

Exit codes: 0 success, 1 the server refused (or a submission failed its format check),
2 usage error, 3 the server could not be reached, 130 interrupted. Errors are one line on
stderr, never a traceback (set ``FDE_DEBUG=1`` to see one for an unexpected failure).
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import TypeAlias

from fde_client import __version__
from fde_client.campaign import cmd_campaign
from fde_client.commands import (
    cmd_ask,
    cmd_cases,
    cmd_close,
    cmd_start,
    cmd_status,
    cmd_submit,
    cmd_tools,
)  # fmt: skip
from fde_client.errors import FdeError
from fde_client.play import CONDITIONS, MODES

Handler = Callable[[argparse.Namespace], int]

DESCRIPTION = """\
Play cases on an FDE practice platform server from a shell.
Server: --url or FDE_URL (default http://127.0.0.1:8000). Token: --token or FDE_TOKEN."""


def _connection_options(defaults: bool) -> argparse.ArgumentParser:
    """--url/--token, accepted before or after the subcommand.

    The copy on each subcommand uses SUPPRESS defaults, otherwise argparse would overwrite a
    value given before the subcommand with the subcommand's default.
    """
    parser = argparse.ArgumentParser(add_help=False)
    default = None if defaults else argparse.SUPPRESS
    parser.add_argument("--url", default=default, help="server address (env FDE_URL)")
    parser.add_argument("--token", default=default, help="API token (env FDE_TOKEN)")
    return parser


def _run_options() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--run", help="run id (default: from .fde/run.json in cwd or a parent)")
    parser.add_argument("--workspace", help="use the run of this workspace folder")
    parser.add_argument("--json", action="store_true", help="print the server's JSON")
    return parser


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fde",
        description=DESCRIPTION,
        parents=[_connection_options(defaults=True)],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"fde {__version__}")
    sub = parser.add_subparsers(dest="name", required=True, metavar="COMMAND")
    shared = [_connection_options(defaults=False)]
    _add_cases(sub, shared)
    _add_start(sub, shared)
    _add_ask(sub, shared)
    _add_submit(sub, shared)
    _add_status(sub, shared)
    _add_close(sub, shared)
    _add_campaign(sub, shared)
    _add_tools(sub, shared)
    return parser


SubParsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def _command(
    sub: SubParsers,
    name: str,
    handler: Handler,
    help_text: str,
    parents: list[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    command = sub.add_parser(name, help=help_text, description=help_text, parents=parents)
    command.set_defaults(handler=handler)
    return command


def _add_cases(sub: SubParsers, shared: list[argparse.ArgumentParser]) -> None:
    command = _command(sub, "cases", cmd_cases, "list the published cases", shared)
    command.add_argument("--json", action="store_true", help="print the server's JSON")


def _add_start(sub: SubParsers, shared: list[argparse.ArgumentParser]) -> None:
    command = _command(sub, "start", cmd_start, "start a run and create its workspace", shared)
    command.add_argument("case", help="case slug (see `fde cases`)")
    _add_run_settings(command, mode="practice")
    command.add_argument("--label", default="", help="free text, e.g. scaffold/model")
    command.add_argument("--dir", help="workspace folder (default ./<case>-<short run id>)")
    command.add_argument("--json", action="store_true", help="print the run and the folder")


def _add_run_settings(command: argparse.ArgumentParser, mode: str = "ranked") -> None:
    """``fde start`` defaults to practice (trying it out must not put a run on the board);
    ``fde campaign``, which is for measured runs, defaults to ranked."""
    command.add_argument(
        "--condition", choices=CONDITIONS, default="interact_req",
        help="information condition (default interact_req)",
    )  # fmt: skip
    command.add_argument(
        "--mode", choices=MODES, default=mode,
        help=f"ranked (scored after close, counts on leaderboards) or practice (default {mode})",
    )  # fmt: skip


def _add_ask(sub: SubParsers, shared: list[argparse.ArgumentParser]) -> None:
    parents = [*shared, _run_options()]
    command = _command(sub, "ask", cmd_ask, "ask the customer (one round)", parents)
    command.add_argument("text", nargs="+", help="the message; '-' reads it from stdin")
    command.add_argument("--to", help="stakeholder name, role or alias")


def _add_submit(sub: SubParsers, shared: list[argparse.ArgumentParser]) -> None:
    parents = [*shared, _run_options()]
    command = _command(sub, "submit", cmd_submit, "submit a deliverable file", parents)
    command.add_argument("file", help="the deliverable (CSV or JSON, see submission_schema.json)")


def _add_status(sub: SubParsers, shared: list[argparse.ArgumentParser]) -> None:
    parents = [*shared, _run_options()]
    _command(sub, "status", cmd_status, "show the run's budget, submissions and result", parents)


def _add_close(sub: SubParsers, shared: list[argparse.ArgumentParser]) -> None:
    parents = [*shared, _run_options()]
    command = _command(
        sub, "close", cmd_close, "close the run (its last submission counts)", parents
    )
    command.add_argument("--wait", action="store_true", help="wait for the score")
    command.add_argument("--timeout", type=float, default=600.0, help="seconds to wait (600)")
    command.add_argument("--poll", type=float, default=2.0, help="seconds between polls (2)")


def _add_tools(sub: SubParsers, shared: list[argparse.ArgumentParser]) -> None:
    help_text = "print the agent tool definitions (OpenAI function calling) of /api/agent-tools/"
    command = _command(sub, "tools", cmd_tools, help_text, shared)
    command.add_argument(
        "--json", action="store_true", help="the whole document (version, tools, routes)"
    )


def _add_campaign(sub: SubParsers, shared: list[argparse.ArgumentParser]) -> None:
    help_text = (
        "play cases x conditions x repeats with an agent: "
        "fde campaign --agent floor ... or fde campaign ... -- CMD ARGS"
    )
    command = _command(sub, "campaign", cmd_campaign, help_text, shared)
    what = command.add_argument_group("what to play")
    what.add_argument("--cases", default="all", help="'all' (default) or comma-separated slugs")
    what.add_argument("--family", help="only cases of this family (CO or ML)")
    what.add_argument("--sector", help="only cases of this sector")
    what.add_argument(
        "--conditions", "--condition", dest="conditions", default="interact_req",
        help="comma-separated information conditions (default interact_req)",
    )  # fmt: skip
    what.add_argument("--repeats", type=int, default=1, help="runs per case and condition (1)")
    what.add_argument(
        "--mode", choices=MODES, default="ranked",
        help="ranked (default: counts on the boards) or practice",
    )  # fmt: skip
    who = command.add_argument_group("who plays")
    who.add_argument("--agent", help="a reference agent: floor, generic-asker or llm")
    who.add_argument("--model", help="the llm agent's model (OpenAI-compatible endpoint)")
    who.add_argument(
        "--agent-arg", action="append", metavar="ARG", help="pass ARG on to the reference agent"
    )
    who.add_argument(
        "--label",
        help="board label 'agent / scaffold / model' (default for reference agents: theirs)",
    )
    limits = command.add_argument_group("budget per run")
    limits.add_argument(
        "--time-limit", type=float, help="wall-clock seconds for the agent (default: the run's)"
    )
    limits.add_argument("--max-turns", type=int, help="questions the agent may ask")
    limits.add_argument("--max-cost", type=float, help="contact cost the agent may spend")
    how = command.add_argument_group("harness")
    how.add_argument(
        "--deliverable", help="file collected from each workspace (default: from the schema)"
    )
    how.add_argument("--dir", default=".", help="where the workspaces go (default: cwd)")
    how.add_argument("--campaign-file", help="resumable state (default: <dir>/campaign.json)")
    how.add_argument("--parallel", type=int, default=1, help="runs played at once (1)")
    how.add_argument(
        "--wait-timeout", type=float, default=600.0,
        help="seconds to wait for each run's score after it closes (600)",
    )  # fmt: skip
    how.add_argument("--json", action="store_true", help="print the runs as JSON")


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """Parse, splitting ``campaign ... -- CMD`` by hand.

    argparse's handling of ``--`` before a remainder differs between Python versions, and the
    agent command must arrive untouched (it may have options of its own, even ``--``).
    """
    argv = list(argv)
    parser = build_parser()
    command: list[str] = []
    if _subcommand(argv) == "campaign" and "--" in argv:
        split = argv.index("--")
        argv, command = argv[:split], argv[split + 1 :]
    args = parser.parse_args(argv)
    if args.name == "campaign":
        args.command = command
    return args


def _subcommand(argv: list[str]) -> str | None:
    """The first word that is not a global option or its value."""
    words = iter(argv)
    for word in words:
        if word in ("--url", "--token"):
            next(words, None)
        elif not word.startswith("-"):
            return word
    return None


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = parse_args(sys.argv[1:] if argv is None else argv)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        return exc.code if isinstance(exc.code, int) else 2
    handler: Handler = args.handler
    try:
        return handler(args)
    except FdeError as exc:
        print(f"fde: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("fde: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0  # `fde cases | head`: the reader left, which is fine
    except Exception as exc:  # the promise is no traceback; a bug still gets reported
        if os.environ.get("FDE_DEBUG"):
            traceback.print_exc()
        print(f"fde: internal error: {type(exc).__name__}: {exc} (FDE_DEBUG=1 shows more)",
              file=sys.stderr)  # fmt: skip
        return 1


if __name__ == "__main__":
    sys.exit(main())
