"""Loading customer.json: authors get a precise error for a broken script."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from customer_sim.script import DEFAULT_NON_ANSWER, ScriptError, load_script, parse_script

VALID: dict[str, Any] = {
    "stakeholders": [
        {"id": "dana", "name": "Dana Whitfield", "role": "Ops", "default": True},
        {"id": "sam", "name": "Sam Ortiz", "role": "QA"},
    ],
    "facts": [
        {"key": "a", "stakeholder": "dana", "answer": "A.", "triggers": ["What is A?"]},
    ],
}


def broken(change: Any) -> dict[str, Any]:
    script = copy.deepcopy(VALID)
    change(script)
    return script


def test_it_loads_the_fixture_script(hidden_dir: Path) -> None:
    script = load_script(hidden_dir / "customer.json")
    assert [s.id for s in script.stakeholders] == ["priya", "tom"]
    assert script.default_stakeholder.id == "priya"
    assert len(script.facts) == 8
    assert [f.key for f in script.facts if f.misconception] == ["van_capacity"]


def test_missing_optional_fields_get_defaults() -> None:
    script = parse_script(VALID)
    sam = script.stakeholder("sam")
    assert (sam.patience, sam.contact_cost, sam.aliases) == (25, 0.0, ())
    assert sam.non_answer == DEFAULT_NON_ANSWER
    assert script.fact("a").requires_any == ()


@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        (lambda s: s["facts"][0].update(stakeholder="nobody"), "unknown stakeholder"),
        (lambda s: s["facts"][0].update(triggers=[]), "neither triggers nor a pattern"),
        (lambda s: s["facts"].append(dict(s["facts"][0])), "duplicate fact keys"),
        (lambda s: s["stakeholders"][1].update(default=True), "only one stakeholder"),
        (lambda s: s["stakeholders"][0].update(default=False), "mark one stakeholder"),
        (lambda s: s["stakeholders"][0].update(patience=-1), "patience"),
        (lambda s: s["stakeholders"][0].update(contact_cost="cheap"), "contact_cost"),
        (lambda s: s["facts"][0].update(answer=""), "answer must be"),
        (lambda s: s["facts"][0].update(requires_any="batch"), "requires_any"),
        (lambda s: s.update(stakeholders=[]), "at least one stakeholder"),
    ],
)
def test_it_names_what_is_wrong(change: Any, complaint: str) -> None:
    with pytest.raises(ScriptError, match=complaint):
        parse_script(broken(change))


def test_unreadable_json_is_a_script_error(tmp_path: Path) -> None:
    path = tmp_path / "customer.json"
    path.write_text("{not json")
    with pytest.raises(ScriptError, match="cannot read"):
        load_script(path)
    path.write_text(json.dumps(VALID))
    assert load_script(path).fact("a").answer == "A."
