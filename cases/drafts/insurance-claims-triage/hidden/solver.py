"""Reference solver of the insurance-claims-triage case, its counterfactuals and its anchors.

``python hidden/solver.py [--params P] [--root ROOT]`` writes ``ROOT/hidden/reference.csv``;
``--ignore KEY`` writes ``ROOT/hidden/counterfactuals/KEY.csv`` (the same pipeline with one
customer answer ignored); ``--anchors`` writes the admission anchors; ``--all`` does all three.
Without arguments: the base variant, in place.

The reference follows every rule in ``information.md``:

1. A gradient-boosted fraud model on the closed claims of the last two years, labelled with
   ``closure_reason = repudiated_fraud`` (withdrawn claims are not fraud, whatever
   ``fraud_flag`` says since MI widened it).
2. Each open claim's expected net saving if referred: P(fraud) x the claimed amount, minus
   its investigator hours at the hourly cost, minus the friction cost of a genuine claimant
   referred, (1 - P(fraud)) x ``friction_gbp``.
3. An exact 0/1 selection (a mixed-integer programme solved by HiGHS through SciPy) of the
   claims of positive expected saving, within the unit's investigator hours and the injury
   investigator's hours, leaving out the claims the delegated-authority administrator handles.

Each counterfactual changes one ``Recipe`` field: 25 claims instead of hours, no injury limit,
Northgate's claims allowed, ``fraud_flag`` as the label, fraud probability instead of money
(the SIU's hit rate), fraud saved with no costs.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")  # deterministic and quick on a busy machine

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp
from sklearn.ensemble import GradientBoostingClassifier

CASE_DIR = Path(__file__).resolve().parent.parent
SEED = 7
FLAT_DAY_HOURS = 7.5  # a player without SIU's planning table: one investigator-day a referral
TYPES = ("collision", "glass", "theft", "fire", "injury", "vandalism", "storm")
CHANNELS = ("direct", "aggregator", "broker")
REPAIRERS = ("network", "customer_choice", "none")
NUMERIC = ("vehicle_value_gbp", "vehicle_age_years", "ncd_years", "prior_claims_3y",
           "tracker_fitted", "police_reference", "third_parties", "injured_persons",
           "alert_score")

Table = dict[str, np.ndarray]


@dataclass(frozen=True)
class Recipe:
    """How a list is built; the reference and every counterfactual differ in one field."""

    label: str = "repudiated"  # or "fraud_flag" (MI's flag, withdrawals included)
    capacity: str = "hours"  # or "count": the request's 25 referrals a week
    hours: str = "by_type"  # or "flat": every referral counted as one investigator-day
    injury_cap: bool = True  # the accredited investigator's hours
    exclude_tpa: bool = True  # Northgate's claims are not ours to refer
    objective: str = "net"  # "net", "gross" (fraud saved, no costs), "hit_rate" (P(fraud)),
    #                         "alert" (the rules engine's score), "amount" (largest claims)


REFERENCE = Recipe()
COUNTERFACTUALS = {
    "capacity_in_hours": replace(REFERENCE, capacity="count"),
    "injury_cap": replace(REFERENCE, injury_cap=False),
    "tpa_not_referable": replace(REFERENCE, exclude_tpa=False),
    "fraud_is_repudiation": replace(REFERENCE, label="fraud_flag"),
    "net_savings_not_hits": replace(REFERENCE, objective="hit_rate"),
    "hours_per_claim_type": replace(REFERENCE, hours="flat"),
}
LITERAL = Recipe(label="fraud_flag", capacity="count", injury_cap=False, exclude_tpa=False,
                 objective="hit_rate")
SHORTCUTS = {
    # Knows every rule, still refers by the rules engine's red-flag score.
    "shortcut-alert-score": replace(REFERENCE, objective="alert"),
    # Knows every rule, refers the biggest claims: "that's where the money is".
    "shortcut-largest-claims": replace(REFERENCE, objective="amount"),
    # Models MI's fraud_flag and refers the likeliest frauds, the SIU's hit-rate habit.
    "shortcut-flag-hit-rate": replace(REFERENCE, label="fraud_flag", objective="hit_rate"),
}


def read_table(path: Path) -> Table:
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    return {name: np.array([row[name] for row in rows]) for name in rows[0]}


def days_between(later: np.ndarray, earlier: np.ndarray) -> np.ndarray:
    return np.array([(date.fromisoformat(a) - date.fromisoformat(b)).days
                     for a, b in zip(later, earlier, strict=True)], dtype=float)


def features(table: Table, tpa_handler: str) -> np.ndarray:
    """Numeric matrix: raw numbers, log amounts, policy age and notification delay, codes."""
    columns = [table[name].astype(float) for name in NUMERIC]
    amount = table["claimed_amount_gbp"].astype(float)
    columns += [np.log(amount), amount / table["vehicle_value_gbp"].astype(float)]
    columns.append(days_between(table["incident_date"], table["policy_start_date"]))
    columns.append(days_between(table["notified_date"], table["incident_date"]))
    columns.append((table["handled_by"] == tpa_handler).astype(float))
    for values, name in ((TYPES, "claim_type"), (CHANNELS, "sales_channel"), (REPAIRERS, "repairer")):
        columns.extend((table[name] == v).astype(float) for v in values)
    return np.column_stack(columns)


_FITTED: dict[tuple[str, str], tuple[Table, np.ndarray]] = {}


def fraud_estimates(root: Path, params: dict, recipe: Recipe) -> tuple[Table, np.ndarray]:
    """Open claims and their estimated P(fraud); one fit per root and label (fits are slow)."""
    key = (str(root.resolve()), recipe.label)
    if key not in _FITTED:
        _FITTED[key] = _fit(root, params, recipe)
    return _FITTED[key]


def _fit(root: Path, params: dict, recipe: Recipe) -> tuple[Table, np.ndarray]:
    history = read_table(root / "data" / "claims_history.csv")
    claims = read_table(root / "data" / "claims_open.csv")
    if recipe.label == "fraud_flag":
        y = history["fraud_flag"].astype(int)
    else:
        y = (history["closure_reason"] == "repudiated_fraud").astype(int)
    model = GradientBoostingClassifier(
        n_estimators=250, max_depth=3, learning_rate=0.05, min_samples_leaf=20,
        random_state=SEED,
    ).fit(features(history, params["tpa_handler"]), y)
    return claims, model.predict_proba(features(claims, params["tpa_handler"]))[:, 1]


def build(root: Path, params: dict, recipe: Recipe) -> list[str]:
    """The claim ids the recipe refers, best first."""
    claims, p = fraud_estimates(root, params, recipe)
    amount = claims["claimed_amount_gbp"].astype(float)
    hours = np.array([params["hours_per_claim"][t] for t in claims["claim_type"]], dtype=float)
    if recipe.hours == "flat":
        hours = np.full(hours.size, FLAT_DAY_HOURS)
    injury = claims["claim_type"] == "injury"
    gross = p * amount
    net = gross - hours * params["cost_per_hour_gbp"] - (1 - p) * friction_per_genuine(claims, params)
    allowed = np.ones(p.size, dtype=bool)
    if recipe.exclude_tpa:
        allowed &= claims["handled_by"] != params["tpa_handler"]
    ids = claims["claim_id"]
    if recipe.objective in ("hit_rate", "alert", "amount"):
        rank = {"hit_rate": p, "alert": claims["alert_score"].astype(float), "amount": amount}
        chosen = greedy(rank[recipe.objective], hours, injury, allowed, params, recipe)
    else:
        worth = net if recipe.objective == "net" else gross
        candidates = np.flatnonzero(allowed & (worth > 0))
        chosen = candidates[select(worth[candidates], hours[candidates], injury[candidates],
                                   params, recipe)]
        chosen = chosen[np.argsort(-worth[chosen], kind="stable")]
    return [str(ids[i]) for i in chosen]


def friction_per_genuine(claims: Table, params: dict) -> np.ndarray:
    """What a genuine claimant referred costs: the flat friction, plus the hire car while a
    total loss (``hire_car_types``) is investigated."""
    hire = np.isin(claims["claim_type"], params["hire_car_types"])
    return params["friction_gbp"] + np.where(hire, params["hire_car_gbp"], 0.0)


def greedy(rank: np.ndarray, hours: np.ndarray, injury: np.ndarray, allowed: np.ndarray,
           params: dict, recipe: Recipe) -> list[int]:
    """Fill the week from the top of a ranking, as a triage desk works down a list."""
    chosen, used, used_injury = [], 0.0, 0.0
    for i in np.argsort(-rank, kind="stable"):
        if not allowed[i]:
            continue
        need = 1.0 if recipe.capacity == "count" else hours[i]
        limit = params["stated_referrals_per_week"] if recipe.capacity == "count" else params["capacity_hours"]
        if used + need > limit + 1e-9:
            continue
        if injury[i] and recipe.injury_cap and used_injury + hours[i] > params["injury_cap_hours"] + 1e-9:
            continue
        chosen.append(int(i))
        used += need
        used_injury += hours[i] if injury[i] else 0.0
    return chosen


def select(worth: np.ndarray, hours: np.ndarray, injury: np.ndarray, params: dict,
           recipe: Recipe) -> np.ndarray:
    """Indices of the best 0/1 selection: a small MILP, exact, solved by HiGHS."""
    if worth.size == 0:
        return np.array([], dtype=int)
    rows, upper = [], []
    if recipe.capacity == "count":
        rows.append(np.ones(worth.size))
        upper.append(params["stated_referrals_per_week"])
    else:
        rows.append(hours)
        upper.append(params["capacity_hours"])
    if recipe.injury_cap:
        rows.append(np.where(injury, hours, 0.0))
        upper.append(params["injury_cap_hours"])
    result = milp(
        c=-worth,
        constraints=LinearConstraint(np.vstack(rows), -np.inf, np.array(upper, dtype=float)),
        integrality=np.ones(worth.size),
        bounds=Bounds(0, 1),
        options={"mip_rel_gap": 0.0, "presolve": True},
    )
    assert result.success, result.message
    return np.flatnonzero(result.x > 0.5)


def write_list(path: Path, ids: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(("claim_id",))
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
        write_list(hidden / "counterfactuals" / f"{args.ignore}.csv",
                   build(root, params, COUNTERFACTUALS[args.ignore]))
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
