"""The "talk to the customer" console: staff ask a version's scripted customer and see which
facts each answer disclosed and which clarification targets those facts serve.

The dialogue is kept by the caller (the session) as plain dicts, so nothing is written to the
database and the customer answers exactly as it would in a run with that history.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from customer_sim.base import Exchange
from customer_sim.scripted import ScriptedCustomer
from fdeplatform.cases.models import CaseVersion


@dataclass
class Turn:
    question: str
    answer: str
    stakeholder: str
    disclosed: list[str] = field(default_factory=list)
    targets: list[str] = field(default_factory=list)
    speakers: list[str] = field(default_factory=list)
    contact_cost: float = 0.0


def console_ask(*, version: CaseVersion, text: str, history: list[dict[str, Any]]) -> Turn:
    """Ask the scripted customer of ``version`` after ``history`` (earlier ``Turn`` dicts)."""
    customer = ScriptedCustomer.from_hidden_dir(version.package_dir / "hidden")
    reply = customer.reply(text, [_exchange(turn) for turn in history])
    facts_of = target_facts(version)
    disclosed = list(reply.disclosed)
    return Turn(
        question=text,
        answer=reply.text,
        stakeholder=reply.stakeholder_name or reply.stakeholder_id,
        disclosed=disclosed,
        targets=[key for key, facts in facts_of.items() if set(facts) & set(disclosed)],
        speakers=list(reply.speakers),
        contact_cost=float(reply.contact_cost),
    )


def as_dict(turn: Turn) -> dict[str, Any]:
    return asdict(turn)


def target_facts(version: CaseVersion) -> dict[str, list[str]]:
    """Each clarification target's key and the fact keys that answer it (``hidden/gt.json``)."""
    path = version.package_dir / "hidden" / "gt.json"
    targets = json.loads(path.read_text(encoding="utf-8")).get("targets", [])
    return {str(t["key"]): [str(f) for f in t.get("facts", [])] for t in targets}


def coverage(version: CaseVersion, history: list[dict[str, Any]]) -> list[tuple[str, bool]]:
    """Every target and whether the dialogue so far disclosed one of its facts."""
    said = {key for turn in history for key in turn.get("disclosed", [])}
    return [(key, bool(set(facts) & said)) for key, facts in target_facts(version).items()]


def _exchange(turn: dict[str, Any]) -> Exchange:
    return Exchange(
        question=str(turn.get("question", "")),
        answer=str(turn.get("answer", "")),
        stakeholder_id=str((turn.get("speakers") or [""])[0]),
        disclosed=list(turn.get("disclosed", [])),
        speakers=tuple(turn.get("speakers", [])),
    )
