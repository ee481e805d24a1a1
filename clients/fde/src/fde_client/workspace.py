"""Workspace folders: what ``fde start`` writes, and how later commands find their run.

A workspace is self-describing: ``.fde/run.json`` names the run and the server, so ``fde ask``,
``fde submit`` and ``./ask`` work from the folder or any folder below it without flags. The token
is deliberately not written there: workspaces get copied, zipped and shown to agents, while the
token is the user's credential and stays in the environment.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import fde_client
from fde_client import __version__
from fde_client.archive import safe_extract
from fde_client.errors import UsageError
from fde_client.texts import readme_text

RUN_FILE = Path(".fde") / "run.json"
INTERACTIVE_CONDITIONS = ("interact_req", "interact", "gym_l0", "gym_l1", "gym_l2")


@dataclass(frozen=True)
class RunRef:
    """Which run a command is about, and what the workspace knows about it (if any)."""

    run_id: str
    server: str | None = None
    workspace: Path | None = None


def find_run_file(start: Path) -> Path | None:
    """The nearest ``.fde/run.json`` in ``start`` or one of its parents."""
    start = start.resolve()
    for folder in (start, *start.parents):
        candidate = folder / RUN_FILE
        if candidate.is_file():
            return candidate
    return None


def load_run_file(path: Path) -> RunRef:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UsageError(f"cannot read {path}: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("run_id"), str):
        raise UsageError(f"{path} has no run_id; was it written by `fde start`?")
    server = data.get("server") if isinstance(data.get("server"), str) else None
    return RunRef(run_id=data["run_id"], server=server, workspace=path.parent.parent)


def resolve_run(run_id: str | None, workspace: Path | None, cwd: Path) -> RunRef:
    """``--run`` wins; else the workspace given by ``--workspace``; else search from ``cwd``."""
    if run_id:
        return RunRef(run_id=run_id)
    if workspace is not None:
        run_file = workspace / RUN_FILE
        if not run_file.is_file():
            raise UsageError(f"{workspace} is not an fde workspace (no {RUN_FILE})")
        return load_run_file(run_file)
    found = find_run_file(cwd)
    if found is None:
        raise UsageError(
            f"no run given: pass --run ID, or run this inside a workspace made by `fde start` "
            f"(none found in {cwd.resolve()} or its parents)"
        )
    return load_run_file(found)


def deliverable_name(schema: dict[str, Any]) -> str:
    """The file name the README suggests and ``fde campaign`` submits: from the schema format."""
    return "deliverable.json" if schema.get("format") == "json" else "deliverable.csv"


def recorded_deliverable(folder: Path) -> str:
    """The deliverable name ``fde start`` chose for this workspace (from its schema)."""
    try:
        data = json.loads((folder / RUN_FILE).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        data = {}
    name = data.get("deliverable") if isinstance(data, dict) else None
    # A plain file name only: the workspace is writable by the agent, the harness reads it.
    plain = isinstance(name, str) and name not in ("", ".", "..") and Path(name).name == name
    return str(name) if plain else "deliverable.csv"


def short_id(run_id: str) -> str:
    return run_id.replace("-", "")[:8]


def default_folder(case: str, run_id: str) -> str:
    return f"{case}-{short_id(run_id)}"


def check_target_folder(folder: Path) -> None:
    """Refuse to write over anything: a clobbered workspace would mix two runs' files."""
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise UsageError(f"{folder} already exists and is not empty; choose another --dir")


def read_schema(folder: Path) -> dict[str, Any]:
    try:
        schema = json.loads((folder / "submission_schema.json").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return {}
    return schema if isinstance(schema, dict) else {}


def create_workspace(
    folder: Path, *, run: dict[str, Any], bundle: zipfile.ZipFile, server: str
) -> Path:
    """Unpack the bundle into ``folder`` and add the run file, ``ask`` and ``README.txt``."""
    folder.mkdir(parents=True, exist_ok=True)
    safe_extract(bundle, folder)
    information = run.get("information")
    if isinstance(information, str) and information.strip():
        (folder / "information.md").write_text(information, encoding="utf-8")
    deliverable = deliverable_name(read_schema(folder))
    write_run_file(folder, run=run, server=server, deliverable=deliverable)
    condition = str(run.get("condition", ""))
    if condition in INTERACTIVE_CONDITIONS:
        write_ask_script(folder)
    (folder / "README.txt").write_text(readme_text(run, deliverable), encoding="utf-8")
    return folder


def write_run_file(folder: Path, *, run: dict[str, Any], server: str, deliverable: str) -> None:
    record = {
        "run_id": run["id"],
        "server": server,
        "case": run.get("case"),
        "version": run.get("version"),
        "condition": run.get("condition"),
        "mode": run.get("mode"),
        "label": run.get("label"),
        "deadline": run.get("deadline"),
        "rounds_limit": run.get("rounds_limit"),
        "deliverable": deliverable,
        "written_by": f"fde-client {__version__}",
    }
    path = folder / RUN_FILE
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")


def update_run_file(folder: Path, **fields: Any) -> None:
    """Add fields to the workspace's run file (a campaign's caps)."""
    path = folder / RUN_FILE
    record = json.loads(path.read_text(encoding="utf-8"))
    record.update(fields)
    path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")


def write_ask_script(folder: Path) -> Path:
    """A POSIX shell script that asks this workspace's run, whatever the caller's cwd.

    It prefers the interpreter and package that created it (an agent's shell may not have
    ``fde`` on its PATH) and falls back to ``fde`` on the PATH when the workspace is used on
    another machine or in a container where that interpreter does not exist.
    """
    package_root = Path(fde_client.__file__).resolve().parent.parent
    python = shlex.quote(sys.executable)
    script = ASK_TEMPLATE.format(python=python, package_root=shlex.quote(str(package_root)))
    path = folder / "ask"
    path.write_text(script, encoding="utf-8")
    path.chmod(path.stat().st_mode | 0o111)
    return path


ASK_TEMPLATE = """#!/bin/sh
# Ask this run's customer; each call is one round of the run's budget.
#   ./ask "Does a second batch of the same SKU make a stack mixed?"
#   ./ask --to NAME "question"      (address one stakeholder)
#   ./ask - < questions.txt         (read the message from standard input)
# Written by `fde start`; the run id is read from .fde/run.json next to this script.
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd) || exit 2
python={python}
if [ -x "$python" ]; then
  PYTHONPATH={package_root}${{PYTHONPATH:+:$PYTHONPATH}} \\
    exec "$python" -m fde_client ask --workspace "$here" "$@"
fi
exec fde ask --workspace "$here" "$@"
"""


def environment_for(run_id: str, workspace: Path, server: str, token: str | None) -> dict[str, str]:
    """The environment ``fde campaign`` gives the agent command of one run."""
    env = dict(os.environ)
    env.update(FDE_RUN_ID=run_id, FDE_WORKSPACE=str(workspace.resolve()), FDE_URL=server)
    if token:
        env["FDE_TOKEN"] = token
    return env
