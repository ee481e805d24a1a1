"""admit(): anchors, materiality and answerability decide whether a case can be published."""

from __future__ import annotations

import shutil
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from evaluators import landlock
from evaluators.admission import (
    AdmissionReport,
    admit,
    default_answerability,
    facts_have_answers,
    weakest,
)
from evaluators.package import CasePackage, PackageError, Target, load_package

from .conftest import FIXTURE_CASES


def always(package: CasePackage, target: Target) -> bool:
    return True


@pytest.fixture(scope="module")
def knapsack_report() -> AdmissionReport:
    return admit(load_package(FIXTURE_CASES / "tiny-knapsack"), answerability=always)


def admit_copy(case_dir: Path, **kwargs: Any) -> AdmissionReport:
    return admit(
        load_package(case_dir), answerability=kwargs.pop("answerability", always), **kwargs
    )


def test_the_ratio_toy_case_is_admitted(knapsack_report: AdmissionReport) -> None:
    report = knapsack_report
    assert report.ok, report.problems
    assert report.anchors == {"reference": 1.0, "baseline": 0.0, "literal": 0.0, "shortcuts": [0.5]}
    assert report.counterfactuals == {
        "capacity_reduced": "invalid",
        "hazmat_excluded": "invalid",
        "value_is_margin": pytest.approx(24 / 44),
        "weight_per_unit": "invalid",
        "handling_fee": pytest.approx(40 / 44),
    }
    assert report.answerable == dict.fromkeys(report.counterfactuals, True)
    assert report.anchor_results["literal"]["error_kind"] == "constraint"


def test_the_report_has_the_validate_cases_json_contract(knapsack_report: AdmissionReport) -> None:
    data = knapsack_report.to_dict()
    assert {"slug", "version", "family", "targets", "anchors", "ok"} <= set(data)
    assert (data["slug"], data["version"], data["family"], data["targets"]) == (
        "tiny-knapsack",
        "1.0.0",
        "CO",
        5,
    )
    assert set(data["anchors"]) == {"reference", "baseline", "literal", "shortcuts"}
    assert data["isolation"] in ("bwrap", "process+landlock", "process")
    assert data["ok"] is True


