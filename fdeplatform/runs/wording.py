"""Scores and business figures in a newcomer's words, the same on every page.

A practice band of [1.0, 1.1] for a plan that matches the reference read "Score 1.0-1.1 of the
reference", and a broken plan's [0.0, 0.0] read "0.0-0.0": the band exists to hide the exact
score (``presenters.practice_result``), not to be decoded. So a band at the top says "at or
above the reference" and an invalid verdict says why it scores nothing. Figures get the
decimals a person reads (``figure``); ``static/runs/workspace.js`` renders live results with
the same rules and must be kept in step.
"""

from __future__ import annotations

from typing import Any

#: Verdicts of invalid deliverables by the evaluator step that stopped them.
_INVALID = {
    "constraint": "Invalid: breaks a rule",
    "schema": "Invalid: the file does not match the deliverable's format",
    "execution": "Invalid: could not be scored",
    "fatal": "Invalid: could not be scored",
}


def band_words(low: float, high: float) -> str:
    """A valid practice score band: "At or above the reference" or "0.8–0.9 of the reference"."""
    if low >= 1.0:
        return "At or above the reference"
    return f"{low:.1f}–{high:.1f} of the reference"


def verdict(result: dict[str, Any] | None) -> str:
    """One line for a scored deliverable as its viewer may see it (a practice band or an exact
    score): why it is invalid, where a band sits, or the exact score; "" for no result."""
    if not result:
        return ""
    if not result.get("valid"):
        # No step named (a public run's page withholds the verdict): just the fact.
        return _INVALID.get(str(result.get("error_kind") or ""), "Invalid")
    band = result.get("score_band")
    if band:
        return band_words(float(band[0]), float(band[1]))
    score = result.get("score")
    return "" if score is None else f"Score {float(score):.4f}"


def figure(value: Any) -> str:
    """An evaluator's figure for people: thousands separated, no decimals from 10,000 up (a
    penalty of 25,646 points), two from 1 up (a bill of 1,284.51 EUR, a profit of 112.90 GBP),
    at most three below 1 (an AUC of 0.702); integers without a decimal point; text
    unchanged."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    number = float(value)
    size = abs(number)
    if number.is_integer() or size >= 10_000:
        return f"{number:,.0f}"
    if size >= 1:
        return f"{number:,.2f}"
    text = f"{number:.3f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text
