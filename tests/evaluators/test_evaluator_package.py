"""load_package(): every format problem is found at once and names its file."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from evaluators.package import PackageError, load_package, package_digest

from .conftest import FIXTURE_CASES


def edit_json(path: Path, change: Callable[[Any], None]) -> None:
    document = json.loads(path.read_text())
    change(document)
    path.write_text(json.dumps(document))


def problems_of(case_dir: Path) -> list[str]:
    with pytest.raises(PackageError) as caught:
        load_package(case_dir)
    return caught.value.problems


def test_the_toy_packages_load_with_their_targets() -> None:
    knapsack = load_package(FIXTURE_CASES / "tiny-knapsack")
    assert knapsack.slug == "tiny-knapsack"
    assert (knapsack.version, knapsack.family) == ("1.0.0", "CO")
    assert [t.key for t in knapsack.targets][:2] == ["capacity_reduced", "hazmat_excluded"]
    assert knapsack.targets[0].facts == ("van_capacity",)
    assert knapsack.schema["format"] == "csv"
    assert knapsack.customer["stakeholders"][0]["id"] == "sam"
    assert knapsack.anchor_path("reference") == knapsack.hidden_dir / "reference.csv"
    assert knapsack.warnings == []
    assert len(load_package(FIXTURE_CASES / "tiny-restock").targets) == 6


def test_public_metadata_leaves_out_reference_and_baseline_values() -> None:
    public = load_package(FIXTURE_CASES / "tiny-restock").public_metadata()
    assert public["scoring"] == {"normalisation": "ratio", "direction": "min", "unit": "EUR cost"}
    assert public["limits"] == {"rounds": 30, "wall_clock_minutes": 720, "max_upload_mb": 1}
    assert set(public) == {
        "slug",
        "title",
        "summary",
        "family",
        "sector",
        "subtype",
        "version",
        "authors",
        "data_licence",
        "limits",
        "scoring",
    }
    assert "1378" not in json.dumps(public)
    assert "anchors" not in json.dumps(public)


def test_it_names_each_missing_file(knapsack: Path) -> None:
    (knapsack / "hidden" / "gt.json").unlink()
    (knapsack / "instruction.md").unlink()
    problems = problems_of(knapsack)
    assert "hidden/gt.json: missing" in problems
    assert "instruction.md: missing" in problems


def test_it_rejects_malformed_gt_json(knapsack: Path) -> None:
    (knapsack / "hidden" / "gt.json").write_text('{"targets": [')
    problems = problems_of(knapsack)
    assert len(problems) == 1
    assert problems[0].startswith("hidden/gt.json: not valid JSON (Expecting value: line 1")


def test_it_checks_every_target_field(knapsack: Path) -> None:
    def damage(gt: Any) -> None:
        gt["targets"][0]["issue_type"] = "unclear"
        gt["targets"][1]["domain"] = "pricing"
        gt["targets"][2]["facts"] = ["no_such_fact"]
        gt["targets"][3]["counterfactual"] = "../../escape.csv"
        gt["targets"][4]["key"] = gt["targets"][0]["key"]

    edit_json(knapsack / "hidden" / "gt.json", damage)
    problems = problems_of(knapsack)
    assert (
        "hidden/gt.json: target `capacity_reduced`: unknown issue_type 'unclear' "
        "(use missing, ambiguous, invalidated, conflicting)"
    ) in problems
    assert any("target `hazmat_excluded`: unknown domain 'pricing'" in p for p in problems)
    assert (
        "hidden/gt.json: target `value_is_margin`: fact `no_such_fact` is not in "
        "hidden/customer.json"
    ) in problems
    assert (
        "hidden/gt.json: target `weight_per_unit`: counterfactual: '../../escape.csv' "
        "must be a relative path inside hidden/"
    ) in problems
    assert "hidden/gt.json: target key `capacity_reduced` is used more than once" in problems


def test_it_requires_five_targets(knapsack: Path) -> None:
    edit_json(knapsack / "hidden" / "gt.json", lambda gt: gt["targets"].pop())
    assert problems_of(knapsack) == ["hidden/gt.json: 4 targets; a case needs at least 5"]


def test_it_rejects_duplicate_keys_in_json_files(knapsack: Path) -> None:
    path = knapsack / "hidden" / "gt.json"
    text = path.read_text().replace('"key": "handling_fee"', '"key": "handling_fee", "key": "x"')
    path.write_text(text)
    assert "hidden/gt.json: key `key` appears twice in one object" in problems_of(knapsack)


def test_it_rejects_bad_toml_with_its_location(knapsack: Path) -> None:
    (knapsack / "case.toml").write_text('slug = "tiny-knapsack"\ntitle = \n')
    problems = problems_of(knapsack)
    assert problems == ["case.toml: not valid TOML (Invalid value (at line 2, column 9))"]


def test_it_checks_case_toml_fields(knapsack: Path) -> None:
    path = knapsack / "case.toml"
    text = path.read_text()
    for old, new in [
        ('slug = "tiny-knapsack"', 'slug = "tiny-van"'),
        ('family = "CO"', 'family = "OR"'),
        ('version = "1.0.0"', 'version = "v1"'),
        ('normalisation = "ratio"', 'normalisation = "ratios"'),
        ("max_upload_mb = 1", "max_upload_mb = 1\nmax_rows = 3"),
        ('literal = "anchors/literal.csv"', 'literal = "anchors/missing.csv"'),
    ]:
        text = text.replace(old, new)
    path.write_text(text)
    assert problems_of(knapsack) == [
        "case.toml: slug 'tiny-van' does not match the folder name 'tiny-knapsack'",
        "case.toml: family 'OR' must be CO or ML",
        "case.toml: version 'v1' must look like 1.0.0",
        "case.toml: [scoring] normalisation 'ratios' must be \"ratio\" (FDE-Bench: x/R when "
        "maximising, R/x when minimising)",
        "case.toml: [limits] has an unknown key `max_rows`",
        "case.toml: [anchors] literal: hidden/anchors/missing.csv does not exist",
    ]


def test_it_checks_that_uplift_reference_beats_the_baseline(restock: Path) -> None:
    path = restock / "case.toml"
    path.write_text(path.read_text().replace('direction = "min"', 'direction = "max"'))
    assert problems_of(restock) == [
        "case.toml: [scoring] under direction 'max' the reference_value (1378) must be "
        "better than the baseline_value (2060)"
    ]


def test_it_checks_the_customer_script(knapsack: Path) -> None:
    def damage(customer: Any) -> None:
        customer["stakeholders"].append(dict(customer["stakeholders"][0]))
        customer["facts"][0]["stakeholder"] = "nobody"
        customer["facts"][1]["misconception"] = {
            "contradicted_by": ["data/nothing.csv"],
            "note": "x",
        }
        customer["facts"][2]["triggers"] = ["only one?"]

    edit_json(knapsack / "hidden" / "customer.json", damage)
    problems = problems_of(knapsack)
    assert "hidden/customer.json: stakeholder `sam`: the id is used twice" in problems
    assert (
        "hidden/customer.json: exactly one stakeholder must have `default: true` (found 2)"
    ) in problems
    assert "hidden/customer.json: fact `van_capacity`: unknown stakeholder 'nobody'" in problems
    assert any("cites 'data/nothing.csv', which is neither" in p for p in problems)
    package_warnings = _warnings_when_fixed(knapsack)
    assert "hidden/customer.json: fact `earn_means_margin`: 1 triggers; write at least five" in (
        package_warnings
    )


def _warnings_when_fixed(case_dir: Path) -> list[str]:
    def repair(customer: Any) -> None:
        customer["stakeholders"].pop()
        customer["facts"][0]["stakeholder"] = "sam"
        customer["facts"][1]["misconception"] = None

    edit_json(case_dir / "hidden" / "customer.json", repair)
    return load_package(case_dir).warnings


def test_it_checks_the_schema_and_the_matching_benchmark(knapsack: Path) -> None:
    edit_json(knapsack / "submission_schema.json", lambda s: s["columns"][0].update(type="text"))
    edit_json(knapsack / "hidden" / "matching.json", lambda m: m["questions"].__delitem__(0))
    problems = problems_of(knapsack)
    assert any(
        p.startswith("submission_schema.json: column `item_id` has unknown type") for p in problems
    )
    assert "hidden/matching.json: 39 questions; at least 40 needed" in problems


def test_it_checks_the_evaluator_defines_evaluate(knapsack: Path) -> None:
    (knapsack / "hidden" / "evaluator.py").write_text("def score(s, d, h):\n    pass\n")
    assert problems_of(knapsack) == [
        "hidden/evaluator.py: defines no top-level evaluate() function"
    ]
    (knapsack / "hidden" / "evaluator.py").write_text("def evaluate(:\n")
    assert problems_of(knapsack)[0].startswith("hidden/evaluator.py: does not compile")


def test_it_refuses_symbolic_links(knapsack: Path) -> None:
    os.symlink(knapsack / "hidden" / "information.md", knapsack / "data" / "notes.md")
    assert problems_of(knapsack) == ["data/notes.md: symbolic links are not allowed in a package"]


def test_it_reports_all_problems_at_once(knapsack: Path) -> None:
    (knapsack / "hidden" / "solver.py").unlink()
    (knapsack / "hidden" / "customer.json").write_text("[]")
    (knapsack / "case.toml").write_text((knapsack / "case.toml").read_text().replace("CO", "XX"))
    problems = problems_of(knapsack)
    assert "hidden/solver.py: missing" in problems
    assert "hidden/customer.json: must be a JSON object" in problems
    assert "case.toml: family 'XX' must be CO or ML" in problems


def test_the_digest_is_stable_and_changes_with_content(knapsack: Path) -> None:
    first = package_digest(knapsack)
    (knapsack / "hidden" / "__pycache__").mkdir()
    (knapsack / "hidden" / "__pycache__" / "evaluator.cpython-311.pyc").write_bytes(b"cache")
    assert package_digest(knapsack) == first
    assert package_digest(FIXTURE_CASES / "tiny-knapsack") == first
    (knapsack / "instruction.md").write_text("changed")
    assert package_digest(knapsack) != first
    assert len(first) == 64


def test_a_contact_cost_in_the_wrong_unit_is_refused(knapsack: Path) -> None:
    edit_json(
        knapsack / "hidden" / "customer.json",
        lambda doc: doc["stakeholders"][0].update(contact_cost=1.5),
    )
    (problem,) = problems_of(knapsack)
    assert "`contact_cost` 1.5 is too large: it is in uplift units per message" in problem


def test_an_answer_must_state_the_values_it_declares(knapsack: Path) -> None:
    def declare(doc: Any) -> None:
        doc["facts"][0]["values"] = ["12 kg"]
        doc["facts"][1]["values"] = ["12 kg"]  # the hazmat answer does not say it

    edit_json(knapsack / "hidden" / "customer.json", declare)
    (problem,) = problems_of(knapsack)
    assert "the answer does not state '12 kg' (listed in `values`)" in problem
    assert "hazmat_rule" in problem


def test_an_evaluator_importing_outside_the_allowed_list_is_refused(knapsack: Path) -> None:
    evaluator = knapsack / "hidden" / "evaluator.py"
    evaluator.write_text(
        "import pandas\nfrom evaluators.runtime import score_file\n" + evaluator.read_text()
    )
    problems = problems_of(knapsack)
    assert any("imports pandas, which evaluators may not use" in p for p in problems)
    assert any(
        "imports evaluators.runtime; of `evaluators` only `evaluators.api`" in p for p in problems
    )