def test_the_report_names_the_weakest_isolation_its_anchors_ran_under(
    knapsack: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EVALUATOR_ISOLATION", "process")
    monkeypatch.setattr(landlock, "abi", lambda: 0)
    report = admit_copy(knapsack)
    assert report.isolation == "process"
    assert report.to_dict()["isolation"] == "process"


def test_weakest_keeps_the_weaker_isolation() -> None:
    assert weakest(None, "bwrap") == "bwrap"
    assert weakest("bwrap", "process+landlock") == "process+landlock"
    assert weakest("process", "bwrap") == "process"
    assert weakest("process+landlock", "") == "process+landlock"  # no evaluator ran


def test_the_uplift_toy_case_is_admitted_with_the_scripted_customer() -> None:
    report = admit(load_package(FIXTURE_CASES / "tiny-restock"))
    assert report.ok, report.problems
    assert report.anchors["reference"] == 1.0
    assert report.anchors["baseline"] == 0.0
    assert report.anchors["shortcuts"] == [pytest.approx(-33 / 682)]
    assert report.counterfactuals["stockout_penalty"] == 0.0
    assert all(report.answerable.values())


def test_a_reference_that_does_not_reach_one_is_rejected(knapsack: Path) -> None:
    shutil.copy(
        knapsack / "hidden" / "counterfactuals" / "handling_fee.csv",
        knapsack / "hidden" / "reference.csv",
    )
    problems = admit_copy(knapsack).problems
    assert "reference: raw value 40.0 differs from case.toml reference_value 44.0" in problems
    # The anchors are judged on FDE-Gym's uplift when the case has a baseline (§3.4).
    assert "reference: scores 0.9091; it must score at least 0.95" in problems


def test_without_a_baseline_the_anchors_are_judged_on_the_ratio(knapsack: Path) -> None:
    path = knapsack / "case.toml"
    path.write_text(path.read_text().replace("baseline_value = 0.0", ""))
    shutil.copy(
        knapsack / "hidden" / "counterfactuals" / "handling_fee.csv",
        knapsack / "hidden" / "reference.csv",
    )
    assert "reference: scores 0.9091; it must score at least 1.0" in admit_copy(knapsack).problems


def test_a_baseline_that_scores_under_ratio_is_rejected(knapsack: Path) -> None:
    path = knapsack / "case.toml"
    path.write_text(path.read_text().replace("baseline_value = 0.0", ""))
    (knapsack / "hidden" / "anchors" / "baseline.csv").write_text("item_id\nI12\n")
    assert admit_copy(knapsack).problems == [
        "baseline: scores 0.5000; it must be invalid or score 0"
    ]


def test_an_uplift_baseline_must_match_baseline_value(restock: Path) -> None:
    path = restock / "case.toml"
    path.write_text(path.read_text().replace("baseline_value = 2060.0", "baseline_value = 2100.0"))
    problems = admit_copy(restock).problems
    assert "baseline: scores 0.055402; it must score 0" in problems
    assert "baseline: raw value 2060.0 differs from case.toml baseline_value 2100.0" in problems


def test_a_literal_anchor_that_scores_well_is_rejected(knapsack: Path) -> None:
    shutil.copy(
        knapsack / "hidden" / "reference.csv", knapsack / "hidden" / "anchors" / "literal.csv"
    )
    assert admit_copy(knapsack).problems == ["literal: scores 1.0000; at most 0.2"]


WHY = "The fair's organiser fixed the list and margins; the literal request is the whole job."


def test_a_declared_correct_literal_reading_is_admitted_with_its_reason_shown(
    knapsack: Path,
) -> None:
    shutil.copy(
        knapsack / "hidden" / "reference.csv", knapsack / "hidden" / "anchors" / "literal.csv"
    )
    toml = knapsack / "case.toml"
    toml.write_text(
        toml.read_text().replace("[anchors]\n", f'[anchors]\nliteral_is_correct = "{WHY}"\n')
    )
    report = admit_copy(knapsack)
    assert report.ok, report.problems
    assert report.anchors["literal_exception"] == WHY
    assert any(WHY in w and "waived" in w for w in report.warnings)


def test_a_literal_exception_needs_a_real_justification(knapsack: Path) -> None:
    toml = knapsack / "case.toml"
    toml.write_text(
        toml.read_text().replace("[anchors]\n", '[anchors]\nliteral_is_correct = "yes"\n')
    )
    with pytest.raises(PackageError, match="literal_is_correct must be the justification"):
        load_package(knapsack)


def test_a_shortcut_above_point_eight_is_rejected(knapsack: Path) -> None:
    shutil.copy(
        knapsack / "hidden" / "counterfactuals" / "handling_fee.csv",
        knapsack / "hidden" / "anchors" / "shortcut-single-best.csv",
    )
    assert admit_copy(knapsack).problems == [
        "shortcuts[0] (shortcut-single-best.csv): scores 0.9091; at most 0.8"
    ]


def test_a_target_whose_answer_changes_nothing_is_not_material(knapsack: Path) -> None:
    shutil.copy(
        knapsack / "hidden" / "reference.csv",
        knapsack / "hidden" / "counterfactuals" / "value_is_margin.csv",
    )
    assert admit_copy(knapsack).problems == [
        "target `value_is_margin`: not material - its counterfactual scores 1.0000, "
        "less than 0.05 below the reference"
    ]


def test_an_evaluator_crash_on_an_anchor_is_reported_with_its_log(knapsack: Path) -> None:
    (knapsack / "hidden" / "evaluator.py").write_text(
        "def evaluate(submission, data_dir, hidden_dir):\n    raise KeyError('capacity')\n"
    )
    report = admit_copy(knapsack)
    assert not report.ok
    assert report.problems[0].startswith("reference: the evaluator failed: ")
    assert "KeyError: 'capacity'" in report.problems[0]


def test_unanswerable_targets_are_reported_with_the_reason(knapsack: Path) -> None:
    def only_some(package: CasePackage, target: Target) -> bool | str:
        if target.key == "hazmat_excluded":
            return "nobody knows about hazmat"
        if target.key == "handling_fee":
            raise RuntimeError("matcher broke")
        return target.key != "weight_per_unit"

    report = admit_copy(knapsack, answerability=only_some)
    assert report.answerability_check == "only_some"
    assert report.answerable["capacity_reduced"] is True
    assert report.problems == [
        "target `hazmat_excluded`: not answerable - nobody knows about hazmat",
        "target `weight_per_unit`: not answerable - the customer never answers it",
        "target `handling_fee`: not answerable - the answerability check failed "
        "(RuntimeError: matcher broke)",
    ]


class _Reply:
    def __init__(self, disclosed: list[str]) -> None:
        self.disclosed = disclosed


class _DeafCustomer:
    """Answers only questions about the van's capacity."""

    @classmethod
    def from_hidden_dir(cls, hidden_dir: Path) -> _DeafCustomer:
        assert (hidden_dir / "customer.json").is_file()
        return cls()

    def reply(self, question: str, history: list[Any]) -> _Reply:
        return _Reply(["van_capacity"] if "15 kg" in question else [])


def test_the_default_check_asks_the_scripted_customer_the_trigger_questions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = types.ModuleType("customer_sim.scripted")
    fake.ScriptedCustomer = _DeafCustomer  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "customer_sim.scripted", fake)
    check, description = default_answerability()
    package = load_package(FIXTURE_CASES / "tiny-knapsack")
    assert description == "scripted customer asked each target's trigger questions"
    assert check(package, package.targets[0]) is True
    assert check(package, package.targets[1]) == (
        "none of its 2 trigger questions disclosed ('hazmat_rule',)"
    )


