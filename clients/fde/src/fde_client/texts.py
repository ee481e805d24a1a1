"""The README.txt an agent finds in its workspace.

Written for a reader who has only this folder and a shell: what the files are, how to ask, how
to submit, what the budget is, and what feedback to expect in this run's mode.
"""

from __future__ import annotations

from typing import Any

CONDITION_NOTES = {
    "interact_req": (
        "The request leaves business rules unstated. Clarify them with the customer before\n"
        "you build the deliverable."
    ),
    "interact": "You may ask the customer about anything the request leaves open.",
    "hidden": "There is no customer to ask in this run: work from the request and the data.",
    "full": (
        "There is no customer to ask in this run: information.md holds the complete business\n"
        "information."
    ),
    "gym_l0": (
        "information.md tells you the rules, constraints and how the result is judged (FDE-Gym\n"
        "L0). You may still ask the customer about anything else."
    ),
    "gym_l1": (
        "information.md tells you how the result is judged (FDE-Gym L1); the rules and\n"
        "constraints are yours to find out from the customer."
    ),
    "gym_l2": (
        "information.md tells you the problem behind the request (FDE-Gym L2); ask the\n"
        "customer about what it leaves open."
    ),
}
ORACLE_NOTE = (
    "There is no customer to ask in this run: information.md holds the answers handed out\n"
    "(a share of the customer's answers, possibly none)."
)

INTERACTIVE = ("interact_req", "interact", "gym_l0", "gym_l1", "gym_l2")

MODE_NOTES = {
    "ranked": (
        "This is a ranked run: while it is open a submission only gets a format check against\n"
        "submission_schema.json. The last submission is scored after the run is closed."
    ),
    "practice": (
        "This is a practice run: every submission is scored at once; `fde status` shows the\n"
        "score and any broken business rules."
    ),
}


def readme_text(run: dict[str, Any], deliverable: str) -> str:
    condition = str(run.get("condition", ""))
    mode = str(run.get("mode", ""))
    sections = [
        _heading(run),
        _files(bool(run.get("information"))),
        _asking(run, condition),
        _submitting(deliverable, mode),
        _budget(run),
    ]
    return "\n\n".join(section for section in sections if section) + "\n"


def _heading(run: dict[str, Any]) -> str:
    version = f" v{run['version']}" if run.get("version") else ""
    return (
        f"FDE practice run on case {run.get('case')}{version}\n"
        f"Run {run.get('id')} (condition {run.get('condition')}, mode {run.get('mode')})"
    )


def _files(has_information: bool) -> str:
    lines = [
        "Files",
        "  instruction.md           the customer's request",
        "  submission_schema.json   the form your deliverable must have",
        "  data/                    the data you were given",
    ]
    if has_information:
        lines.append("  information.md           what you were told up front (see below)")
    return "\n".join(lines)


def _asking(run: dict[str, Any], condition: str) -> str:
    note = CONDITION_NOTES.get(condition, ORACLE_NOTE if condition.startswith("oracle_") else "")
    if condition not in INTERACTIVE:
        return f"The customer\n{_indent(note)}" if note else ""
    limit = run.get("rounds_limit")
    lines = [
        "Asking the customer",
        '  ./ask "your question"          one message is one round; it may hold several',
        "                                 questions",
        '  ./ask --to NAME "question"     address one stakeholder by name or role',
        f"  You have {limit} rounds." if limit is not None else "",
        _indent(note),
        _directory(run.get("stakeholders")),
    ]
    return "\n".join(line for line in lines if line)


def _directory(people: Any) -> str:
    """Who can be asked (the server's staff directory), one block per person."""
    if not isinstance(people, list) or not people:
        return ""
    lines = ["  Who you can ask (--to takes the handle, the name or the role):"]
    for person in people:
        if not isinstance(person, dict):
            continue
        default = "; answers unaddressed messages" if person.get("default") else ""
        lines.append(
            f"    {person.get('handle')}: {person.get('name')}, {person.get('role')}{default}"
        )
        areas = person.get("areas") or []
        if areas:
            lines.append(f"      speaks to: {', '.join(str(a) for a in areas)}")
        lines.append(f"      contact cost per message: {person.get('contact_cost', 0)}")
    return "\n".join(lines)


def _submitting(deliverable: str, mode: str) -> str:
    lines = [
        "Submitting",
        f"  Write your deliverable to {deliverable} in this folder, then run",
        f"    fde submit {deliverable}",
        "  You may resubmit until the run is closed; the last submission counts.",
    ]
    if mode in MODE_NOTES:
        lines.append(_indent(MODE_NOTES[mode]))
    return "\n".join(lines)


def _budget(run: dict[str, Any]) -> str:
    deadline = run.get("deadline")
    lines = ["Time"]
    if deadline:
        lines.append(f"  The run closes at {deadline}.")
    lines.append("  `fde status` shows rounds used and time left; `fde close` ends the run.")
    return "\n".join(lines)


def _indent(text: str) -> str:
    return "\n".join(f"  {line}" for line in text.splitlines())
