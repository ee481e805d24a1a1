"""Write ``hidden/values.json``: the figures and scope words the answer texts quote, per variant.

``python cases/credit-default/hidden/make_values.py`` writes the base variant's file;
``--params P --root ROOT`` a variant's (``ROOT/hidden/values.json``). The customer's answers,
the targets' requirements, information.md and matching.json write these as ``{{name}}``
placeholders (docs/variants.md), so every variant states its own default threshold, scope,
calibration band and the rates that follow from them.

Every figure is computed, never typed: the rules from ``params.json``, the rates and counts
from the variant's ``data/train.csv``, the realised population from the evaluator's verdict on
the reference, the "what a misreading would give" levels from the counterfactual files. Run it
after the solver. The base's values reproduce the texts as they were written before the
placeholders.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

HIDDEN_DIR = Path(__file__).resolve().parent
sys.path[:0] = [str(HIDDEN_DIR), str(HIDDEN_DIR.parents[2])]

from evaluator import evaluate  # noqa: E402

from evaluators.api import Submission  # noqa: E402

#: Product codes in the order the texts name them, with their plural and adjective forms.
PRODUCTS = {
    "personal_loan": ("personal loans", "personal-loan"),
    "credit_card": ("credit cards", "credit-card"),
    "overdraft": ("overdrafts", "overdraft"),
    "auto_loan": ("auto loans", "auto-loan"),
    "mortgage": ("mortgages", "mortgage"),
}
UNSECURED = ("personal_loan", "credit_card", "overdraft")
SECURED = ("auto_loan", "mortgage")
NUMBER_WORDS = {4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}


def joined(words: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def read_rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def mean_pd(path: Path) -> float:
    rows = read_rows(path)
    return sum(float(row["probability"]) for row in rows) / len(rows)


def percent(share: float, decimals: int = 1) -> str:
    """A share as the engagement notes write it: rounded to four places first, then half up
    (0.14848 is "14.9%", as the notes had it before they were templated)."""
    rounded = Decimal(str(round(share, 4))) * 100
    return f"{rounded.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)}%"


def scope_values(scored: list[str]) -> dict[str, str]:
    """How the answers name the model's population and what is left out of it."""
    excluded = [p for p in (*SECURED, *UNSECURED) if p not in scored]
    whole_unsecured = sorted(scored) == sorted(UNSECURED)
    extra = [p for p in excluded if p not in SECURED]
    return {
        "scope_phrase": "unsecured lending only"
        if whole_unsecured
        else joined([PRODUCTS[p][1] for p in scored]) + " lending only",
        "scored_list": joined([PRODUCTS[p][0] for p in scored]),
        "scored_codes": ", ".join(scored),
        "scored_codes_md": ", ".join(f"`{p}`" for p in scored),
        "scored_applicant": "unsecured" if whole_unsecured else joined([PRODUCTS[p][1] for p in scored]),
        "excluded_codes": joined(excluded),
        "extra_exclusion": ""
        if not extra
        else f" {joined([PRODUCTS[p][0] for p in extra]).capitalize()} aren't ours any more"
        " either: since last year they're decided on the current account's behavioural score,"
        " by the current-account team.",
        "extra_exclusion_info": ""
        if not extra
        else f" {joined([PRODUCTS[p][0] for p in extra]).capitalize()} are out of scope too: since"
        " 2023 they are decided on the current account's behavioural score by the current-account"
        " team, and validation rejects a file that scores them just the same.",
    }  # fmt: skip


def default_values(threshold: int) -> dict[str, str]:
    """The threshold and the sentences whose wording depends on it."""
    if threshold == 90:
        note = ""
        standard = ", and it follows the regulatory 90-day standard"
        collections_extra = (
            " (and for some accounts that reached 60-89 days or defaulted after month 12)"
        )
    else:
        note = (
            f" The bank sets this deliberately earlier than the regulatory 90 days: at {threshold}"
            " days the account is already with collections, and Priya's policy calls it bad there."
        )
        standard = (
            f", and it's deliberately earlier than the regulatory 90 days: by {threshold}"
            " days collections has the account, and that's where we call it bad"
        )
        collections_extra = " (and for some accounts that defaulted after month 12)"
    return {"default_dpd": str(threshold), "default_standard": standard, "default_policy_note": note,
            "collections_extra": collections_extra}  # fmt: skip


def values(params: dict, root: Path) -> dict[str, str]:
    hidden = root / "hidden"
    threshold = int(params["default_dpd"])
    scored = list(params["scored_products"])
    good_weight = 1.0 / float(params["good_sampling_rate"])
    train = read_rows(root / "data" / "train.csv")
    bad = [int(row["max_dpd_12m"]) >= threshold for row in train]
    charged = [row["status"] == "charged_off" for row in train]

    def book_rate(rows: list[int]) -> float:
        weights = [1.0 if bad[i] else good_weight for i in rows]
        return sum(w for i, w in zip(rows, weights, strict=True) if bad[i]) / sum(weights)

    in_scope = [i for i, row in enumerate(train) if row["product"] in scored]
    rate = book_rate(in_scope)
    raw = sum(bad[i] for i in in_scope) / len(in_scope)
    reference = read_rows(hidden / "reference.csv")
    assessment = evaluate(Submission(format="csv", rows=reference), root / "data", hidden)
    if assessment.value is None:
        raise SystemExit(f"the reference is not valid: {assessment.violations or assessment.fatal}")
    uncorrected = [mean_pd(hidden / "counterfactuals" / f"{key}.csv")
                   for key in ("calibration_rule", "development_sample")]  # fmt: skip
    found = {
        **default_values(threshold),
        **scope_values(scored),
        "calibration_tolerance": f"{float(params['calibration_tolerance']):.0%}",
        "book_rate": percent(rate),
        "raw_rate": percent(raw, 0),
        "uncorrected_range": f"{100 * min(uncorrected):.0f}-{100 * raw:.0f}%",
        "writeoff_model_rate": percent(
            mean_pd(hidden / "counterfactuals" / "default_definition.csv"), 0
        ),
        "one_in": NUMBER_WORDS[round(1 / rate)],
        "nobody_accuracy": percent(1 - rate, 0),
        "n_scored": f"{assessment.details['applicants_scored']:,}",
        "charged_off_total": f"{sum(charged):,}",
        "charged_off_not_default": f"{sum(c and not b for c, b in zip(charged, bad, strict=True)):,}",
        "defaulters_total": f"{sum(bad):,}",
        "defaulters_not_charged": f"{sum(b and not c for c, b in zip(charged, bad, strict=True)):,}",
        "annual_train_rows": f"{sum(row['income_period'] == 'A' for row in train):,}",
    }
    for product in PRODUCTS:
        rows = [i for i, row in enumerate(train) if row["product"] == product]
        found[f"rate_{product}"] = percent(book_rate(rows))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--params", type=Path, help="params.json (default: ROOT/hidden/params.json)"
    )
    parser.add_argument("--root", type=Path, default=HIDDEN_DIR.parent, help="package root")
    args = parser.parse_args()
    params = json.loads((args.params or args.root / "hidden" / "params.json").read_text("utf-8"))
    document = values(params, args.root)
    (args.root / "hidden" / "values.json").write_text(
        json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()
