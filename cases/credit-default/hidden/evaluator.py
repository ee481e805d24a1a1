"""Evaluator of the credit-default case: the bank's back-test of a probability-of-default file.

Order of checks, as model validation runs them:

1. Fatal: the file must score exactly the in-scope applicants of ``data/test.csv`` (the
   products in ``scored_products``: the unsecured ones in the base) - no unknown or repeated
   applicant ids, no in-scope applicant left out. Without that the back-test cannot be run.
2. Constraints: out-of-scope applicants (auto loans and mortgages in the base) must not be in
   the file; the mean predicted probability must be within ``calibration_tolerance`` (+-20%
   relative in the base) of the realised 12-month default rate of the scored applicants.
   Either breach stops the model at validation.
3. Value: 0.5 * AUC + 0.5 * KS of the probabilities against the realised defaults
   (``truth/test_labels.csv``, written by the generator with the variant's default threshold),
   the bank's standard discrimination figure.

The rule parameters are read from ``hidden_dir / "params.json"`` (docs/variants.md), so every
variant of the case is judged by its own scope and tolerance.

A constant probability gives AUC 0.5 and KS 0, so the do-nothing file (the portfolio rate for
everyone) has raw value 0.25 and passes calibration; that is the uplift baseline.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from evaluators.api import Assessment, Submission, ViolationCollector

AUC_WEIGHT = 0.5
KS_WEIGHT = 0.5


def rule_parameters(hidden_dir: Path) -> tuple[frozenset[str], float]:
    """The products in scope and the relative calibration tolerance of this variant."""
    params = json.loads((hidden_dir / "params.json").read_text(encoding="utf-8"))
    return frozenset(params["scored_products"]), float(params["calibration_tolerance"])


def evaluate(submission: Submission, data_dir: Path, hidden_dir: Path) -> Assessment:
    scored_products, tolerance = rule_parameters(hidden_dir)
    products = _read_column(data_dir / "test.csv", "product")
    truth = _read_column(hidden_dir / "truth" / "test_labels.csv", "default_12m")
    in_scope = [a for a, p in products.items() if p in scored_products]

    fatal = _population_problem(submission.rows, products, in_scope, scored_products)
    if fatal:
        return Assessment(fatal=fatal)

    collector = ViolationCollector()
    _check_scope(submission.rows, products, scored_products, collector)
    scores = {row["applicant_id"]: float(row["probability"]) for row in submission.rows}
    probability = np.array([scores[a] for a in in_scope])
    outcome = np.array([int(truth[a]) for a in in_scope])
    mean_probability = float(probability.mean())
    realised_rate = float(outcome.mean())
    _check_calibration(mean_probability, realised_rate, tolerance, collector)
    if collector:
        return Assessment(violations=collector.violations())

    auc = area_under_roc(probability, outcome)
    ks = kolmogorov_smirnov(probability, outcome)
    return Assessment(
        value=AUC_WEIGHT * auc + KS_WEIGHT * ks,
        details={
            "auc": round(auc, 4),
            "ks": round(ks, 4),
            "mean_probability": round(mean_probability, 4),
            "realised_rate": round(realised_rate, 4),
            "applicants_scored": len(in_scope),
        },
    )


def _read_column(path: Path, column: str) -> dict[str, str]:
    with path.open(newline="", encoding="utf-8") as handle:
        return {row["applicant_id"]: row[column] for row in csv.DictReader(handle)}


PRODUCT_WORDS = {
    "personal_loan": "personal-loan",
    "credit_card": "credit-card",
    "overdraft": "overdraft",
    "auto_loan": "auto-loan",
    "mortgage": "mortgage",
}


def _product_list(scored_products: frozenset[str]) -> str:
    """'personal-loan, credit-card and overdraft', in the data dictionary's product order."""
    words = [word for product, word in PRODUCT_WORDS.items() if product in scored_products]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _population_problem(
    rows: list[dict[str, Any]],
    products: dict[str, str],
    in_scope: list[str],
    scored_products: frozenset[str],
) -> str | None:
    """Why the file cannot be back-tested at all, in the words of model validation."""
    ids = [row["applicant_id"] for row in rows]
    unknown = sorted({a for a in ids if a not in products})
    if unknown:
        return (
            f"{len(unknown)} applicant id(s) in the file are not in the test file "
            f"(e.g. {', '.join(unknown[:3])}). We can only back-test applicants we sent you."
        )
    repeated = sorted(a for a, n in Counter(ids).items() if n > 1)
    if repeated:
        return (
            f"{len(repeated)} applicant(s) appear more than once (e.g. {', '.join(repeated[:3])}). "
            "Each applicant needs exactly one probability of default."
        )
    present = set(ids)
    missing = [a for a in in_scope if a not in present]
    # "unsecured" while the scope is exactly the unsecured products, "in-scope" otherwise.
    unsecured = frozenset({"personal_loan", "credit_card", "overdraft"})
    noun = "unsecured" if scored_products == unsecured else "in-scope"
    if missing:
        return (
            f"The file leaves out {len(missing)} of the {len(in_scope)} {noun} applicants "
            f"(e.g. {', '.join(missing[:3])}). Credit committee needs a probability of default "
            f"for every {_product_list(scored_products)} applicant in the test file."
        )
    return None


