"""Reference solver of the churn-retention case, its counterfactuals and its anchors.

``python hidden/solver.py [--params P] [--root ROOT]`` writes ``ROOT/hidden/reference.csv``;
``--ignore KEY`` writes ``ROOT/hidden/counterfactuals/KEY.csv`` (the same pipeline with one
customer answer ignored); ``--anchors`` writes the admission anchors; ``--all`` does all three.
Without arguments: the base variant, in place.

The reference follows every rule in ``information.md``:

1. A two-model (T-learner) uplift estimate from the autumn randomised test: one random
   forest on the offered half, one on the control half, each predicting a
   *port-out* within 90 days (downgrades are not churn for retention).
2. Each customer's expected worth of an offer: the drop in port-out probability times
   ``value_months`` of the plan's margin (finance's table), minus the discount paid to an
   offered customer who stays (``discount_pct`` of the fee for ``discount_months``).
3. Only lines whose minimum term ends within the billing window and that are not on the
   contact-suppression list (any reason) may be offered.
4. An exact 0/1 knapsack (dynamic programming) picks the customers of positive expected worth that fit the
   budget, each offer counted at its full committed discount.

Each counterfactual changes one ``Recipe`` field: rank by churn risk, learn ``churn_flag``,
offer locked lines, ignore the suppressions, value by fee, count only the expected discount.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
from dataclasses import dataclass, replace
from datetime import date, timedelta
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")  # deterministic and quick on a busy machine

import numpy as np  # noqa: E402
from sklearn.ensemble import RandomForestClassifier  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402

CASE_DIR = Path(__file__).resolve().parent.parent
SEED = 11
NUMERIC = (
    "monthly_fee_eur",
    "tenure_months",
    "data_used_gb",
    "care_calls_90d",
    "dropped_call_pct",
    "app_logins_30d",
    "handset_age_months",
    "churn_score",
)
CATEGORICAL = ("plan_code", "payment_method", "region")

Table = dict[str, np.ndarray]


@dataclass(frozen=True)
class Recipe:
    """How a list is built; the reference and every counterfactual differ in one field."""

    objective: str = "uplift"  # "uplift" (T-learner) or "risk" (highest churn propensity first)
    label: str = "port_out"  # or "churn_flag" (BI: port-out or downgrade)
    contract_window: bool = True  # only lines whose term ends within the billing window
    suppressions: bool = True  # leave out everyone on the suppression list
    value: str = "margin"  # or "fee" (revenue instead of finance's plan margin)
    budget: str = "full"  # or "expected" (count only the discount customers who stay will use)
    risk_score: str = "model"  # for objective "risk": "model" or "vendor" (churn_score column)
    model: str = "t_forest"  # or "s_logistic": one logistic regression with an offer flag
    # objective "uplift_rank": fill the budget in order of estimated drop in port-out
    # probability, with no view of margin or of the discount handed to those who stay anyway.


REFERENCE = Recipe()
COUNTERFACTUALS = {
    "uplift_not_risk": replace(REFERENCE, objective="risk"),
    "port_out_is_churn": replace(REFERENCE, label="churn_flag"),
    "in_contract_ineligible": replace(REFERENCE, contract_window=False),
    "suppression_applies": replace(REFERENCE, suppressions=False),
    "margin_per_plan": replace(REFERENCE, value="fee"),
    "budget_full_commitment": replace(REFERENCE, budget="expected"),
}
LITERAL = Recipe(objective="risk", risk_score="vendor", contract_window=False, suppressions=False)
SHORTCUTS = {
    # Knows the eligibility rules, still sends the discount to the highest vendor scores.
    "shortcut-churn-score": replace(REFERENCE, objective="risk", risk_score="vendor"),
    # One churn model with "was offered" as a feature: the offer shifts everyone's log-odds
    # alike, so the estimated gain is largest for whoever is nearest even odds.
    "shortcut-single-model": replace(REFERENCE, model="s_logistic"),
}


def read_table(path: Path) -> Table:
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    return {name: np.array([row[name] for row in rows]) for name in rows[0]}


def window_end(start: date, months: int) -> date:
    year, month = start.year, start.month + months
    year += (month - 1) // 12
    month = (month - 1) % 12 + 1
    return date(year, month, 1) - timedelta(days=1)


def days_to_end(table: Table, as_of: date) -> np.ndarray:
    return np.array([(date.fromisoformat(d) - as_of).days for d in table["contract_end_date"]])


def features(table: Table, as_of: date, categories: dict[str, list[str]]) -> np.ndarray:
    """Numeric matrix: raw numbers, contract days relative to the offer date, one-hot codes."""
    columns = [table[name].astype(float) for name in NUMERIC]
    columns.append(np.clip(days_to_end(table, as_of), -1500, 800).astype(float))
    for name in CATEGORICAL:
        columns.extend((table[name] == value).astype(float) for value in categories[name])
    return np.column_stack(columns)


def outcome(campaign: Table, recipe: Recipe) -> np.ndarray:
    if recipe.label == "churn_flag":
        return campaign["churn_flag"].astype(int)
    return (campaign["outcome_90d"] == "ported_out").astype(int)


def forest() -> RandomForestClassifier:
    """Leaves of 40 customers: port-outs are rare enough that smaller leaves chase noise."""
    return RandomForestClassifier(
        n_estimators=250, min_samples_leaf=40, max_features="sqrt", random_state=SEED, n_jobs=1
    )


def port_out_estimates(root: Path, params: dict, recipe: Recipe) -> tuple[Table, np.ndarray, np.ndarray]:
    """This month's customers and their estimated churn probability without and with offer."""
    campaign = read_table(root / "data" / "campaign_2024q4.csv")
    customers = read_table(root / "data" / "customers.csv")
    categories = {name: sorted(set(campaign[name])) for name in CATEGORICAL}
    x = features(campaign, date.fromisoformat(params["campaign_offer_date"]), categories)
    x_now = features(customers, date.fromisoformat(params["offer_date"]), categories)
    y = outcome(campaign, recipe)
    offered = campaign["group"] == "offer"
    if recipe.model == "s_logistic":
        mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-9
        z, z_now = (x - mean) / scale, (x_now - mean) / scale
        single = LogisticRegression(C=1.0, max_iter=2000).fit(
            np.column_stack([z, offered.astype(float)]), y
        )
        flag = np.ones((z_now.shape[0], 1))
        return (
            customers,
            single.predict_proba(np.column_stack([z_now, 0 * flag]))[:, 1],
            single.predict_proba(np.column_stack([z_now, flag]))[:, 1],
        )
    control = forest().fit(x[~offered], y[~offered])
    treated = forest().fit(x[offered], y[offered])
    return customers, control.predict_proba(x_now)[:, 1], treated.predict_proba(x_now)[:, 1]


