"""Small customer scripts written inside a test: one stakeholder, a few facts, every fact a
target. Tests that pin a matching mechanism with questions of their own build one here, so
the mechanism is shown to hold on a script nobody tuned."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from customer_sim.scripted import ScriptedCustomer


def person(person_id: str, name: str, role: str) -> dict[str, Any]:
    """The script's one stakeholder, patient and cheap to ask."""
    return {
        "id": person_id,
        "name": name,
        "role": role,
        "default": True,
        "patience": 20,
        "contact_cost": 0.005,
        "non_answer": "Not sure what you mean there.",
    }


def fact(
    owner: str, key: str, answer: str, asks: list[list[str]], topic: str = ""
) -> dict[str, Any]:
    """A fact of ``owner`` with a pattern of ``asks`` alternatives (no vetoes)."""
    written: dict[str, Any] = {"key": key, "stakeholder": owner, "answer": answer}
    written["match"] = {"asks": asks}
    return {**written, "topic": topic} if topic else written


def customer_of(
    folder: Path, stakeholder: dict[str, Any], facts: list[dict[str, Any]], targets: list[str]
) -> ScriptedCustomer:
    """The scripted customer of that script, with ``targets`` as constraint rules."""
    (folder / "customer.json").write_text(
        json.dumps({"stakeholders": [stakeholder], "facts": facts}), encoding="utf-8"
    )
    rules = [
        {
            "key": key,
            "requirement": key,
            "issue_type": "missing",
            "domain": "constraint_rule",
            "facts": [key],
        }
        for key in targets
    ]
    (folder / "gt.json").write_text(json.dumps({"targets": rules}), encoding="utf-8")
    return ScriptedCustomer.from_hidden_dir(folder)
