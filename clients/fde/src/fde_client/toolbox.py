"""Executes the server's agent tools (``/api/agent-tools/``) against one run's workspace.

A function-calling loop registers the definitions that ``fde tools`` prints and hands each call
to ``Toolbox.call(name, arguments)``; the answer is a JSON-able dict to send back as the tool
message. File tools only see the workspace folder (no ``..``, no absolute paths, no symbolic
links out of it), which holds the visible bundle and what the agent wrote, nothing hidden.
Errors come back as ``{"error": ...}`` so the model can read and recover, never as exceptions.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fde_client.api import Client
from fde_client.caps import Caps, caps_of, check_before_asking
from fde_client.errors import FdeError

READ_DEFAULT = 20_000
READ_MAX = 100_000
HIDDEN_NAMES = (".fde",)  # the run file: ids and settings, nothing for the model


@dataclass
class Toolbox:
    client: Client
    run_id: str
    workspace: Path
    caps: Caps | None = None

    def __post_init__(self) -> None:
        self.workspace = self.workspace.resolve()
        if self.caps is None:
            self.caps = caps_of(self.workspace)
        self._tools: dict[str, Callable[..., dict[str, Any]]] = {
            "ask_customer": self.ask_customer,
            "list_files": self.list_files,
            "read_file": self.read_file,
            "submit": self.submit,
        }

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    def call(self, name: str, arguments: str | dict[str, Any] | None) -> dict[str, Any]:
        """Run one tool call; ``arguments`` as the model sent them (a JSON string or a dict)."""
        tool = self._tools.get(name)
        if tool is None:
            return {"error": f"no tool {name!r}; the tools are {', '.join(self._tools)}"}
        try:
            args = json.loads(arguments) if isinstance(arguments, str) else (arguments or {})
        except json.JSONDecodeError as exc:
            return {"error": f"the arguments are not JSON: {exc}"}
        if not isinstance(args, dict):
            return {"error": "the arguments must be a JSON object"}
        try:
            return tool(**args)
        except TypeError as exc:
            return {"error": f"bad arguments for {name}: {exc}"}
        except FdeError as exc:
            return {"error": str(exc)}

    def ask_customer(self, text: str, to: str = "") -> dict[str, Any]:
        if not str(text).strip():
            return {"error": "the message is empty"}
        assert self.caps is not None
        check_before_asking(self.client, self.run_id, self.caps)
        # An id makes a retried call (a dropped connection) cost its round once.
        answer = self.client.ask_with_id(self.run_id, str(text), to or None, uuid.uuid4().hex)
        return {
            "stakeholder": answer.get("stakeholder"),
            "text": answer.get("text"),
            "turn": answer.get("turn"),
            "rounds_used": answer.get("rounds_used"),
            "rounds_limit": answer.get("rounds_limit"),
        }

    def list_files(self, path: str = ".") -> dict[str, Any]:
        folder = self._inside(path)
        if not folder.is_dir():
            return {"error": f"{path} is not a folder of the workspace"}
        files = []
        for item in sorted(folder.rglob("*")):
            relative = item.relative_to(self.workspace)
            if relative.parts[0] in HIDDEN_NAMES or not item.is_file() or item.is_symlink():
                continue
            files.append({"path": relative.as_posix(), "size": item.stat().st_size})
        return {"files": files}

    def read_file(self, path: str, offset: int = 0, limit: int = READ_DEFAULT) -> dict[str, Any]:
        target = self._inside(path)
        if not target.is_file():
            return {"error": f"{path} is not a file of the workspace"}
        text = target.read_text(encoding="utf-8", errors="replace")
        offset = max(int(offset), 0)
        limit = min(max(int(limit), 1), READ_MAX)
        chunk = text[offset : offset + limit]
        return {
            "path": path,
            "offset": offset,
            "text": chunk,
            "total_chars": len(text),
            "next_offset": offset + len(chunk) if offset + len(chunk) < len(text) else None,
        }

    def submit(self, path: str) -> dict[str, Any]:
        target = self._inside(path)
        if not target.is_file():
            return {"error": f"{path} is not a file of the workspace; write it first"}
        submission = self.client.submit(self.run_id, target)
        return {
            "number": submission.get("number"),
            "status": submission.get("status"),
            "format": submission.get("format"),
            "score_band": (submission.get("result") or {}).get("score_band")
            if isinstance(submission.get("result"), dict)
            else None,
        }

    def _inside(self, path: str) -> Path:
        """``path`` resolved inside the workspace, or a refusal (no way out of the folder)."""
        relative = Path(str(path or "."))
        if relative.is_absolute():
            raise FdeError(f"{path}: give a path relative to the workspace")
        resolved = (self.workspace / relative).resolve()
        if resolved != self.workspace and self.workspace not in resolved.parents:
            raise FdeError(f"{path} is outside the workspace")
        if resolved != self.workspace and resolved.relative_to(self.workspace).parts[0] in (
            HIDDEN_NAMES
        ):
            raise FdeError(f"{path} is not a file of the workspace")
        return resolved
