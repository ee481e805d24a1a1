"""Where a reference agent is and whom it talks to: the workspace ``fde start`` wrote.

``fde campaign`` runs an agent in the workspace with ``FDE_RUN_ID``, ``FDE_URL``, ``FDE_TOKEN``,
``FDE_WORKSPACE`` and ``FDE_DELIVERABLE`` set; run by hand inside a workspace the agent reads
the same from ``.fde/run.json`` and the environment.
"""

from __future__ import annotations

import argparse
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fde_client.api import DEFAULT_URL, Client
from fde_client.toolbox import Toolbox
from fde_client.workspace import find_run_file


@dataclass
class AgentContext:
    workspace: Path
    run: dict[str, Any]
    client: Client
    deliverable: str

    @property
    def run_id(self) -> str:
        return str(self.run["run_id"])

    @property
    def case(self) -> str:
        return str(self.run.get("case") or "")

    def toolbox(self) -> Toolbox:
        return Toolbox(self.client, self.run_id, self.workspace)

    def write_deliverable(self, content: str) -> Path:
        path = self.workspace / self.deliverable
        path.write_text(content, encoding="utf-8")
        return path


def common_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workspace", help="the run's workspace (default: FDE_WORKSPACE or cwd)")
    parser.add_argument(
        "--submit", action="store_true", help="submit the deliverable too (fde campaign does it)"
    )


def context(args: argparse.Namespace) -> AgentContext:
    start = Path(args.workspace or os.environ.get("FDE_WORKSPACE") or Path.cwd())
    run_file = find_run_file(start)
    if run_file is None:
        raise SystemExit(f"fde-agent: no fde workspace at {start} (run it inside `fde start`'s)")
    run = json.loads(run_file.read_text(encoding="utf-8"))
    workspace = run_file.parent.parent
    url = os.environ.get("FDE_URL") or run.get("server") or DEFAULT_URL
    client = Client(url, os.environ.get("FDE_TOKEN") or None)
    deliverable = os.environ.get("FDE_DELIVERABLE") or run.get("deliverable") or "deliverable.csv"
    return AgentContext(workspace, run, client, Path(deliverable).name)


def say(message: str) -> None:
    """The agent's own log line (``fde campaign`` keeps them in ``.fde/agent.log``)."""
    print(message, flush=True)
