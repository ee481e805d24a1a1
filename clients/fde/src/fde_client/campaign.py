"""``fde campaign``: a research harness over cases x conditions x repeats, FDE-Bench style.

Everything that can be refused is refused before the first run starts (unknown cases or
conditions, a tutorial in a ranked campaign, a missing agent). Runs are played by up to
``--parallel`` workers, never two on one case at once (the server allows one open ranked run per
player and case). The campaign file (``campaign_file``) makes the whole thing resumable: the
same command started again finishes what an interruption left and plays only what is missing.
"""

from __future__ import annotations

import argparse
import threading
from collections import deque
from dataclasses import asdict
from pathlib import Path

from fde_client import __version__
from fde_client.campaign_agent import Launch, built_in, custom
from fde_client.campaign_file import FINAL, PENDING, CampaignFile, Record
from fde_client.campaign_plan import parse_conditions, plan, select_cases
from fde_client.campaign_report import Progress, errors_of, summary_table
from fde_client.campaign_run import Runner, Settings
from fde_client.caps import Caps
from fde_client.commands import emit_json, make_client
from fde_client.errors import UsageError

DEFAULT_FILE = "campaign.json"


def cmd_campaign(args: argparse.Namespace) -> int:
    launch = _launch(args)
    label = _label(args, launch)
    client = make_client(args)
    cases = select_cases(
        client.list_cases(), args.cases, family=args.family, sector=args.sector, mode=args.mode
    )
    keys = plan(cases, parse_conditions(args.conditions), args.repeats)
    root = Path(args.dir)
    book = CampaignFile(
        Path(args.campaign_file) if args.campaign_file else root / DEFAULT_FILE,
        {"label": label, "mode": args.mode, "agent": _agent_setting(launch)},
        keys,
    )
    settings = Settings(
        label=label,
        mode=args.mode,
        launch=launch,
        root=root,
        deliverable=args.deliverable,
        time_limit=args.time_limit,
        caps=Caps(max_turns=args.max_turns, max_cost=args.max_cost),
        wait_timeout=args.wait_timeout,
    )
    progress = Progress(book.records)
    if book.resumed:
        progress.update(f"resuming {book.path}")
    try:
        play_all(Runner(client, settings, book, threading.Event()), book.records, args, progress)
    finally:
        progress.close()
        book.save()
        if args.json:
            emit_json([asdict(r) for r in book.records])
        else:
            print(summary_table(book.records))
            print(f"Campaign file: {book.path} (run the same command again to resume)")
    return 1 if errors_of(book.records) else 0


def _launch(args: argparse.Namespace) -> Launch:
    if args.agent and args.command:
        raise UsageError("give either --agent NAME or a command after `--`, not both")
    if args.agent:
        return built_in(args.agent, model=args.model, extra=list(args.agent_arg or []))
    if args.model:
        raise UsageError("--model is for --agent llm; a command after `--` takes its own options")
    return custom(args.command)


def _agent_setting(launch: Launch) -> str:
    """The agent as the campaign file records it (without this machine's Python path)."""
    words = launch.argv[2:] if launch.name != "custom" else launch.argv
    return " ".join(words)


def _label(args: argparse.Namespace, launch: Launch) -> str:
    """Boards key agents by label: say which agent, scaffold and model played."""
    if args.label:
        return str(args.label)
    if launch.name == "custom":
        raise UsageError("--label is required with an agent command (e.g. 'my-agent / react / m1')")
    model = args.model if launch.name == "llm" else None
    if launch.name == "llm" and not model:
        raise UsageError("--agent llm needs --model (any model of your OpenAI-compatible endpoint)")
    return f"{launch.name} / fde-agents {__version__} / {model or 'no model'}"


def play_all(
    runner: Runner, records: list[Record], args: argparse.Namespace, progress: Progress
) -> None:
    """Resume what was in flight, then play the rest on ``--parallel`` workers."""
    unfinished = [r for r in records if r.state not in FINAL and r.state != PENDING]
    todo = deque(r for r in records if r.state == PENDING)
    schedule = Schedule(todo, one_per_case=args.mode == "ranked")
    failures: list[BaseException] = []

    def worker() -> None:
        try:
            while not runner.stop.is_set():
                record = schedule.take()
                if record is None:
                    return
                try:
                    runner.play(record)
                finally:
                    schedule.release(record)
                    progress.update(f"{record.key} {record.status}")
        except BaseException as exc:  # an unreachable server stops the whole campaign
            failures.append(exc)
            runner.stop.set()
            schedule.wake()

    for record in unfinished:
        runner.resume(record)
        progress.update(f"{record.key} finished on resume: {record.status}")
    progress.update()
    threads = [threading.Thread(target=worker, daemon=True) for _ in range(max(args.parallel, 1))]
    for thread in threads:
        thread.start()
    try:
        for thread in threads:
            while thread.is_alive():
                thread.join(timeout=0.5)
    except KeyboardInterrupt:
        runner.stop.set()  # workers stop their agents; records stay "started" for a resume
        schedule.wake()
        for thread in threads:
            thread.join()
        raise
    real = [f for f in failures if not isinstance(f, KeyboardInterrupt)]
    if real:
        raise real[0]


class Schedule:
    """Hands out pending records, keeping one open run per case when runs are ranked."""

    def __init__(self, todo: deque[Record], *, one_per_case: bool) -> None:
        self.todo = todo
        self.one_per_case = one_per_case
        self.busy: set[str] = set()
        self._cond = threading.Condition()
        self._closed = False

    def take(self) -> Record | None:
        with self._cond:
            while not self._closed:
                for record in self.todo:
                    if not self.one_per_case or record.case not in self.busy:
                        self.todo.remove(record)
                        self.busy.add(record.case)
                        return record
                if not self.todo:
                    return None
                self._cond.wait(timeout=1.0)
            return None

    def release(self, record: Record) -> None:
        with self._cond:
            self.busy.discard(record.case)
            self._cond.notify_all()

    def wake(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()
