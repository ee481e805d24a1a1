"""One function per ``fde`` subcommand: read the arguments, call the API, print.

Normal output goes to stdout (``--json`` makes it machine-readable); progress and budget notes
go to stderr so that piping an answer or a table stays clean.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from fde_client.api import DEFAULT_URL, Client, JSONObject
from fde_client.caps import caps_of, check_before_asking
from fde_client.errors import ApiError, UsageError
from fde_client.output import (
    duration,
    format_check,
    score_text,
    seconds_left,
    table,
    violation_lines,
)
from fde_client.play import is_pending, start_workspace, wait_for_result
from fde_client.workspace import RunRef, resolve_run


def make_client(args: argparse.Namespace, ref: RunRef | None = None) -> Client:
    """``--url`` wins, then the server recorded in the workspace, then ``FDE_URL``.

    The workspace beats the environment because a run only exists on the server that started
    it; the token always comes from ``--token`` or ``FDE_TOKEN``, never from a file.
    """
    url = args.url or (ref.server if ref else None) or os.environ.get("FDE_URL") or DEFAULT_URL
    token = args.token or os.environ.get("FDE_TOKEN") or None
    return Client(url, token)


def run_ref(args: argparse.Namespace) -> RunRef:
    workspace = Path(args.workspace) if args.workspace else None
    return resolve_run(args.run, workspace, Path.cwd())


def emit_json(value: Any) -> None:
    print(json.dumps(value, indent=2, ensure_ascii=False))


def cmd_cases(args: argparse.Namespace) -> int:
    cases = make_client(args).list_cases()
    if args.json:
        emit_json(cases)
        return 0
    rows = [
        [c.get("slug"), c.get("family"), c.get("sector"), _limit(c, "rounds"), c.get("title")]
        for c in cases
    ]
    print(table(["slug", "family", "sector", "rounds", "title"], rows))
    return 0


def _limit(case: JSONObject, key: str) -> Any:
    limits = case.get("limits")
    return limits.get(key) if isinstance(limits, dict) else None


def cmd_start(args: argparse.Namespace) -> int:
    client = make_client(args)
    run, folder = start_workspace(
        client,
        case=args.case,
        condition=args.condition,
        mode=args.mode,
        label=args.label,
        folder=Path(args.dir) if args.dir else None,
    )
    if args.json:
        emit_json({"run": run, "workspace": str(folder.resolve())})
        return 0
    print(
        f"Started run {run['id']} on {run.get('case')} ({run.get('condition')}, {run.get('mode')})."
    )
    print(f"Workspace: {folder}")
    print(f"Budget: {_rounds(run)} rounds, {_time_left(run)}.")
    print(f"Read {folder / 'README.txt'} to begin.")
    note = run.get("informed_after")
    if isinstance(note, str) and note:
        print(f"Note: {note}", file=sys.stderr)
    return 0


def _rounds(run: JSONObject) -> str:
    return f"{run.get('rounds_used', 0)}/{run.get('rounds_limit', '?')}"


def _time_left(run: JSONObject) -> str:
    left = seconds_left(run.get("deadline"))
    if left is None:
        return "no deadline reported"
    return f"{duration(left)} left (closes {run.get('deadline')})"


def read_question(words: list[str]) -> str:
    text = sys.stdin.read() if words == ["-"] else " ".join(words)
    if not text.strip():
        raise UsageError("the question is empty")
    return text.strip()


def cmd_ask(args: argparse.Namespace) -> int:
    ref = run_ref(args)
    text = read_question(args.text)
    client = make_client(args, ref)
    check_before_asking(client, ref.run_id, caps_of(ref.workspace))
    answer = client.ask(ref.run_id, text, args.to)
    if args.json:
        emit_json(answer)
    else:
        print(f"{answer.get('stakeholder') or 'Customer'}: {answer.get('text', '')}")
    turn = answer.get("turn")
    print(f"[turn {turn}; rounds used {_rounds(answer)}]", file=sys.stderr)
    return 0


def cmd_submit(args: argparse.Namespace) -> int:
    path = Path(args.file)
    if not path.is_file():
        raise UsageError(f"{path} is not a file")
    ref = run_ref(args)
    submission = make_client(args, ref).submit(ref.run_id, path)
    check = submission.get("format")
    if args.json:
        emit_json(submission)
    else:
        number = submission.get("number", "?")
        print(f"Submission #{number} ({submission.get('id')}) {submission.get('status', '')}")
        print("\n".join(format_check(check)))
    format_ok = isinstance(check, dict) and bool(check.get("ok"))
    return 0 if format_ok or not isinstance(check, dict) else 1


def cmd_status(args: argparse.Namespace) -> int:
    ref = run_ref(args)
    client = make_client(args, ref)
    run = client.run(ref.run_id)
    result = _available_result(client, run)
    if args.json:
        emit_json({"run": run, "result": result})
        return 0
    print(_run_header(run))
    print(f"Rounds: {_rounds(run)}")
    if run.get("status") == "open":
        print(f"Time: {_time_left(run)}")
    print("\n".join(_submission_lines(run)))
    if result is not None:
        print("\n".join(_result_lines(result)))
    return 0


def _run_header(run: JSONObject) -> str:
    # The server names the variant only once the run has ended (older servers: never).
    variant = f" variant {run['variant']}" if run.get("variant") else ""
    return (
        f"Run {run.get('id')}: {run.get('case')} v{run.get('version')}{variant}, "
        f"{run.get('condition')}/{run.get('mode')}, status {run.get('status')}"
    )


def _submission_lines(run: JSONObject) -> list[str]:
    submissions = [s for s in run.get("submissions") or [] if isinstance(s, dict)]
    if not submissions:
        return ["Submissions: none"]
    lines = ["Submissions:"]
    for sub in submissions:
        check = sub.get("format")
        ok = "format OK" if isinstance(check, dict) and check.get("ok") else "format FAILED"
        # A practice upload carries its verdict as a band under "result" (no exact score).
        shown = sub.get("score") is not None or isinstance(sub.get("result"), dict)
        scored = f", {score_text(sub)}" if shown else ""
        lines.append(f"  #{sub.get('number')} {sub.get('status')}, {ok}{scored}")
        lines.extend(f"  {line}" for line in violation_lines(sub))
    return lines


def _available_result(client: Client, run: JSONObject) -> JSONObject | None:
    """The run's result once it has ended (practice scores are on each submission)."""
    if run.get("status") == "open":
        return None
    try:
        return client.result(str(run.get("id")))
    except ApiError as exc:
        return {"status": "unavailable", "message": exc.message}


