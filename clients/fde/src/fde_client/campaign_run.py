"""One campaign run, from start to result, and the resumption of an interrupted one.

The harness owns the bookkeeping (start, workspace, submit, close) and the agent only works
inside its folder: every scaffold is then comparable, since none can forget to submit or leave
a run open. Each step updates the run's record and saves the campaign file before the next, so
a restart knows exactly how far a run got.
"""

from __future__ import annotations

import hashlib
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from fde_client.api import Client, JSONObject
from fde_client.campaign_agent import PROMPT_FILE, Launch, run_agent, stop_orphan
from fde_client.campaign_file import CLOSED, DONE, ERROR, EXPIRED, STARTED, CampaignFile, Record
from fde_client.caps import Caps
from fde_client.errors import ApiError, ConnectionProblem, FdeError
from fde_client.output import seconds_left
from fde_client.play import is_pending, start_workspace, wait_for_result
from fde_client.prompt import render_prompt
from fde_client.workspace import environment_for, recorded_deliverable, update_run_file

#: How long to wait for coverage (Recall) once the score is in; judging runs after scoring.
RECALL_GRACE_SECONDS = 30.0


@dataclass
class Settings:
    label: str
    mode: str
    launch: Launch
    root: Path
    deliverable: str | None
    time_limit: float | None
    caps: Caps
    wait_timeout: float
    watch_every: float = 5.0