def _check_scope(
    rows: list[dict[str, Any]],
    products: dict[str, str],
    scored_products: frozenset[str],
    collector: ViolationCollector,
) -> None:
    # Worded without stating the hidden rule: practice runs show it while the run is open.
    message = "The file scores applicants this model must not be used for."
    for index, row in enumerate(rows):
        product = products[row["applicant_id"]]
        if product not in scored_products:
            example = {
                "line": Submission.line_of(index),
                "applicant_id": row["applicant_id"],
                "product": product,
            }
            collector.add("secured_out_of_scope", message, example)


def _check_calibration(
    mean_probability: float, realised_rate: float, tolerance: float, collector: ViolationCollector
) -> None:
    ratio = mean_probability / realised_rate if realised_rate > 0 else float("inf")
    if abs(ratio - 1.0) <= tolerance + 1e-12:
        return
    direction = "above" if ratio > 1 else "below"
    collector.add(
        "calibration_rule",
        f"The average probability of default in the file ({mean_probability:.1%}) is too far "
        f"{direction} the default rate these applicants actually showed; validation would not "
        "sign the PD level off.",
        {"mean_probability": round(mean_probability, 4)},
    )


def area_under_roc(score: np.ndarray, outcome: np.ndarray) -> float:
    """AUC as the Mann-Whitney statistic: ties count half, as in every ROC implementation."""
    ranks = _average_ranks(score)
    positives = outcome == 1
    n_pos = int(positives.sum())
    n_neg = outcome.size - n_pos
    if n_pos == 0 or n_neg == 0:
        return 0.5
    rank_sum = float(ranks[positives].sum())
    return (rank_sum - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def kolmogorov_smirnov(score: np.ndarray, outcome: np.ndarray) -> float:
    """Largest gap between the cumulative score distributions of the others and defaulters.

    The gap is signed (defaulters must score higher), so a file with the direction reversed
    earns no KS instead of a large one. Cut-offs are taken only between distinct scores, so tied
    applicants are never split and a constant score has KS 0.
    """
    values, inverse = np.unique(score, return_inverse=True)
    defaults = np.bincount(inverse, weights=outcome, minlength=values.size)
    counts = np.bincount(inverse, minlength=values.size)
    n_pos = outcome.sum()
    n_neg = outcome.size - n_pos
    if n_pos == 0 or n_neg == 0:
        return 0.0
    cum_pos = np.cumsum(defaults) / n_pos
    cum_neg = np.cumsum(counts - defaults) / n_neg
    return float(max(0.0, np.max(cum_neg - cum_pos)))


def _average_ranks(values: np.ndarray) -> np.ndarray:
    order = np.argsort(values, kind="mergesort")
    sorted_values = values[order]
    ranks = np.empty(values.size)
    ranks[order] = np.arange(1, values.size + 1)
    _, first, counts = np.unique(sorted_values, return_index=True, return_counts=True)
    tied = counts > 1
    for start, count in zip(first[tied], counts[tied], strict=True):
        block = order[start : start + count]
        ranks[block] = ranks[block].mean()
    return ranks
