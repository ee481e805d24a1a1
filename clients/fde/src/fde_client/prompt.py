"""The solving prompt an agent gets, after FDE-Bench A.9.1.

All conditions share one base template; only the condition block changes. The request block is
the heading "## The client's request" followed by the complete ``instruction.md``; the data list
holds the sorted file names directly under ``data/``; the workspace is the run's folder. For Full
(and the FDE-Gym levels) the condition block carries ``information.md``; for the oracle
conditions the answers handed out, which the server renders as bullets in registry order, or
"(none)".

The paper's exact wording is released with its artifact, not in its text; this keeps its
structure and information boundaries (the request, the data names, the condition's
information; nothing hidden), so a campaign's agents see the same thing under one condition.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

BASE = """\
You are a forward-deployed engineer. A client sent the request below. Build the deliverable
it asks for from the data in your workspace, and write it to the file named under
"Deliverable".

Workspace: {workspace}

## The client's request

{instruction}

## Data

Files in data/:
{data}

## Deliverable

Write the deliverable to {deliverable} in the workspace, in the form submission_schema.json
describes (it is checked against that schema).

{condition}
"""

ASK = (
    'Ask the client with ./ask "your question" (or ./ask --to NAME "..." for one '
    "stakeholder); each message is one round{limit}."
)

CONDITIONS = {
    "interact_req": (
        "## Clarification\n\nThe request leaves business rules, limits and conventions unstated. "
        "Before you build the deliverable, clarify them with the client. {ask}"
    ),
    "interact": "## Clarification\n\nYou may ask the client about anything the request leaves "
    "open. {ask}",
    "hidden": "## Clarification\n\nThere is no client to ask: work from the request and the "
    "data alone.",
    "full": "## Business information\n\nThere is no client to ask. The complete business "
    "information:\n\n{information}",
    "oracle": "## Answers\n\nThere is no client to ask. Answers to clarification questions, as "
    "the client gave them:\n\n{information}",
    "level": "## What you are told\n\n{information}\n\n## Clarification\n\n{ask}",
}


def condition_block(condition: str, information: str, rounds_limit: Any) -> str:
    limit = f" (you have {rounds_limit})" if rounds_limit else ""
    ask = ASK.format(limit=limit)
    if condition.startswith("oracle_"):
        key = "oracle"
    elif condition.startswith("gym_l"):
        key = "level"
    else:
        key = condition if condition in CONDITIONS else "hidden"
    return CONDITIONS[key].format(ask=ask, information=information.strip() or "(none)")


def render_prompt(folder: Path, run: dict[str, Any], deliverable: str) -> str:
    """The prompt for the run whose workspace is ``folder`` (written by ``fde start``)."""
    instruction = _read(folder / "instruction.md")
    information = _read(folder / "information.md")
    data_dir = folder / "data"
    names = sorted(p.name for p in data_dir.iterdir() if p.is_file()) if data_dir.is_dir() else []
    return BASE.format(
        workspace=folder.resolve(),
        instruction=instruction.strip(),
        data="\n".join(f"- {name}" for name in names) or "(none)",
        deliverable=deliverable,
        condition=condition_block(
            str(run.get("condition", "")), information, run.get("rounds_limit")
        ),
    )


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return ""
