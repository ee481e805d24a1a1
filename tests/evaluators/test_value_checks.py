"""Admission of the figures and terms answers state (evaluators.value_checks, issue 24).

Each test plants one mistake an outside author made in a copy of a bundled case, which the
admission used to accept: an answer that states no rule, and an answer (or an evaluator) whose
figure contradicts the other.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from evaluators.package import PackageError, load_package
from evaluators.package_checks import Findings
from evaluators.runtime import score_file
from evaluators.value_checks import check_value_probes, run_value_probes
from evaluators.variants import materialise

CASES = Path(__file__).resolve().parents[2] / "cases"


def copy_bundled(slug: str, destination: Path) -> Path:
    """A writable copy of a bundled case's base variant as an ordinary package: its texts
    rendered from values.json and no further variants (docs/variants.md), so a mistake planted
    in its answers is planted once, where the value checks read it."""
    return materialise(CASES / slug, "base", destination / slug)


def edit_fact(case: Path, key: str, change: Callable[[dict[str, Any]], None]) -> None:
    path = case / "hidden" / "customer.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    change(next(fact for fact in document["facts"] if fact["key"] == key))
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False), encoding="utf-8")


def refusal(case: Path) -> list[str]:
    with pytest.raises(PackageError) as caught:
        load_package(case)
    return caught.value.problems


# One fact behind a target per bundled case, none of them pinned by a value probe, so the
# refusal is the missing `values` alone.
@pytest.mark.parametrize(
    ("slug", "fact", "target"),
    [
        ("battery-dispatch", "prices_in_utc", "prices_in_utc"),
        ("credit-default", "income_period", "income_period"),
        ("tutorial-bake-sale", "prices_in_pence", "price_in_pence"),
        ("warehouse-restack", "tier_from_top", "tier_from_top"),
    ],
)
def test_an_answer_that_states_no_rule_is_refused(
    tmp_path: Path, slug: str, fact: str, target: str
) -> None:
    case = copy_bundled(slug, tmp_path)

    def vague(entry: dict[str, Any]) -> None:
        entry["answer"] = "It depends, we're flexible."
        entry.pop("values", None)

    edit_fact(case, fact, vague)
    problems = refusal(case)
    assert len(problems) == 1, problems
    assert problems[0].startswith(
        f"hidden/customer.json: fact `{fact}` answers target `{target}` but has no `values`: "
        "list the figures and terms its answer exists to give"
    )


def test_values_the_vague_answer_does_not_state_are_refused(tmp_path: Path) -> None:
    case = copy_bundled("battery-dispatch", tmp_path)
    edit_fact(case, "prices_in_utc", lambda f: f.update(answer="It depends, we're flexible."))
    (problem,) = refusal(case)
    assert "fact `prices_in_utc`: the answer does not state 'UTC', 'UTC+2'" in problem


def test_an_answer_whose_figure_contradicts_the_evaluator_is_refused(tmp_path: Path) -> None:
    case = copy_bundled("battery-dispatch", tmp_path)

    def wider(fact: dict[str, Any]) -> None:
        fact["answer"] = (
            fact["answer"]
            .replace("10 % and 90 %", "5 % and 95 %")
            .replace("100 to 900 kWh", "50 to 950 kWh")
            .replace("outside 10-90", "outside 5-95")
        )
        fact["values"] = ["5 %", "95 %", "1000 kWh", "50 to 950 kWh"]

    edit_fact(case, "soc_warranty_window", wider)
    problems = refusal(case)
    for figure in ("10 %", "90 %"):
        assert any(
            p.startswith(f"fact `soc_warranty_window`: the evaluator's figure '{figure}' (value "
                         "probe 'value_probes/soc-")
            and "is not among the fact's `values` ('5 %', '95 %'" in p
            and "the answer and the evaluator disagree on this rule" in p
            for p in problems
        ), problems  # fmt: skip
    assert any("the answer does not state '10 %'" in p for p in problems), problems


def test_an_evaluator_enforcing_another_figure_fails_its_value_probes(tmp_path: Path) -> None:
    case = copy_bundled("battery-dispatch", tmp_path)
    rules_path = case / "hidden" / "params.json"  # the evaluator's rules (issue 26)
    rules = json.loads(rules_path.read_text(encoding="utf-8"))
    rules.update(soc_min_pct=5.0, soc_max_pct=95.0)  # the answer still says 10-90 %
    rules_path.write_text(json.dumps(rules), encoding="utf-8")
    package = load_package(case)
    probes = check_value_probes(package.root, package.customer, Findings())
    problems, summary = run_value_probes(case, probes, lambda path: score_file(case, path))
    assert [entry["file"] for entry in summary if not entry["ok"]] == [
        "value_probes/soc-min-past-limit.csv",
        "value_probes/soc-max-past-limit.csv",
    ]
    assert problems[0].startswith(
        "fact `soc_warranty_window`: value probe 'value_probes/soc-min-past-limit.csv' for "
        "'10 %' (lowest state of charge (kWh) 95 in the quarter-hour from "
    )
    assert problems[0].endswith(
        "should be breaks `soc_warranty_window`, but got valid: the evaluator does not enforce "
        "the figure the answer states"
    )


def test_a_figure_probed_from_one_side_only_is_refused(tmp_path: Path) -> None:
    case = copy_bundled("tutorial-bake-sale", tmp_path)
    path = case / "hidden" / "value_probes.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    document["probes"] = [p for p in document["probes"] if p["expect"] == "valid"]
    path.write_text(json.dumps(document), encoding="utf-8")
    assert refusal(case) == [
        "hidden/value_probes.json: fact `oven_time`, '300': a figure needs a probe at the limit "
        "that stays valid and one just beyond it that is refused; add one just beyond it that "
        "is refused"
    ]


def test_a_probe_of_a_missing_file_is_refused(tmp_path: Path) -> None:
    case = copy_bundled("tutorial-bake-sale", tmp_path)
    (case / "hidden" / "value_probes" / "oven-minutes-past-limit.csv").unlink()
    assert refusal(case) == [
        "hidden/value_probes.json: probe 'value_probes/oven-minutes-past-limit.csv': "
        "hidden/value_probes/oven-minutes-past-limit.csv does not exist"
    ]