def test_without_the_scripted_customer_it_checks_the_facts_have_answers(
    monkeypatch: pytest.MonkeyPatch, knapsack: Path
) -> None:
    monkeypatch.setitem(sys.modules, "customer_sim.scripted", None)
    check, description = default_answerability()
    assert check is facts_have_answers
    assert "scripted customer unavailable" in description
    package = load_package(knapsack)
    assert check(package, package.targets[0]) is True
    package.customer["facts"][0]["answer"] = " "
    assert check(package, package.targets[0]) == (
        "fact(s) van_capacity have no answer in customer.json"
    )


# --- the checks an outside case author showed were missing (issue 11) ----------------------


def test_an_evaluator_that_scores_one_file_two_ways_is_rejected(knapsack: Path) -> None:
    (knapsack / "hidden" / "evaluator.py").write_text(
        "import os\nfrom evaluators.api import Assessment\n"
        "def evaluate(submission, data_dir, hidden_dir):\n"
        "    return Assessment(value=44.0 - int.from_bytes(os.urandom(2), 'big') * 1e-6)\n"
    )
    problems = admit_copy(knapsack).problems
    assert any(
        p.startswith("reference: not deterministic - the same file scored value") for p in problems
    ), problems


def test_a_counterfactual_invalid_for_another_targets_rule_is_rejected(knapsack: Path) -> None:
    toml = knapsack / "case.toml"
    toml.write_text(toml.read_text().replace('weight_per_unit = ["capacity_reduced"]', ""))
    assert admit_copy(knapsack).problems == [
        "target `weight_per_unit`: its counterfactual breaks capacity_reduced, which is neither "
        "`weight_per_unit` nor declared for it in case.toml [counterfactual_breaks]"
    ]


def test_a_counterfactual_that_is_no_well_formed_deliverable_is_rejected(knapsack: Path) -> None:
    (knapsack / "hidden" / "counterfactuals" / "handling_fee.csv").write_text("item_id\nI99\n")
    problems = admit_copy(knapsack).problems
    assert problems == [
        "target `handling_fee`: its counterfactual is invalid for a reason that is no rule "
        "(fatal: These lines are not in our stock list: I99.); it must be a well-formed deliverable"
    ]


def test_the_report_names_the_rules_each_anchor_broke(knapsack_report: AdmissionReport) -> None:
    results = knapsack_report.anchor_results
    assert results["counterfactual weight_per_unit"]["broke"] == ["capacity_reduced"]
    assert results["reference"]["broke"] == []


def test_a_hidden_file_copied_into_data_is_refused(knapsack: Path) -> None:
    shutil.copy(knapsack / "hidden" / "information.md", knapsack / "data" / "notes.md")
    with pytest.raises(PackageError) as caught:
        load_package(knapsack)
    assert caught.value.problems == [
        "data/notes.md: a copy of hidden/information.md; data/ is served to players, so hidden "
        "files must not be in it"
    ]


def test_hidden_lines_pasted_into_a_data_file_are_refused(knapsack: Path) -> None:
    notes = (knapsack / "hidden" / "information.md").read_text().splitlines()
    long_lines = [line for line in notes if len("".join(line.split())) >= 32][:3]
    assert len(long_lines) == 3
    (knapsack / "data" / "readme.txt").write_text("Our notes\n" + "\n".join(long_lines) + "\n")
    with pytest.raises(PackageError) as caught:
        load_package(knapsack)
    assert caught.value.problems[0].startswith(
        "data/readme.txt: repeats 3 lines of hidden/information.md"
    )


def test_the_baseline_may_be_a_copy_of_the_current_plan_in_data(knapsack: Path) -> None:
    baseline = knapsack / "hidden" / "anchors" / "baseline.csv"
    baseline.write_text("item_id\n" + "".join(f"I{n:02d}\n" for n in range(1, 12)))
    shutil.copy(baseline, knapsack / "data" / "current_plan.csv")
    load_package(knapsack)  # no PackageError