def _result_lines(result: JSONObject) -> list[str]:
    """The ended run's result: its score (a practice run's band), or why there is none yet."""
    submission = result.get("submission")
    verdict = submission.get("result") if isinstance(submission, dict) else None
    if result.get("status") == "unavailable" or (result.get("score") is None and not verdict):
        message = f" ({result['message']})" if result.get("message") else ""
        return [f"Result: {result.get('status', 'not available')}{message}"]
    lines = [f"Result: {score_text(result)}", *violation_lines(result)]
    if isinstance(result.get("recall"), (int, float)):
        lines.append(f"Recall: {result['recall']:.2f} of the hidden targets covered")
    return lines


def cmd_close(args: argparse.Namespace) -> int:
    ref = run_ref(args)
    client = make_client(args, ref)
    run = client.close(ref.run_id)
    if not args.wait:
        emit_json(run) if args.json else print(_run_header(run))
        return 0
    result = wait_for_result(client, ref.run_id, timeout=args.timeout, poll=args.poll)
    if args.json:
        emit_json({"run": run, "result": result})
    else:
        print(_run_header(run))
        if result is not None:
            print("\n".join(_result_lines(result)))
    if result is None or is_pending(result):
        print(f"fde: no result after {args.timeout:g}s; try `fde status` later", file=sys.stderr)
        return 1
    return 0


def cmd_tools(args: argparse.Namespace) -> int:
    """Print the server's OpenAI-style tool definitions, ready for ``tools=`` of a chat call."""
    document = make_client(args).agent_tools()
    emit_json(document if args.json else document.get("tools", []))
    return 0
