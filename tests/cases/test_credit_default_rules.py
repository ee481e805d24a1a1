"""credit-default: model validation's checks, each fired by changing the reference PD file.

The population checks are fatal (the back-test cannot run), scope and calibration are hard
rules. Calibration is tested on both sides of its 20 % band by shifting or scaling every
probability, which keeps the ranking, so a file inside the band keeps the reference's score.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from evaluators.runtime import Result, score_file
from tests.cases.deliverables import (
    assert_schema_error_names_the_column,
    case_dir,
    fatal_message,
    only_rule_broken,
    read_rows,
    rules_broken,
    score_rows,
)

CASE = case_dir("credit-default")
COLUMNS = ["applicant_id", "probability"]
REFERENCE = read_rows(CASE / "hidden" / "reference.csv")
SECURED = {"auto_loan", "mortgage"}


def _column(path: Path, name: str) -> dict[str, str]:
    with path.open(newline="", encoding="utf-8") as handle:
        return {row["applicant_id"]: row[name] for row in csv.DictReader(handle)}


PRODUCTS = _column(CASE / "data" / "test.csv", "product")
DEFAULTED = _column(CASE / "hidden" / "truth" / "test_labels.csv", "default_12m")
REFERENCE_PD = [float(row["probability"]) for row in REFERENCE]
REFERENCE_MEAN = sum(REFERENCE_PD) / len(REFERENCE_PD)
REALISED_RATE = sum(int(DEFAULTED[row["applicant_id"]]) for row in REFERENCE) / len(REFERENCE)


def score_probabilities(tmp_path: Path, probabilities: list[float]) -> Result:
    rows = [
        {"applicant_id": row["applicant_id"], "probability": f"{p:.6f}"}
        for row, p in zip(REFERENCE, probabilities, strict=True)
    ]
    return score_rows(CASE, rows, COLUMNS, tmp_path)


def with_mean(target: float) -> list[float]:
    """The reference PDs moved to average ``target``, ranking kept and within [0, 1].

    Upwards the PDs are shifted (scaling would push the riskiest past 1), downwards scaled
    (shifting would push the safest below 0).
    """
    if target >= REFERENCE_MEAN:
        moved = [p + target - REFERENCE_MEAN for p in REFERENCE_PD]
    else:
        moved = [p * target / REFERENCE_MEAN for p in REFERENCE_PD]
    assert min(moved) >= 0 and max(moved) <= 1
    return moved


def secured_applicants(count: int) -> list[dict[str, str]]:
    """The first ``count`` secured applicants of each secured product, in test-file order."""
    chosen = []
    for product in sorted(SECURED):
        ids = [a for a, p in PRODUCTS.items() if p == product][:count]
        chosen += [{"applicant_id": a, "probability": "0.100000"} for a in ids]
    return chosen


# --- anchors and format -------------------------------------------------------------------


def test_the_reference_scores_one_and_the_book_rate_for_everyone_scores_zero() -> None:
    reference = score_file(CASE, CASE / "hidden" / "reference.csv")
    book_rate = score_file(CASE, CASE / "hidden" / "anchors" / "baseline.csv")
    assert (reference.valid, reference.score) == (True, 1.0)
    assert reference.details["applicants_scored"] == len(REFERENCE)
    assert (book_rate.valid, book_rate.uplift, book_rate.raw_value) == (True, 0.0, 0.25)
    assert book_rate.score == pytest.approx(0.25 / 0.7017112912373571)  # Quality: x/R


def test_a_misspelt_column_is_a_format_error_on_line_one(tmp_path: Path) -> None:
    rows = [{"applicant_id": r["applicant_id"], "probabilty": r["probability"]} for r in REFERENCE]
    result = score_rows(CASE, rows, ["applicant_id", "probabilty"], tmp_path)
    assert_schema_error_names_the_column(result, wrong="probabilty", right="probability")


# --- the population: fatal, the back-test cannot run ---------------------------------------


def test_an_applicant_that_was_never_sent_cannot_be_back_tested(tmp_path: Path) -> None:
    assert "A000000" not in PRODUCTS
    rows = [{"applicant_id": "A000000", "probability": "0.1"}, *REFERENCE[1:]]
    message = fatal_message(score_rows(CASE, rows, COLUMNS, tmp_path))
    assert message.startswith("1 applicant id(s) in the file are not in the test file")
    assert "(e.g. A000000)" in message


def test_a_left_out_applicant_cannot_be_back_tested(tmp_path: Path) -> None:
    left_out = REFERENCE[7]["applicant_id"]
    rows = [row for row in REFERENCE if row["applicant_id"] != left_out]
    message = fatal_message(score_rows(CASE, rows, COLUMNS, tmp_path))
    assert f"leaves out 1 of the {len(REFERENCE)} unsecured applicants (e.g. {left_out})" in message


def test_a_repeated_applicant_is_stopped_by_the_format_check(tmp_path: Path) -> None:
    # The evaluator has its own "appears more than once" message, but the schema's `unique`
    # stops the file first, with the line of each copy.
    result = score_rows(CASE, [*REFERENCE, REFERENCE[0]], COLUMNS, tmp_path)
    assert result.error_kind == "schema"
    expected = f"line {len(REFERENCE) + 2}: `applicant_id` = {REFERENCE[0]['applicant_id']}"
    assert f"{expected} repeats line 2" in (result.error_message or "")


# --- secured_out_of_scope -----------------------------------------------------------------


def test_scoring_secured_applicants_is_a_violation(tmp_path: Path) -> None:
    extra = secured_applicants(2)
    result = score_rows(CASE, [*REFERENCE, *extra], COLUMNS, tmp_path)
    violation = only_rule_broken(result, "secured_out_of_scope")
    assert violation["count"] == 4
    first_line = len(REFERENCE) + 2
    assert [e["line"] for e in violation["examples"]] == list(range(first_line, first_line + 4))
    assert {e["product"] for e in violation["examples"]} == SECURED
    assert violation["message"] == "The file scores applicants this model must not be used for."


# --- calibration_rule ---------------------------------------------------------------------


@pytest.mark.parametrize(("ratio", "side"), [(1.21, "above"), (0.79, "below")])
def test_an_average_pd_more_than_20_percent_off_the_realised_rate_is_a_violation(
    tmp_path: Path, ratio: float, side: str
) -> None:
    result = score_probabilities(tmp_path, with_mean(ratio * REALISED_RATE))
    violation = only_rule_broken(result, "calibration_rule")
    assert violation["count"] == 1
    assert f"too far {side} the default rate" in violation["message"]
    assert "20%" not in violation["message"]  # the tolerance is the hidden rule
    assert violation["examples"][0]["mean_probability"] == pytest.approx(
        ratio * REALISED_RATE, abs=1e-4
    )
    # The player learns their own average, never the realised rate it was compared with.
    assert f"{REALISED_RATE:.1%}" not in violation["message"]
    assert f"{REALISED_RATE:.3f}" not in str(result.to_player_dict())


@pytest.mark.parametrize("ratio", [1.19, 0.81])
def test_an_average_pd_within_20_percent_of_the_realised_rate_passes_with_its_ranking_score(
    tmp_path: Path, ratio: float
) -> None:
    result = score_probabilities(tmp_path, with_mean(ratio * REALISED_RATE))
    assert (result.valid, result.violations) == (True, [])
    assert result.score == pytest.approx(1.0, abs=1e-3)


def test_secured_applicants_and_a_miscalibrated_file_break_both_rules(tmp_path: Path) -> None:
    rows = [
        {"applicant_id": row["applicant_id"], "probability": f"{p:.6f}"}
        for row, p in zip(REFERENCE, with_mean(1.5 * REALISED_RATE), strict=True)
    ]
    result = score_rows(CASE, [*rows, *secured_applicants(1)], COLUMNS, tmp_path)
    broken = rules_broken(result)
    assert set(broken) == {"secured_out_of_scope", "calibration_rule"}
    assert broken["secured_out_of_scope"]["count"] == 2
    assert result.error_message == "2 hard rules are broken, so the score is 0."
