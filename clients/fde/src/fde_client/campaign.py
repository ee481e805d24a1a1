"""``fde campaign``: play cases x repeats with an agent command, FDE-Gym style.

For each run the harness owns the bookkeeping (start, workspace, submit, close) and the agent
command only works inside its folder: that keeps every scaffold comparable, since none of them
can forget to submit or leave a run open. Agent output goes to ``.fde/agent.log`` so the summary
on stdout stays parseable.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from fde_client.api import Client, JSONObject
from fde_client.commands import emit_json, make_client
from fde_client.errors import ApiError, ConnectionProblem, FdeError, UsageError
from fde_client.output import seconds_left, table
from fde_client.play import is_pending, start_workspace, wait_for_result
from fde_client.workspace import RUN_FILE, environment_for, recorded_deliverable

KILL_GRACE_SECONDS = 10


@dataclass
class CampaignRow:
    case: str
    repeat: int
    run_id: str | None = None
    workspace: str | None = None
    agent_exit: int | None = None
    submitted: bool = False
    format_ok: bool | None = None
    status: str = "not started"
    score: float | None = None
    error: str | None = None


def resolve_command(command: list[str]) -> list[str]:
    """Make the program absolute: the agent runs inside its workspace, not in our cwd."""
    if not command:
        raise UsageError("no agent command: put it after `--`, e.g. `-- python my_agent.py`")
    program = command[0]
    if os.sep in program:
        path = Path(program).resolve()
        if not path.is_file():
            raise UsageError(f"agent command {program!r} does not exist")
        return [str(path), *command[1:]]
    if shutil.which(program) is None:
        raise UsageError(f"agent command {program!r} is not on the PATH")
    return command


def parse_cases(text: str) -> list[str]:
    cases = [slug.strip() for slug in text.split(",") if slug.strip()]
    if not cases:
        raise UsageError("--cases needs at least one case slug")
    return cases


def cmd_campaign(args: argparse.Namespace) -> int:
    command = resolve_command(args.command)
    cases = parse_cases(args.cases)
    if args.repeats < 1:
        raise UsageError("--repeats must be at least 1")
    client = make_client(args)
    _check_cases_exist(client, cases)
    root = Path(args.dir)
    rows = [CampaignRow(case, r) for case in cases for r in range(1, args.repeats + 1)]
    try:
        for index, row in enumerate(rows, start=1):
            _note(f"[{index}/{len(rows)}] {row.case} #{row.repeat}")
            play_one(client, row, args, command, root)
        collect_results(client, rows, timeout=args.wait_timeout)
    finally:
        emit_json([asdict(r) for r in rows]) if args.json else print(summary_table(rows))
    return 1 if any(row.error for row in rows) else 0


def _check_cases_exist(client: Client, cases: list[str]) -> None:
    """Refuse an unknown slug before any run is spent (a typo must not cost ranked runs)."""
    known = {str(case.get("slug")) for case in client.list_cases()}
    unknown = [case for case in cases if case not in known]
    if unknown:
        raise UsageError(
            f"unknown case(s): {', '.join(unknown)}; the server has: {', '.join(sorted(known))}"
        )


def play_one(
    client: Client, row: CampaignRow, args: argparse.Namespace, command: list[str], root: Path
) -> None:
    """Start, let the agent work, submit, close. A server refusal is recorded, not raised."""
    try:
        run, folder = start_workspace(
            client,
            case=row.case,
            condition=args.condition,
            mode=args.mode,
            label=args.label,
            parent=root,
        )
        row.run_id, row.workspace, row.status = str(run["id"]), str(folder), "open"
        _note(f"  run {row.run_id} in {folder}")
        env = environment_for(row.run_id, folder, client.base_url, client.token)
        row.agent_exit = run_agent(command, folder, env, seconds_left(run.get("deadline")))
        _note(f"  agent exited with {row.agent_exit}")
        submit_deliverable(client, row, folder, args.deliverable)
        close_run(client, row)
    except ConnectionProblem:
        raise
    except (FdeError, OSError) as exc:
        row.error = exc.message if isinstance(exc, ApiError) else str(exc)
        row.status = "error"
        _note(f"  error: {exc}")


def run_agent(command: list[str], folder: Path, env: dict[str, str], budget: float | None) -> int:
    """Run the agent in its workspace until it exits or the run's deadline passes.

    The agent gets its own process group so that its children are stopped with it.
    """
    log_path = folder / RUN_FILE.parent / "agent.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command, cwd=folder, env=env, stdout=log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        try:
            return process.wait(timeout=max(budget, 1.0) if budget is not None else None)
        except subprocess.TimeoutExpired:
            _note("  the run's deadline passed; stopping the agent")
            return _stop(process)
        except BaseException:
            _stop(process)
            raise


def _stop(process: subprocess.Popen[bytes]) -> int:
    for sig, grace in ((signal.SIGTERM, KILL_GRACE_SECONDS), (signal.SIGKILL, None)):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, sig)
        try:
            return process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            continue
    return process.wait()


def submit_deliverable(client: Client, row: CampaignRow, folder: Path, name: str | None) -> None:
    deliverable = folder / (name or recorded_deliverable(folder))
    if not deliverable.is_file():
        _note(f"  no {deliverable.name} in the workspace; nothing submitted")
        return
    assert row.run_id is not None
    submission = client.submit(row.run_id, deliverable)
    check = submission.get("format")
    row.submitted = True
    row.format_ok = bool(check.get("ok")) if isinstance(check, dict) else None
    _note(f"  submitted {deliverable.name}: format {'OK' if row.format_ok else 'FAILED'}")


def close_run(client: Client, row: CampaignRow) -> None:
    """Close the run; an agent that already closed it is fine, so ask for the status then."""
    assert row.run_id is not None
    try:
        run = client.close(row.run_id)
    except ApiError:
        run = client.run(row.run_id)
    row.status = str(run.get("status", "closed"))


def collect_results(client: Client, rows: list[CampaignRow], *, timeout: float) -> None:
    """Fetch results of the submitted runs; scoring runs in the background meanwhile."""
    deadline = time.monotonic() + timeout
    for row in rows:
        if not row.submitted or row.run_id is None or row.error:
            continue
        left = max(deadline - time.monotonic(), 0.0)
        try:
            result = wait_for_result(client, row.run_id, timeout=left)
        except ApiError as exc:
            row.status = f"no result: {exc.message}"
            continue
        _apply_result(row, result)


def _apply_result(row: CampaignRow, result: JSONObject | None) -> None:
    if result is None or is_pending(result):
        row.status = "pending"
        return
    row.status = str(result.get("status"))
    score = result.get("score")
    row.score = float(score) if isinstance(score, (int, float)) else None


def summary_table(rows: list[CampaignRow]) -> str:
    body = [
        [
            row.case,
            row.repeat,
            row.run_id or "-",
            "-" if row.agent_exit is None else row.agent_exit,
            _delivery(row),
            f"{row.score:.4f}" if row.score is not None else (row.error or row.status),
        ]
        for row in rows
    ]
    return table(["case", "repeat", "run", "agent exit", "deliverable", "score/status"], body)


def _delivery(row: CampaignRow) -> str:
    if not row.submitted:
        return "none"
    return "format OK" if row.format_ok else "format FAILED"


def _note(message: str) -> None:
    print(message, file=sys.stderr, flush=True)