def eligible(root: Path, params: dict, customers: Table, recipe: Recipe) -> np.ndarray:
    keep = np.ones(customers["customer_id"].size, dtype=bool)
    if recipe.contract_window:
        offer_date = date.fromisoformat(params["offer_date"])
        last = window_end(offer_date, params["contract_window_months"]).isoformat()
        keep &= customers["contract_end_date"] <= last
    if recipe.suppressions:
        suppressed = set(read_table(root / "data" / "contact_suppressions.csv")["customer_id"])
        keep &= ~np.isin(customers["customer_id"], sorted(suppressed))
    return keep


def build(root: Path, params: dict, recipe: Recipe) -> list[str]:
    """The customer ids the recipe offers the discount to, best first."""
    customers, p0, p1 = port_out_estimates(root, params, recipe)
    fee = customers["monthly_fee_eur"].astype(float)
    discount = params["discount_pct"] / 100.0 * params["discount_months"] * fee
    if recipe.value == "fee":
        kept_value = params["value_months"] * fee
    else:
        kept_value = params["value_months"] * np.array(
            [params["plan_margin_eur"][p] for p in customers["plan_code"]]
        )
    worth = (p0 - p1) * kept_value - (1 - p1) * discount
    charge = discount if recipe.budget == "full" else (1 - p1) * discount
    keep = eligible(root, params, customers, recipe)
    ids = customers["customer_id"]
    if recipe.objective in ("risk", "uplift_rank"):
        if recipe.objective == "uplift_rank":
            rank = p0 - p1
        else:
            rank = customers["churn_score"].astype(float) if recipe.risk_score == "vendor" else p0
        order = [i for i in np.argsort(-rank, kind="stable") if keep[i]]
        chosen, spent = [], 0.0
        for i in order:  # fill the budget from the top of the ranking
            if spent + charge[i] <= params["budget_eur"] + 1e-9:
                chosen.append(i)
                spent += charge[i]
        return [str(ids[i]) for i in chosen]
    candidates = np.flatnonzero(keep & (worth > 0))
    picked = knapsack(worth[candidates], charge[candidates], params["budget_eur"])
    chosen = candidates[picked]
    chosen = chosen[np.argsort(-worth[chosen], kind="stable")]
    return [str(ids[i]) for i in chosen]


