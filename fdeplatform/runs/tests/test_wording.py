"""Scores and figures in words: no "1.0-1.1 of the reference" for a perfect plan, no
"0.0-0.0" for a broken one, no four decimals on a bill (issue 28)."""

from __future__ import annotations

import pytest

from fdeplatform.runs.presenters import practice_result
from fdeplatform.runs.wording import figure, verdict


def _practice(score: float, valid: bool = True, error_kind: str | None = None) -> str:
    result = {"valid": valid, "score": score, "error_kind": error_kind, "raw_value": 1.0}
    return verdict(practice_result(result))


def test_a_band_at_the_top_reads_at_or_above_the_reference() -> None:
    assert _practice(1.0) == "At or above the reference"
    assert _practice(1.07) == "At or above the reference"


def test_a_lower_band_names_its_range() -> None:
    assert _practice(0.8125) == "0.8–0.9 of the reference"
    assert _practice(0.0499) == "0.0–0.1 of the reference"


def test_an_invalid_deliverable_says_why_instead_of_a_zero_band() -> None:
    assert _practice(0.0, valid=False, error_kind="constraint") == "Invalid: breaks a rule"
    assert _practice(0.0, valid=False, error_kind="schema").startswith("Invalid: the file")
    assert _practice(0.0, valid=False, error_kind="execution") == "Invalid: could not be scored"
    assert verdict({"valid": False}) == "Invalid"  # a public page without the verdict


def test_an_exact_score_keeps_four_decimals_and_no_result_says_nothing() -> None:
    assert verdict({"valid": True, "score": 0.95}) == "Score 0.9500"
    assert verdict(None) == "" and verdict({"valid": True, "score": None}) == ""


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (1284.506579, "1,284.51"),  # a bill: cents
        (112.9, "112.90"),
        (25646.0, "25,646"),  # penalty points: whole numbers
        (186000.4, "186,000"),  # large: no decimals
        (0.7017112912, "0.702"),  # a metric below 1
        (3012, "3,012"),
        (-0.0001, "0"),
        ("n/a", "n/a"),
        (True, "True"),
    ],
)
def test_figures_get_the_decimals_a_person_reads(value: object, shown: str) -> None:
    assert figure(value) == shown
