"""FDE-Gym's task instruction levels (§2.2, Table 1): how much of the problem a run is told.

The environment, the stakeholders and the grader stay the same at every level; only the brief
changes. L3, the primary setting, is the sponsor's original request: a case's ordinary
``interact_req`` / ``interact`` run. Below it:

* **L0** supplies the problem, its rules and constraints and the scoring criteria: every
  clarification target's requirement, from ``hidden/gt.json``.
* **L1** supplies the problem and the scoring criteria only: the targets in the
  ``scoring_convention`` domain. Rules and constraints are left to discover.
* **L2** restates the underlying problem when the sponsor's request addresses the wrong one. A
  case offers it only if its author wrote ``hidden/levels/L2.md``; where the request is not
  misdirected L2 is the original request (FDE-Gym reuses L3 instructions there), so it is not
  offered as a separate condition.

The brief is shown up front beside the request, like Full information, and the customer stays
available. Being told rules is seeing the case's hidden side (``runs.standing``).
"""

from __future__ import annotations

import json
from pathlib import Path

#: Condition value → FDE-Gym level.
LEVEL_CONDITIONS: dict[str, str] = {"gym_l0": "L0", "gym_l1": "L1", "gym_l2": "L2"}
SCORING_DOMAIN = "scoring_convention"


def offered_levels(hidden_dir: Path) -> list[str]:
    """The level conditions a case version offers (L0 and L1 for every case with targets)."""
    offered = ["gym_l0", "gym_l1"] if _targets(hidden_dir) else []
    if (hidden_dir / "levels" / "L2.md").is_file():
        offered.append("gym_l2")
    return offered


def level_brief_md(hidden_dir: Path, condition: str) -> str:
    """The brief a run at ``condition`` receives up front, as Markdown."""
    level = LEVEL_CONDITIONS[condition]
    if level == "L2":
        text = (hidden_dir / "levels" / "L2.md").read_text(encoding="utf-8").strip()
        return f"## The problem behind the request (FDE-Gym L2)\n\n{text}\n"
    targets = _targets(hidden_dir)
    scoring = [t for t in targets if t.get("domain") == SCORING_DOMAIN]
    rules = [t for t in targets if t.get("domain") != SCORING_DOMAIN]
    parts = [f"## What the customer told us (FDE-Gym {level})\n"]
    parts.append("### How the result will be judged\n")
    parts.append(_bullets(scoring) or "(the request says all there is)")
    if level == "L0":
        parts.append("\n### Rules and constraints\n")
        parts.append(_bullets(rules) or "(none)")
    return "\n".join(parts) + "\n"


def _targets(hidden_dir: Path) -> list[dict[str, object]]:
    try:
        gt = json.loads((hidden_dir / "gt.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [t for t in gt.get("targets", []) if isinstance(t, dict) and t.get("requirement")]


def _bullets(targets: list[dict[str, object]]) -> str:
    return "\n".join(f"- {t['requirement']}" for t in targets)
