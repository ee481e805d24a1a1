"""Admission checks of the scripted customer (evaluators.customer_checks) on the bakery fixture."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from evaluators.customer_checks import check_customer

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "customer" / "bakery-routes"


@pytest.fixture
def hidden(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURE / "hidden", tmp_path / "hidden")
    return tmp_path / "hidden"


def edit(path: Path, change: Any) -> None:
    document = json.loads(path.read_text())
    change(document)
    path.write_text(json.dumps(document))


def vans_pattern(gt: dict[str, Any]) -> None:
    gt["targets"][1]["match"] = {"asks": [["van*", "tray*|capacit*|fit|hold|carry"]]}


def _besides_examples(problems: list[str]) -> list[str]:
    """The fixture's own examples measure its matcher and miss some by design (its patterns
    are partial); tests of the other checks look past those."""
    return [p for p in problems if not p.startswith("matching.json:")]


def test_a_target_without_a_pattern_is_a_warning(hidden: Path) -> None:
    problems, warnings, _ = check_customer(hidden)
    assert _besides_examples(problems) == []
    assert any("`tgt_small_vans`: no `match` pattern" in w for w in warnings)


def test_a_near_miss_that_discloses_is_a_problem(hidden: Path) -> None:
    def change(gt: dict[str, Any]) -> None:
        vans_pattern(gt)
        gt["targets"][1]["near_misses"] = [
            "How many vans do you have?",
            "Can a van hold 200 trays?",
        ]

    edit(hidden / "gt.json", change)
    problems, _, _ = check_customer(hidden)
    assert _besides_examples(problems) == [
        "target `tgt_small_vans`: its near miss 'Can a van hold 200 trays?' discloses "
        "['van_capacity']"
    ]


def test_an_example_that_does_not_disclose_its_target_is_a_problem(hidden: Path) -> None:
    def change(gt: dict[str, Any]) -> None:
        vans_pattern(gt)
        gt["targets"][1]["triggers"].append("What is the payload in kilograms?")

    edit(hidden / "gt.json", change)
    problems, _, _ = check_customer(hidden)
    assert _besides_examples(problems) == [
        "target `tgt_small_vans`: its example 'What is the payload in kilograms?' does not "
        "disclose it"
    ]


def test_a_non_target_answer_that_reads_as_a_rule_answer_is_flagged_until_reviewed(
    hidden: Path,
) -> None:
    edit(hidden / "gt.json", vans_pattern)

    def waive(script: dict[str, Any]) -> None:
        script["facts"][5]["answer"] += " Any van can carry whatever trays you put in."

    edit(hidden / "customer.json", waive)
    _, warnings, _ = check_customer(hidden)
    flagged = [w for w in warnings if "reads as an answer to target `tgt_small_vans`" in w]
    assert flagged and flagged[0].startswith("fact `cream_chill_limit`")

    def reviewed(script: dict[str, Any]) -> None:
        script["facts"][5]["reviewed_overlaps"] = ["tgt_small_vans"]

    edit(hidden / "customer.json", reviewed)
    _, warnings, _ = check_customer(hidden)
    assert not [w for w in warnings if "reads as an answer" in w]


def test_the_probe_set_halves_are_reported_and_a_missing_set_is_a_warning(
    hidden: Path,
) -> None:
    _, warnings, summary = check_customer(hidden)
    assert summary == {}
    assert any("no outside probe set" in w for w in warnings)
    (hidden / "probes").mkdir()
    questions = [
        {
            "id": "1",
            "text": "How many trays fit in a van?",
            "expect": ["tgt_small_vans"],
            "kind": "direct",
            "split": "dev",
        },
        {
            "id": "2",
            "text": "What's the weather?",
            "expect": [],
            "kind": "off_topic",
            "split": "test",
        },
        {
            "id": "3",
            "text": "Can a late van still deliver?",
            "expect": [],
            "kind": "near_miss",
            "split": "test",
        },
    ]
    (hidden / "probes" / "questions.json").write_text(json.dumps({"questions": questions}))
    _, warnings, summary = check_customer(hidden)
    assert summary["dev"]["hit_rate"] == 1.0
    assert summary["test"]["near_miss_leak_rate"] == 1.0  # the windows fact answers it
    assert any("probe set, test half" in w for w in warnings)


def test_an_unreadable_pattern_is_a_problem_naming_it(hidden: Path) -> None:
    def broken(gt: dict[str, Any]) -> None:
        gt["targets"][0]["match"] = {"asks": [["@nosuchconcept"]]}

    edit(hidden / "gt.json", broken)
    problems, _, _ = check_customer(hidden)
    assert len(problems) == 1 and "unknown concept @nosuchconcept" in problems[0]


def test_schema_text_that_states_a_rule_is_flagged(hidden: Path) -> None:
    edit(hidden / "gt.json", vans_pattern)
    schema = hidden.parent / "submission_schema.json"
    schema.write_text(
        json.dumps(
            {
                "format": "csv",
                "description": "One row per stop, for a van that can carry 140 trays.",
                "columns": [{"name": "stop", "type": "string", "description": "Shop id"}],
            }
        )
    )
    flagged = [w for w in check_customer(hidden)[1] if w.startswith("submission_schema.json")]
    assert len(flagged) == 1 and "reads as stating target `tgt_small_vans`" in flagged[0]
    # Naming the subject alone is no hint.
    schema.write_text(json.dumps({"format": "csv", "description": "One row per stop and van."}))
    assert not [w for w in check_customer(hidden)[1] if w.startswith("submission_schema.json")]


def test_a_phrase_that_collapses_to_one_bare_word_is_a_warning(hidden: Path) -> None:
    def change(gt: dict[str, Any]) -> None:
        # "your vans" is read as every "vans" (the possessive is a skipped filler); "the van
        # fleet" and "tray*" are phrases and words as written
        gt["targets"][1]["match"] = {"asks": [["your vans|the van fleet", "tray*|capacit*"]]}

    edit(hidden / "gt.json", change)
    _, warnings, _ = check_customer(hidden)
    collapsed = [w for w in warnings if "matches every" in w]
    assert collapsed == [
        "gt.json: target `tgt_small_vans`: 'your vans' matches every 'vans' (articles and "
        "possessives are skipped inside a phrase; write the bare word if that is meant, or a "
        "phrase that names the thing)"
    ]


def test_an_answer_with_a_blanket_permission_is_a_warning(hidden: Path) -> None:
    def change(script: dict[str, Any]) -> None:
        fact = next(f for f in script["facts"] if f["key"] == "last_return")
        fact["answer"] += " Before that, whatever you do on the round is up to you."

    edit(hidden / "customer.json", change)
    _, warnings, _ = check_customer(hidden)
    assert [w for w in warnings if "blanket" in w or "waiving every" in w] == [
        "fact `last_return`: its answer says 'whatever you do', which reads as waiving every "
        "other rule on its subject; say what is allowed instead"
    ]


def test_a_misconception_stated_as_certain_is_a_warning(hidden: Path) -> None:
    _, warnings, _ = check_customer(hidden)
    assert not [w for w in warnings if "misconception" in w]  # the fixture voices a belief

    def change(script: dict[str, Any]) -> None:
        fact = next(f for f in script["facts"] if f["key"] == "van_capacity")
        fact["answer"] = "Every van takes 140 trays, no exceptions."

    edit(hidden / "customer.json", change)
    _, warnings, _ = check_customer(hidden)
    assert [w for w in warnings if "misconception" in w] == [
        "fact `van_capacity`: a designed misconception stated as certain; voice it as the "
        "person's belief or name who (or which file) can confirm it, so the customer is "
        "honestly unsure rather than confidently wrong"
    ]

    def pointer(script: dict[str, Any]) -> None:
        fact = next(f for f in script["facts"] if f["key"] == "van_capacity")
        fact["answer"] = "Every van takes 140 trays; vans.csv has the fleet if you want it."

    edit(hidden / "customer.json", pointer)
    _, warnings, _ = check_customer(hidden)
    assert not [w for w in warnings if "misconception" in w]


def test_an_answer_opening_with_a_verdict_is_a_warning(hidden: Path) -> None:
    _, warnings, _ = check_customer(hidden)
    assert not [w for w in warnings if "verdict" in w]

    def change(script: dict[str, Any]) -> None:
        fact = next(f for f in script["facts"] if f["key"] == "last_return")
        fact["answer"] = "Yes - " + fact["answer"]

    edit(hidden / "customer.json", change)
    _, warnings, _ = check_customer(hidden)
    assert [w for w in warnings if "verdict" in w] == [
        "fact `last_return`: its answer opens with a verdict ('Yes -'); it is given to every "
        "question that asks for the fact, and to one proposing something else the verdict reads "
        "as agreeing with it: open with the fact itself"
    ]


def test_variants_that_differ_only_in_stated_figures_share_one_probe_measurement(
    tmp_path: Path,
) -> None:
    """Admission measures the scenario's probe sets once per fingerprint: the bundled cases'
    variants state other figures in the same patterns, so they share it; a changed pattern or
    example question is measured anew."""
    from evaluators.customer_checks import _measured_by
    from evaluators.package import load_package

    case = load_package(Path(__file__).resolve().parents[2] / "cases" / "warehouse-restack")
    assert case.variants
    assert {_measured_by(v.hidden_dir) for v in case.variants} == {_measured_by(case.hidden_dir)}

    shutil.copytree(
        case.hidden_dir.parent, tmp_path / "case", ignore=shutil.ignore_patterns("variants")
    )
    copy = tmp_path / "case" / "hidden"
    script = json.loads((copy / "customer.json").read_text(encoding="utf-8"))
    script["facts"][0]["answer"] = "A different wording of the same fact."
    (copy / "customer.json").write_text(json.dumps(script), encoding="utf-8")
    assert _measured_by(copy) == _measured_by(case.hidden_dir)  # answers decide no disclosure
    script["facts"][0]["triggers"] = [*script["facts"][0]["triggers"], "A new example question?"]
    (copy / "customer.json").write_text(json.dumps(script), encoding="utf-8")
    assert _measured_by(copy) != _measured_by(case.hidden_dir)


def test_a_matching_example_that_misses_its_patterned_fact_is_a_problem(hidden: Path) -> None:
    edit(hidden / "gt.json", vans_pattern)
    matching = json.loads((hidden / "matching.json").read_text())
    matching["questions"].append(
        {"text": "Do the vans have a favourite colour?", "expect": "van_capacity"}
    )
    (hidden / "matching.json").write_text(json.dumps(matching))
    problems, _, _ = check_customer(hidden)
    assert any(
        "matching.json: 'Do the vans have a favourite colour?' expects ['van_capacity']" in p
        for p in problems
    )
