"""The evaluator fuzz step of admission (evaluators.fuzz, issue 24): every form of the reference
the format check accepts must get a verdict, and forms of the same deliverable the same score."""

from __future__ import annotations

import shutil
from pathlib import Path

from evaluators.admission import admit
from evaluators.fuzz import fuzz_reference
from evaluators.package import CasePackage, Target, load_package
from evaluators.runtime import score_file

CASES = Path(__file__).resolve().parents[2] / "cases"


def always(package: CasePackage, target: Target) -> bool:
    return True


def fuzz(case: Path) -> tuple[list[str], list[str], list[dict[str, object]]]:
    package = load_package(case)
    reference_path = package.anchor_path("reference")
    reference = score_file(case, reference_path)
    return fuzz_reference(
        package.schema_path, reference_path, reference, lambda path: score_file(case, path)
    )


def test_an_evaluator_crashing_on_zone_aware_stamps_is_refused(tmp_path: Path) -> None:
    case = tmp_path / "battery-dispatch"
    shutil.copytree(CASES / "battery-dispatch", case, ignore=shutil.ignore_patterns("__pycache__"))
    evaluator = case / "hidden" / "evaluator.py"
    source = evaluator.read_text(encoding="utf-8")
    handled = (
        "    if moment.tzinfo is not None:\n"
        "        moment = moment.astimezone(timezone(offset)).replace(tzinfo=None)\n"
    )
    # The planted mistake: stamps compared with a naive date, which a zone-aware stamp cannot be.
    naive_only = "    if moment < datetime(2000, 1, 1):\n        return None\n"
    assert handled in source
    evaluator.write_text(source.replace(handled, naive_only), encoding="utf-8")
    problems, _, summary = fuzz(case)
    assert len(problems) == 2, problems
    for problem, variant in zip(
        problems, ["`interval_start` marked UTC with Z", "`interval_start` with the offset +02:00"],
        strict=True,
    ):  # fmt: skip
        assert problem.startswith(
            f"fuzz: the evaluator crashed on the reference with {variant}, a file the "
            "submission format accepts: "
        )
        assert problem.endswith(
            "TypeError: can't compare offset-naive and offset-aware datetimes"
        ), problem
    assert {"rows in reverse order", "CRLF line endings"} <= {str(e["variant"]) for e in summary}


def test_the_bundled_battery_evaluator_reads_zone_aware_stamps() -> None:
    problems, warnings, summary = fuzz(CASES / "battery-dispatch")
    assert (problems, warnings) == ([], [])
    outcomes = {entry["variant"]: entry["outcome"] for entry in summary}
    # The same instants in site time (CEST) are the reference; the same clock times in UTC are
    # two hours late, which the evaluator refuses with its reason instead of crashing.
    assert outcomes["`interval_start` with the offset +02:00"] == "valid, value 1284.506579"
    assert str(outcomes["`interval_start` marked UTC with Z"]).startswith(
        "fatal: The schedule must cover Wednesday 16 July 2025 in site time"
    )


def test_a_crash_on_reordered_rows_is_an_admission_problem(knapsack: Path) -> None:
    evaluator = knapsack / "hidden" / "evaluator.py"
    source = evaluator.read_text(encoding="utf-8")
    planted = source.replace(
        "    unknown = [",
        # Written against files in item order: a list in reverse item order breaks it.
        "    if len(chosen) > 1 and chosen == sorted(chosen, reverse=True):\n"
        "        raise ValueError('rows must come in item order')\n"
        "    unknown = [",
    )
    evaluator.write_text(planted, encoding="utf-8")
    report = admit(load_package(knapsack), answerability=always)
    assert report.problems == [
        "fuzz: the evaluator crashed on the reference with rows in reverse order, a file the "
        "submission format accepts: ValueError: rows must come in item order"
    ]
    assert report.to_dict()["fuzz"][0] == {
        "variant": "rows in reverse order",
        "same_deliverable": True,
        "outcome": "execution: The evaluation failed with an internal error, so this file has no "
        "score. Your file passed the format check; the organisers can see what went wrong.",
    }


def test_a_score_that_depends_on_the_row_order_is_a_warning(knapsack: Path) -> None:
    evaluator = knapsack / "hidden" / "evaluator.py"
    source = evaluator.read_text(encoding="utf-8")
    planted = source.replace(
        "- LINE_FEE_EUR\n", "- LINE_FEE_EUR + (index if item_id == 'I01' else 0)\n"
    )
    assert planted != source
    evaluator.write_text(planted, encoding="utf-8")
    report = admit(load_package(knapsack), answerability=always)
    assert report.ok, report.problems
    assert (
        "fuzz: the reference with rows in reverse order scores valid, value 47.0, the reference "
        "valid, value 44.0; the same deliverable should score alike"
    ) in report.warnings


def test_the_report_lists_the_value_probes_and_fuzz_variants(knapsack: Path) -> None:
    data = admit(load_package(knapsack), answerability=always).to_dict()
    assert [(p["file"], p["expect"], p["got"], p["ok"]) for p in data["value_probes"]] == [
        ("value_probes/capacity-at-limit.csv", "valid", "valid", True),
        ("value_probes/capacity-past-limit.csv", "capacity_reduced", "breaks capacity_reduced", True),
    ]  # fmt: skip
    assert [entry["variant"] for entry in data["fuzz"]] == [
        "rows in reverse order",
        "spaces around every cell",
        "LF line endings",
        "no newline after the last row",
    ]