def knapsack(value: np.ndarray, weight: np.ndarray, capacity: float) -> np.ndarray:
    """Indices of the exact 0/1 knapsack optimum, by dynamic programming over the budget.

    Committed discounts are whole cents and share a large common divisor (a fixed share of a
    handful of plan fees), so the budget axis is short: exact, deterministic and instant.
    Weights that are not whole cents (the expected-discount counterfactual) are rounded up.
    """
    if value.size == 0:
        return np.array([], dtype=int)
    cents = np.ceil(np.round(weight * 100, 6)).astype(np.int64)
    step = int(np.gcd.reduce(cents))
    w = cents // step
    cap = int(np.floor(capacity * 100 + 1e-6)) // step
    if cap > 200_000:  # not a short axis: greedy by worth per euro, as a player would
        order = np.argsort(-value / weight, kind="stable")
        chosen, used = [], 0
        for i in order:
            if used + w[i] <= cap:
                chosen.append(i)
                used += w[i]
        return np.sort(np.array(chosen, dtype=int))
    best = np.zeros(cap + 1)
    take = np.zeros((value.size, cap + 1), dtype=bool)
    for i in range(value.size):
        if w[i] > cap:
            continue
        candidate = best[: cap + 1 - w[i]] + value[i]
        better = candidate > best[w[i]:] + 1e-12
        take[i, w[i]:] = better
        best[w[i]:] = np.where(better, candidate, best[w[i]:])
    chosen, room = [], cap
    for i in range(value.size - 1, -1, -1):
        if take[i, room]:
            chosen.append(i)
            room -= w[i]
    return np.sort(np.array(chosen, dtype=int))


def write_list(path: Path, ids: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(("customer_id",))
        writer.writerows([i] for i in ids)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--params", type=Path, default=None)
    parser.add_argument("--root", type=Path, default=CASE_DIR)
    parser.add_argument("--ignore", choices=sorted(COUNTERFACTUALS))
    parser.add_argument("--anchors", action="store_true")
    parser.add_argument("--all", action="store_true")
    args = parser.parse_args()
    root = args.root
    params_path = args.params or root / "hidden" / "params.json"
    params = json.loads(params_path.read_text(encoding="utf-8"))
    hidden = root / "hidden"
    if args.all or not (args.ignore or args.anchors):
        write_list(hidden / "reference.csv", build(root, params, REFERENCE))
    if args.ignore:
        write_list(hidden / "counterfactuals" / f"{args.ignore}.csv", build(root, params, COUNTERFACTUALS[args.ignore]))
    if args.all:
        for key, recipe in COUNTERFACTUALS.items():
            write_list(hidden / "counterfactuals" / f"{key}.csv", build(root, params, recipe))
    if args.all or args.anchors:
        write_list(hidden / "anchors" / "baseline.csv", [])
        write_list(hidden / "anchors" / "literal.csv", build(root, params, LITERAL))
        for name, recipe in SHORTCUTS.items():
            write_list(hidden / "anchors" / f"{name}.csv", build(root, params, recipe))


if __name__ == "__main__":
    main()
