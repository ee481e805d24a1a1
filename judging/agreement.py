"""Agreement between a judge and hand labels: raw agreement and Cohen's kappa.

Raw agreement flatters a judge on unbalanced labels (always answering "not covered" scores 80 %
when 80 % of items are uncovered); Cohen's kappa discounts the agreement two raters would reach
by chance given how often each says "covered", which is why FDE-Bench reports both for its panel.
"""

from __future__ import annotations

from collections.abc import Sequence


def agreement(first: Sequence[bool], second: Sequence[bool]) -> float:
    """Share of items on which the two raters agree (1.0 for no items)."""
    _check(first, second)
    if not first:
        return 1.0
    return sum(a == b for a, b in zip(first, second, strict=True)) / len(first)


def cohen_kappa(first: Sequence[bool], second: Sequence[bool]) -> float:
    """Cohen's kappa for two raters' yes/no labels: (p_o - p_e) / (1 - p_e).

    p_o is the observed agreement and p_e the chance agreement from each rater's own rate of
    "yes". When chance agreement is already perfect (both raters always give one and the same
    label) kappa is defined here as 1.0 if they agree on everything, else 0.0.
    """
    _check(first, second)
    if not first:
        return 1.0
    n = len(first)
    observed = agreement(first, second)
    yes_first = sum(first) / n
    yes_second = sum(second) / n
    chance = yes_first * yes_second + (1 - yes_first) * (1 - yes_second)
    if chance >= 1.0:
        return 1.0 if observed == 1.0 else 0.0
    return (observed - chance) / (1.0 - chance)


def _check(first: Sequence[bool], second: Sequence[bool]) -> None:
    if len(first) != len(second):
        raise ValueError(f"label lists differ in length: {len(first)} != {len(second)}")
