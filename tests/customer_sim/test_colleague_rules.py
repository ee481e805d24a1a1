"""An addressed speaker's background never stands in for a colleague's rule: when a context
fact of theirs fired on the same words as a rule someone else owns, they point to that
colleague instead of answering as if their background were the answer. Pinned with questions
of our own on a small two-person script written here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from customer_sim.scripted import ScriptedCustomer


def _person(pid: str, name: str, role: str, default: bool) -> dict[str, object]:
    return {
        "id": pid,
        "name": name,
        "role": role,
        "aliases": [role.lower()],
        "default": default,
        "patience": 20,
        "contact_cost": 0.005,
        "non_answer": "Not sure what you mean there.",
    }


SCRIPT = {
    "stakeholders": [
        _person("nadia", "Nadia Berg", "Billing", True),
        _person("piet", "Piet Vos", "Operations", False),
    ],
    "facts": [
        {
            "key": "night_rate",
            "stakeholder": "nadia",
            "topic": "the night tariff",
            "answer": "The night tariff is 9 cents a cubic metre, every night of the week.",
            "match": {"asks": [["night|overnight", "tariff|price|rate|cost"]]},
        },
        {
            "key": "no_night_pumping",
            "stakeholder": "piet",
            "answer": "No pumping into the tower overnight - the noise permit forbids it.",
            "match": {"asks": [["pump*", "night|overnight"]]},
        },
    ],
}
GT = {
    "targets": [
        {
            "key": "no_night_pumping",
            "requirement": "No pumping overnight.",
            "issue_type": "missing",
            "domain": "constraint_rule",
            "facts": ["no_night_pumping"],
        }
    ]
}


@pytest.fixture
def customer(tmp_path: Path) -> ScriptedCustomer:
    (tmp_path / "customer.json").write_text(json.dumps(SCRIPT), encoding="utf-8")
    (tmp_path / "gt.json").write_text(json.dumps(GT), encoding="utf-8")
    return ScriptedCustomer.from_hidden_dir(tmp_path)


def test_background_on_a_colleagues_rule_points_to_the_colleague(
    customer: ScriptedCustomer,
) -> None:
    reply = customer.reply(
        "Nadia, if we pump overnight to fill the tower, is that billed at the night rate?"
    )
    assert reply.disclosed == []
    assert "9 cents" not in reply.text  # the tariff would read as a yes
    assert "Piet Vos" in reply.text


def test_the_speakers_own_background_is_still_answered(customer: ScriptedCustomer) -> None:
    assert customer.reply("Nadia, what is the overnight rate per cubic metre?").disclosed == [
        "night_rate"
    ]


def test_unaddressed_each_owner_answers_their_part(customer: ScriptedCustomer) -> None:
    reply = customer.reply("If we pump overnight, is that billed at the night rate?")
    assert set(reply.disclosed) == {"night_rate", "no_night_pumping"}


def test_the_rule_owner_answers_when_asked(customer: ScriptedCustomer) -> None:
    assert customer.reply("Piet, can we pump overnight?").disclosed == ["no_night_pumping"]
