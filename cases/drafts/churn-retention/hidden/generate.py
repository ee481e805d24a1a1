"""Rebuild the churn-retention case data from a fixed seed (numpy and the standard library only).

``python hidden/generate.py [--params P] [--out ROOT]`` writes ``ROOT/data/`` (the player's
files) and ``ROOT/hidden/truth/potential_outcomes.csv`` (the evaluator's) from the parameters
in ``P``. Without arguments it rebuilds the base variant in place, byte for byte.

The synthetic operator is shaped so that every hidden rule in ``information.md`` bites:

- The offer's effect differs from the churn risk (uplift). Four kinds of customer are built
  in: *persuadables* (metro customers with recent care calls and decent coverage, whom the
  offer keeps), *lost causes* (coverage black spots: they leave offer or not), *sleeping dogs*
  (long out of contract, quiet, no app use: a call reminds them to shop around and more of
  them leave) and *sure things* (low risk, the discount is money given away). The vendor
  ``churn_score`` ranks lost causes and sleeping dogs high;
  it is built from usage and care feeds and knows nothing of contracts.
- The past campaign (autumn 2024) is a randomised test: half offered, half held back. Its
  ``churn_flag`` follows the BI definition (port-out *or* downgrade); low users on unlimited
  plans downgrade a lot, and the offer stops most of those downgrades, so an uplift model on
  ``churn_flag`` credits the offer with saves that are worth nothing to retention.
- The campaign only reached lines near or past the end of their minimum term (the window of
  the time); this month's base also holds lines deep in contract, which cannot port out
  without paying off the term: the offer does nothing for them and billing refuses it.
- About ``suppression_share`` of the base is on the contact-suppression list, spread over
  the customer kinds (so a good model wants some of them).
- Plans differ in margin more than in fee (Unlimited is cheap to sell and dear to serve).

The truth is the expected outcome under both arms (no sampling noise), so the evaluator's
value is the expected incremental margin of a list, not the luck of one draw.
"""

from __future__ import annotations

import argparse
import csv
import json
from datetime import date, timedelta
from pathlib import Path

import numpy as np

CASE_DIR = Path(__file__).resolve().parent.parent
BASE_PARAMS = CASE_DIR / "hidden" / "params.json"

PLANS = (  # code, name, monthly fee EUR, data allowance (GB, 0 = unlimited), share
    ("LUMO10", "Lumo 10GB", 15.0, 10, 0.24),
    ("LUMO50", "Lumo 50GB", 25.0, 50, 0.34),
    ("UNL", "Lumo Unlimited", 35.0, 0, 0.28),
    ("UNLMAX", "Lumo Unlimited Max", 45.0, 0, 0.14),
)
REGIONS = ("Dublin", "Cork", "Galway", "Limerick", "Rest of Ireland")
REGION_SHARES = (0.34, 0.14, 0.09, 0.08, 0.35)
COMPETITOR_REGIONS = ("Dublin", "Cork")  # a low-cost rival launched there
PAYMENT = ("direct_debit", "card", "bill_pay")
PAYMENT_SHARES = (0.72, 0.18, 0.10)
SUPPRESSION_REASONS = ("marketing_opt_out", "national_do_not_call", "bereavement", "complaint_open")
SUPPRESSION_REASON_SHARES = (0.55, 0.30, 0.05, 0.10)

FEATURES = (
    "plan_code",
    "monthly_fee_eur",
    "tenure_months",
    "contract_end_date",
    "data_used_gb",
    "care_calls_90d",
    "dropped_call_pct",
    "app_logins_30d",
    "handset_age_months",
    "payment_method",
    "region",
    "churn_score",
)