@dataclass
class Runner:
    client: Client
    settings: Settings
    book: CampaignFile
    stop: threading.Event

    def play(self, record: Record) -> None:
        """Start, let the agent work, submit, close, read the result. Refusals are recorded."""
        try:
            folder, deadline = self._start(record)
            self._work(record, folder, deadline)
            self._deliver(record, folder)
            self._close(record)
            self._result(record)
        except ConnectionProblem:
            raise
        except (FdeError, OSError) as exc:
            self._fail(record, exc)

    def resume(self, record: Record) -> None:
        """Finish a run an interrupted campaign left: never start it again.

        Its orphaned agent (if the campaign was killed) is stopped; an open run is given the
        deliverable the agent left and closed; a run the server expired meanwhile is recorded
        as expired, with its result.
        """
        assert record.run_id is not None
        try:
            if record.state == STARTED:
                stop_orphan(record.agent_pid, record.run_id)
                run = self.client.run(record.run_id)
                if run.get("status") == "open" and record.workspace:
                    record.stopped = record.stopped or "campaign interrupted; finished on resume"
                    self._deliver(record, Path(record.workspace))
                    self._close(record)
                elif run.get("status") == "expired":
                    record.state, record.status = EXPIRED, "expired"
                    self._apply(record, self.client.result(record.run_id))
                    self.book.save()
                    return
                else:
                    record.state, record.status = CLOSED, str(run.get("status"))
                    self.book.save()
            self._result(record)
        except ConnectionProblem:
            raise
        except (FdeError, OSError) as exc:
            self._fail(record, exc)

    def _start(self, record: Record) -> tuple[Path, object]:
        def started(run: JSONObject, folder: Path) -> None:
            record.run_id, record.workspace = str(run["id"]), str(folder)
            record.state, record.status = STARTED, "open"
            self.book.save()

        run, folder = start_workspace(
            self.client,
            case=record.case,
            condition=record.condition,
            mode=self.settings.mode,
            label=self.settings.label,
            parent=self.settings.root,
            on_started=started,
        )
        deliverable = self.settings.deliverable or recorded_deliverable(folder)
        if self.settings.caps.any:
            update_run_file(folder, caps=self.settings.caps.as_dict())
        (folder / PROMPT_FILE).write_text(render_prompt(folder, run, deliverable), "utf-8")
        return folder, run.get("deadline")

    def _work(self, record: Record, folder: Path, deadline: object) -> None:
        assert record.run_id is not None
        prompt_file = folder / PROMPT_FILE
        env = environment_for(record.run_id, folder, self.client.base_url, self.client.token)
        env.update(self.settings.launch.env, **self.settings.caps.environment())
        env.update(FDE_PROMPT_FILE=str(prompt_file), FDE_DELIVERABLE=self._name(folder))
        outcome = run_agent(
            self.settings.launch.command_for(prompt_file, prompt_file.read_text("utf-8")),
            folder,
            env,
            budget=self._budget(deadline),
            caps=self.settings.caps,
            client=self.client,
            run_id=record.run_id,
            stop=self.stop,
            on_spawn=lambda pid: self._spawned(record, pid),
            watch_every=self.settings.watch_every,
        )
        record.agent_exit, record.stopped = outcome.exit_code, outcome.stopped
        self.book.save()
        if self.stop.is_set():
            raise KeyboardInterrupt  # leave the record "started": a resume finishes it

    def _spawned(self, record: Record, pid: int) -> None:
        record.agent_pid = pid
        self.book.save()

    def _budget(self, deadline: object) -> float | None:
        left = seconds_left(deadline)
        limits = [x for x in (left, self.settings.time_limit) if x is not None]
        return max(min(limits), 1.0) if limits else None

    def _name(self, folder: Path) -> str:
        return self.settings.deliverable or recorded_deliverable(folder)

    def _deliver(self, record: Record, folder: Path) -> None:
        """Submit the declared deliverable, unless the agent already submitted that file."""
        assert record.run_id is not None
        path = folder / self._name(folder)
        if not path.is_file():
            _note(f"{record.key}: no {path.name} in the workspace; nothing submitted")
            return
        latest = _latest_submission(self.client.run(record.run_id))
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if latest is not None and latest.get("sha256") == digest:
            record.submitted, record.format_ok = True, _format_ok(latest)
        else:
            submission = self.client.submit(record.run_id, path)
            record.submitted, record.format_ok = True, _format_ok(submission)
        self.book.save()

    def _close(self, record: Record) -> None:
        """Close the run; an agent that already closed it is fine."""
        assert record.run_id is not None
        try:
            run = self.client.close(record.run_id)
        except ApiError:
            run = self.client.run(record.run_id)
        record.state, record.status = CLOSED, str(run.get("status", "closed"))
        self.book.save()

    def _result(self, record: Record) -> None:
        """Wait for the score, then briefly for Recall (coverage is judged after scoring)."""
        assert record.run_id is not None
        result = wait_for_result(self.client, record.run_id, timeout=self.settings.wait_timeout)
        if result is None or is_pending(result):
            return  # stays "closed": a resume (or `fde status`) reads the score later
        # Recall follows the score by the judge's time; a campaign told to wait only briefly
        # for results (--wait-timeout) waits no longer than that for it either.
        grace = time.monotonic() + min(RECALL_GRACE_SECONDS, self.settings.wait_timeout)
        while result.get("recall") is None and _has_customer(record) and time.monotonic() < grace:
            time.sleep(1.0)
            result = self.client.result(record.run_id)
        self._apply(record, result)
        record.state = EXPIRED if record.status == "expired" else DONE
        self.book.save()

    def _apply(self, record: Record, result: JSONObject) -> None:
        run = self.client.run(str(record.run_id))
        record.status = str(run.get("status") or result.get("status"))
        score = result.get("score")
        record.score = float(score) if isinstance(score, (int, float)) else None
        record.valid = result.get("valid") if isinstance(result.get("valid"), bool) else None
        recall = result.get("recall")
        record.recall = float(recall) if isinstance(recall, (int, float)) else None
        record.questions = int(run.get("rounds_used") or 0)

    def _fail(self, record: Record, exc: BaseException) -> None:
        record.error = exc.message if isinstance(exc, ApiError) else str(exc)
        record.state, record.status = ERROR, "error"
        self.book.save()
        _note(f"{record.key}: error: {record.error}")


def _has_customer(record: Record) -> bool:
    return record.condition in ("interact_req", "interact") or record.condition.startswith("gym_")


def _latest_submission(run: JSONObject) -> JSONObject | None:
    submissions = [s for s in run.get("submissions") or [] if isinstance(s, dict)]
    return max(submissions, key=lambda s: int(s.get("number") or 0)) if submissions else None


def _format_ok(submission: JSONObject) -> bool | None:
    check = submission.get("format")
    return bool(check.get("ok")) if isinstance(check, dict) else None


def _note(message: str) -> None:
    print(message, file=sys.stderr, flush=True)
