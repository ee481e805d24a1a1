"""The campaign file: one JSON document that makes a campaign resumable.

It holds the campaign's settings and one record per planned run, rewritten atomically (a temp
file renamed over it) after every step, so a campaign killed at any moment leaves a file that
says which runs finished, which one was in flight (its run id is recorded the moment the
server creates the run) and which never started. Started again with the same settings, the
campaign plays only what is missing: it never starts a second run for a recorded one.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from fde_client.campaign_plan import RunKey
from fde_client.errors import UsageError

FORMAT = 1
#: States a record moves through. "started": the run exists (agent working, or interrupted);
#: "closed": closed on the server, result not yet read; the last three are final.
PENDING, STARTED, CLOSED, DONE, EXPIRED, ERROR = (
    "pending", "started", "closed", "done", "expired", "error",
)  # fmt: skip
FINAL = frozenset({DONE, EXPIRED, ERROR})
#: Settings that must match for a file to be resumed: another label or mode would mix two
#: experiments' runs in one summary.
BINDING = ("label", "mode", "agent")


@dataclass
class Record:
    case: str
    condition: str
    repeat: int
    state: str = PENDING
    run_id: str | None = None
    workspace: str | None = None
    agent_pid: int | None = None
    agent_exit: int | None = None
    stopped: str | None = None
    submitted: bool = False
    format_ok: bool | None = None
    status: str = "not started"
    score: float | None = None
    valid: bool | None = None
    recall: float | None = None
    questions: int | None = None
    error: str | None = None

    @property
    def key(self) -> str:
        return RunKey(self.case, self.condition, self.repeat).key

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Record:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})


class CampaignFile:
    def __init__(self, path: Path, settings: dict[str, Any], keys: list[RunKey]) -> None:
        self.path = path
        self.settings = settings
        self._lock = threading.Lock()
        earlier = self._read_earlier()
        self.resumed = earlier is not None
        known = {r.key: r for r in earlier or []}
        self.records = [
            known.get(k.key) or Record(k.case, k.condition, k.repeat) for k in keys
        ]  # fmt: skip
        # Records of an earlier, larger plan stay in the file (they are runs that exist).
        planned = {k.key for k in keys}
        self._kept = [r for r in earlier or [] if r.key not in planned]
        self.save()

    def _read_earlier(self) -> list[Record] | None:
        if not self.path.exists():
            return None
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            records = [Record.from_dict(item) for item in data["runs"]]
            settings = data["settings"]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise UsageError(f"cannot resume from {self.path}: {exc}") from None
        clashes = [n for n in BINDING if settings.get(n) != self.settings.get(n)]
        if clashes:
            detail = ", ".join(
                f"{n} {settings.get(n)!r} there, {self.settings.get(n)!r} now" for n in clashes
            )
            raise UsageError(
                f"{self.path} belongs to another campaign ({detail}); "
                "pass another --campaign-file or the same settings"
            )
        return records

    def save(self) -> None:
        """Write the file atomically; called after every change of a record."""
        with self._lock:
            body = {
                "format": FORMAT,
                "settings": self.settings,
                "runs": [asdict(r) for r in [*self.records, *self._kept]],
            }
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
            temporary.write_text(json.dumps(body, indent=2) + "\n", encoding="utf-8")
            os.replace(temporary, self.path)