def load_params(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def window_end(start: date, months: int) -> date:
    """Last day of the ``months``-th calendar month counted from ``start``'s month."""
    year, month = start.year, start.month + months
    year += (month - 1) // 12
    month = (month - 1) % 12 + 1
    return date(year, month, 1) - timedelta(days=1)


def draw_customers(rng: np.random.Generator, n: int, offer_date: date, last_end: date | None):
    """Customer features at ``offer_date``; ``last_end`` caps the contract end (the campaign)."""
    plan_index = rng.choice(len(PLANS), size=n, p=[p[4] for p in PLANS])
    tenure = np.clip(np.round(rng.gamma(2.2, 16.0, n)), 1, 160).astype(int)
    # Days from the offer date to the end of the minimum term (negative: already out of it).
    in_contract = rng.random(n) < 0.42
    days_in = rng.integers(1, 700, n)
    days_out = 61 - np.round(rng.exponential(420.0, n)).astype(int)
    days_to_end = np.where(in_contract, days_in, days_out)
    if last_end is not None:  # the campaign reached only lines ending by last_end
        days_to_end = np.minimum(days_out, (last_end - offer_date).days)
    # A line cannot be out of contract longer than it has been a customer (24-month terms).
    days_to_end = np.maximum(days_to_end, -30 * np.maximum(tenure - 24, 0) - 30)
    allowance = np.array([PLANS[i][3] for i in plan_index])
    unlimited = allowance == 0
    low_user = unlimited & (rng.random(n) < 0.45)
    used = np.where(
        unlimited,
        np.where(low_user, rng.uniform(2, 11, n), rng.uniform(25, 140, n)),
        allowance * rng.beta(4, 2.5, n),
    )
    care = np.minimum(rng.poisson(0.7, n), 7)
    black_spot = rng.random(n) < 0.11
    dropped = np.where(black_spot, rng.uniform(2.6, 6.5, n), rng.gamma(2.0, 0.4, n))
    dropped = np.minimum(dropped, 2.45 + 4.0 * black_spot)
    dormant = rng.random(n) < 0.28
    logins = np.where(dormant, rng.integers(0, 2, n), rng.poisson(9, n) + 2)
    handset = rng.integers(0, 61, n)
    payment = rng.choice(PAYMENT, size=n, p=PAYMENT_SHARES)
    region = rng.choice(REGIONS, size=n, p=REGION_SHARES)
    return {
        "plan_index": plan_index,
        "plan_code": np.array([PLANS[i][0] for i in plan_index]),
        "monthly_fee_eur": np.array([PLANS[i][2] for i in plan_index]),
        "tenure_months": tenure,
        "days_to_end": days_to_end,
        "contract_end_date": np.array(
            [(offer_date + timedelta(days=int(d))).isoformat() for d in days_to_end]
        ),
        "data_used_gb": np.round(used, 1),
        "low_user": low_user,
        "care_calls_90d": care,
        "dropped_call_pct": np.round(dropped, 2),
        "app_logins_30d": logins,
        "handset_age_months": handset,
        "payment_method": payment,
        "region": region,
    }


def port_out_logits(c: dict, locked: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Log-odds of porting out within 90 days without the offer, and with it."""
    days = c["days_to_end"]
    metro = np.isin(c["region"], COMPETITOR_REGIONS)
    care = np.minimum(c["care_calls_90d"], 4)
    black_spot = c["dropped_call_pct"] >= 2.5
    quiet = (c["app_logins_30d"] <= 1) & (c["care_calls_90d"] == 0)
    long_out = days < -540
    base = (
        -2.2
        + 0.45 * care
        + 0.45 * metro
        + 1.6 * black_spot
        + 0.35 * (days <= 0)
        + 0.5 * long_out
        - 0.004 * c["tenure_months"]
        + 0.004 * c["handset_age_months"]
    )
    effect = np.where(days > -180, -0.3, -0.1)
    persuadable = metro & (c["care_calls_90d"] >= 1) & ~black_spot
    effect = np.where(persuadable, -2.0, effect)
    sleeping_dog = long_out & quiet & ~black_spot
    effect = np.where(sleeping_dog, 1.1, effect)
    effect = np.where(black_spot, 0.05, effect)
    base = np.where(locked, -4.8, base)
    effect = np.where(locked, 0.0, effect)
    return base, base + effect


def downgrade_logits(c: dict) -> tuple[np.ndarray, np.ndarray]:
    """Log-odds of a downgrade (customer stays, cheaper plan) without and with the offer."""
    base = np.where(c["low_user"], -0.5, -3.6)
    effect = np.where(c["low_user"], -2.2, -0.2)
    return base, base + effect


def churn_score(rng: np.random.Generator, port0: np.ndarray, down0: np.ndarray) -> np.ndarray:
    """The vendor's propensity score: fitted on BI churn (port-outs and downgrades), noisy."""
    p = 1 / (1 + np.exp(-port0)) + 1 / (1 + np.exp(-down0))
    z = np.log(p / (1.0001 - np.minimum(p, 0.9999))) + rng.normal(0, 0.45, p.size)
    return np.round(1 / (1 + np.exp(-z)), 3)


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


def write_csv(path: Path, header: tuple[str, ...], rows) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def feature_row(c: dict, i: int) -> list:
    return [
        c["plan_code"][i],
        f"{c['monthly_fee_eur'][i]:.2f}",
        int(c["tenure_months"][i]),
        c["contract_end_date"][i],
        f"{c['data_used_gb'][i]:.1f}",
        int(c["care_calls_90d"][i]),
        f"{c['dropped_call_pct'][i]:.2f}",
        int(c["app_logins_30d"][i]),
        int(c["handset_age_months"][i]),
        c["payment_method"][i],
        c["region"][i],
        f"{c['churn_score'][i]:.3f}",
    ]


def generate(params: dict, root: Path) -> None:
    rng = np.random.default_rng(params["seed"])
    data, truth = root / "data", root / "hidden" / "truth"

    # The autumn test: lines within the window of the time, randomised half and half.
    camp_date = date.fromisoformat(params["campaign_offer_date"])
    camp_end = window_end(camp_date, params["campaign_window_months"])
    n_c = params["campaign_customers"]
    camp = draw_customers(rng, n_c, camp_date, camp_end)
    p0, p1 = port_out_logits(camp, np.zeros(n_c, dtype=bool))
    d0, d1 = downgrade_logits(camp)
    camp["churn_score"] = churn_score(rng, p0, d0)
    offered = rng.permutation(np.arange(n_c) < n_c // 2)
    u_port, u_down = rng.random(n_c), rng.random(n_c)
    ported = u_port < sigmoid(np.where(offered, p1, p0))
    downgraded = ~ported & (u_down < sigmoid(np.where(offered, d1, d0)))
    outcome = np.where(ported, "ported_out", np.where(downgraded, "downgraded", "active"))
    write_csv(
        data / "campaign_2024q4.csv",
        ("customer_id", *FEATURES, "group", "outcome_90d", "churn_flag"),
        (
            [f"T{i + 1:05d}", *feature_row(camp, i), "offer" if offered[i] else "control",
             outcome[i], int(outcome[i] != "active")]
            for i in range(n_c)
        ),
    )

    # This month's base: every line, deep in contract or not.
    offer_date = date.fromisoformat(params["offer_date"])
    n_b = params["base_customers"]
    base = draw_customers(rng, n_b, offer_date, None)
    locked = base["days_to_end"] > (window_end(offer_date, params["contract_window_months"]) - offer_date).days
    q0, q1 = port_out_logits(base, locked)
    e0, _ = downgrade_logits(base)
    # The vendor sees usage and care feeds, not billing's contract dates.
    unlocked0, _ = port_out_logits(base, np.zeros(n_b, dtype=bool))
    base["churn_score"] = churn_score(rng, unlocked0, e0)
    ids = [f"C{i + 1:05d}" for i in range(n_b)]
    write_csv(
        data / "customers.csv",
        ("customer_id", *FEATURES),
        ([ids[i], *feature_row(base, i)] for i in range(n_b)),
    )
    write_csv(
        truth / "potential_outcomes.csv",
        ("customer_id", "p_port_out_without_offer", "p_port_out_with_offer"),
        ([ids[i], f"{sigmoid(q0[i]):.6f}", f"{sigmoid(q1[i]):.6f}"] for i in range(n_b)),
    )

    suppressed = np.flatnonzero(rng.random(n_b) < params["suppression_share"])
    reasons = rng.choice(SUPPRESSION_REASONS, size=suppressed.size, p=SUPPRESSION_REASON_SHARES)
    added = rng.integers(30, 2000, suppressed.size)
    write_csv(
        data / "contact_suppressions.csv",
        ("customer_id", "reason", "added_on"),
        (
            [ids[i], reasons[k], (offer_date - timedelta(days=int(added[k]))).isoformat()]
            for k, i in enumerate(suppressed)
        ),
    )
    write_csv(
        data / "plans.csv",
        ("plan_code", "plan_name", "monthly_fee_eur", "data_allowance_gb"),
        ([p[0], p[1], f"{p[2]:.2f}", p[3] if p[3] else "unlimited"] for p in PLANS),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--params", type=Path, default=BASE_PARAMS)
    parser.add_argument("--out", type=Path, default=CASE_DIR)
    args = parser.parse_args()
    generate(load_params(args.params), args.out)


if __name__ == "__main__":
    main()
