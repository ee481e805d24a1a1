"""A campaign's caps on asking: a turn cap and a contact-cost cap below the case's own limit.

``fde campaign --max-turns/--max-cost`` writes them into the run's ``.fde/run.json`` (and the
agent's environment as ``FDE_MAX_TURNS``/``FDE_MAX_COST``). Every question the reference tools
send (``./ask``, ``fde ask``, the tool box's ``ask_customer``) is checked here first, so an agent
learns "cap reached" as an answer instead of spending a round past it; the harness's watchdog
stops an agent that goes round them to the API.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fde_client.api import Client
from fde_client.errors import FdeError


class CapReached(FdeError):
    """The campaign's turn or cost cap is used up: asking more is refused locally."""

    exit_code = 1


@dataclass(frozen=True)
class Caps:
    max_turns: int | None = None
    max_cost: float | None = None

    @property
    def any(self) -> bool:
        return self.max_turns is not None or self.max_cost is not None

    def as_dict(self) -> dict[str, Any]:
        return {"max_turns": self.max_turns, "max_cost": self.max_cost}

    def environment(self) -> dict[str, str]:
        env = {}
        if self.max_turns is not None:
            env["FDE_MAX_TURNS"] = str(self.max_turns)
        if self.max_cost is not None:
            env["FDE_MAX_COST"] = repr(self.max_cost)
        return env


def caps_of(workspace: Path | None) -> Caps:
    """The caps recorded in the workspace, else those in the environment, else none."""
    recorded: dict[str, Any] = {}
    if workspace is not None:
        try:
            data = json.loads((workspace / ".fde" / "run.json").read_text(encoding="utf-8"))
            recorded = data.get("caps") or {} if isinstance(data, dict) else {}
        except (OSError, ValueError):
            recorded = {}
    turns = recorded.get("max_turns", os.environ.get("FDE_MAX_TURNS"))
    cost = recorded.get("max_cost", os.environ.get("FDE_MAX_COST"))
    return Caps(
        max_turns=int(turns) if turns not in (None, "") else None,
        max_cost=float(cost) if cost not in (None, "") else None,
    )


@dataclass(frozen=True)
class Usage:
    turns: int
    cost: float


def usage(client: Client, run_id: str) -> Usage:
    """Rounds used and contact cost spent so far, from the run's recorded exchanges."""
    exchanges = client.questions(run_id)
    cost = sum(float(e.get("contact_cost") or 0.0) for e in exchanges)
    return Usage(turns=len(exchanges), cost=cost)


def over(caps: Caps, used: Usage) -> str | None:
    """Why no further question may be sent, or None."""
    if caps.max_turns is not None and used.turns >= caps.max_turns:
        return f"the campaign's turn cap is reached ({used.turns}/{caps.max_turns} questions)"
    if caps.max_cost is not None and used.cost >= caps.max_cost:
        return f"the campaign's contact-cost cap is reached ({used.cost:g}/{caps.max_cost:g})"
    return None


def check_before_asking(client: Client, run_id: str, caps: Caps) -> None:
    if not caps.any:
        return
    reason = over(caps, usage(client, run_id))
    if reason:
        raise CapReached(f"{reason}; build the deliverable from what you have")


def exceeded(caps: Caps, used: Usage) -> str | None:
    """Why an agent is past a cap (the watchdog's test: strictly beyond, not at it)."""
    if caps.max_turns is not None and used.turns > caps.max_turns:
        return f"asked {used.turns} questions, cap {caps.max_turns}"
    if caps.max_cost is not None and used.cost > caps.max_cost:
        return f"spent {used.cost:g} on contact, cap {caps.max_cost:g}"
    return None
