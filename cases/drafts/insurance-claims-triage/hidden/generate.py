"""Rebuild the insurance-claims-triage data from a fixed seed (numpy and the standard library only).

``python hidden/generate.py [--params P] [--out ROOT]`` writes ``ROOT/data/`` (the player's
files) and ``ROOT/hidden/truth/fraud_probability.csv`` (the evaluator's) from the parameters in
``P``. Without arguments it rebuilds the base variant in place, byte for byte.

The synthetic motor book is shaped so that every hidden rule in ``information.md`` bites:

- Fraud is likelier on some claims than others (young policies, late notification, no police
  reference, prior claims, aggregator business, the Northgate young-driver scheme, injury
  claims with many claimants, windscreen claims through the customer's own glazier). The
  likeliest frauds are not the costliest: a windscreen ring claims a few hundred pounds, a
  staged theft a car's value. So a list by fraud probability (the SIU's hit rate) fills the
  hours with claims that cost more to investigate than they could save.
- The history's ``fraud_flag`` was widened by MI on ``flag_widened_on`` to count claims the
  customer *withdrew*. Most withdrawals are genuine: stolen cars with a tracker that the police
  recover, and small bumps that careful drivers pay themselves to keep their no-claims
  discount. A model of ``fraud_flag`` sees tracked thefts as fraud.
- Injury claims are the most valuable to investigate (large, often organised); a model that
  knows nothing of the one accredited injury investigator wants many of them.
- Northgate's young-driver scheme carries the most fraud, and none of it is ours to refer.
- Investigations take very different hours by claim type, so 25 claims of the kinds worth
  investigating need far more than the unit's hours.

The truth is each open claim's probability of being fraudulent (no sampling noise), so the
evaluator's value is the expected net saving of a referral list, not the luck of one draw.
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

TYPES = ("collision", "glass", "theft", "fire", "injury", "vandalism", "storm")
TYPE_SHARES = (0.40, 0.17, 0.11, 0.03, 0.11, 0.10, 0.08)
BASE_LOGIT = {"collision": -3.6, "glass": -4.2, "theft": -2.9, "fire": -2.5, "injury": -3.0,
              "vandalism": -3.3, "storm": -3.6}
CHANNELS = ("direct", "aggregator", "broker")
CHANNEL_SHARES = (0.38, 0.44, 0.18)
HOUSE = "Harbour Claims"

COLUMNS = (
    "claim_id", "notified_date", "incident_date", "claim_type", "claimed_amount_gbp",
    "vehicle_value_gbp", "vehicle_age_years", "policy_start_date", "ncd_years",
    "prior_claims_3y", "sales_channel", "handled_by", "repairer", "tracker_fitted",
    "police_reference", "third_parties", "injured_persons", "alert_score",
)


def load_params(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def draw_claims(rng: np.random.Generator, n: int, start: date, end: date, params: dict) -> dict:
    """Claims notified between ``start`` and ``end``, with their fraud logit and flags."""
    span = (end - start).days + 1
    notified = np.array([start + timedelta(days=int(d)) for d in rng.integers(0, span, n)])
    kind = rng.choice(TYPES, size=n, p=TYPE_SHARES)
    tpa = rng.random(n) < params["tpa_share"]
    channel = rng.choice(CHANNELS, size=n, p=CHANNEL_SHARES)
    channel[tpa] = "broker"  # the scheme is sold through its broker
    vehicle_age = np.clip(rng.gamma(2.2, 3.0, n), 0, 20).round().astype(int)
    value = np.exp(rng.normal(9.75, 0.55, n)) * np.exp(-0.07 * vehicle_age)
    value = np.clip(value, 900, 95000).round(-1)
    policy_age = np.where(rng.random(n) < 0.13, rng.integers(1, 60, n), rng.integers(60, 3000, n))
    young = tpa | (rng.random(n) < 0.1)
    ncd = np.where(young, rng.integers(0, 3, n), rng.integers(0, 10, n))
    prior = rng.poisson(np.where(young, 0.7, 0.35))
    delay = np.where(rng.random(n) < 0.78, rng.integers(0, 4, n), rng.integers(4, 40, n))
    is_ = {t: kind == t for t in TYPES}
    property_loss = is_["theft"] | is_["fire"] | is_["vandalism"]
    police = np.where(property_loss, (rng.random(n) < 0.82).astype(int), 0)
    tracker = ((rng.random(n) < 0.18 + 0.000004 * value) & ~is_["glass"]).astype(int)
    third = np.where(is_["collision"] | is_["injury"], rng.choice([0, 1, 2, 3], n, p=[0.3, 0.5, 0.15, 0.05]), 0)
    third[is_["injury"]] = np.maximum(third[is_["injury"]], 1)
    injured = np.where(is_["injury"], rng.choice([1, 2, 3, 4], n, p=[0.5, 0.28, 0.14, 0.08]), 0)
    repairer = np.where(is_["glass"] | is_["collision"] | is_["vandalism"] | is_["storm"],
                        np.where(rng.random(n) < 0.7, "network", "customer_choice"), "none")

    logit = np.array([BASE_LOGIT[t] for t in kind], dtype=float)
    logit += np.where(policy_age < 60, 1.1, 0.0) + np.where(policy_age < 20, 0.6, 0.0)
    logit += np.where(delay > 7, 0.4 + 0.03 * np.minimum(delay, 40), 0.0)
    logit += 0.35 * np.minimum(prior, 4) - 0.10 * ncd
    logit += np.where(channel == "aggregator", 0.35, 0.0) + np.where(tpa, 1.0, 0.0)
    logit += np.where(property_loss & (police == 0), 1.1, 0.0)
    logit += np.where(is_["theft"] & (tracker == 1), -0.9, 0.0)
    logit += np.where(is_["fire"] & (vehicle_age > 10), 0.8, 0.0)
    logit += np.where(is_["injury"], 0.45 * (injured - 1) + 0.3 * (third - 1), 0.0)
    staged = is_["collision"] & (third >= 2) & (channel == "aggregator")
    logit += np.where(staged, 2.0, 0.0)
    logit += np.where(is_["glass"] & (repairer == "customer_choice"), 3.4, 0.0)
    logit += np.where(is_["vandalism"] & (policy_age < 90), 1.0, 0.0)
    logit += rng.normal(0, 0.35, n)
    p = sigmoid(logit)

    amount = np.zeros(n)
    amount[is_["collision"]] = np.exp(rng.normal(7.7, 0.7, is_["collision"].sum())) * np.where(staged[is_["collision"]], 2.2, 1.0)
    amount[is_["glass"]] = rng.uniform(120, 700, is_["glass"].sum())
    amount[is_["theft"]] = value[is_["theft"]] * rng.uniform(0.9, 1.08, is_["theft"].sum())
    amount[is_["fire"]] = value[is_["fire"]] * rng.uniform(0.7, 1.0, is_["fire"].sum())
    amount[is_["injury"]] = (np.exp(rng.normal(8.4, 0.5, is_["injury"].sum()))
                             * (1 + 0.6 * (injured[is_["injury"]] - 1)))
    amount[is_["vandalism"]] = np.exp(rng.normal(6.8, 0.6, is_["vandalism"].sum()))
    amount[is_["storm"]] = np.exp(rng.normal(7.4, 0.6, is_["storm"].sum()))
    capped = ~is_["injury"]
    amount[capped] = np.minimum(amount[capped], value[capped] * 1.1)
    amount = np.maximum(amount, 80).round(2)

    # The rules engine counts red flags: it never looks at the money.
    alert = (22 * (policy_age < 60) + 12 * (delay > 7) + 15 * (property_loss & (police == 0))
             + 8 * np.minimum(prior, 3) + 6 * (channel == "aggregator")
             + 20 * (is_["glass"] & (repairer == "customer_choice")) + 10 * (injured >= 3)
             + 8 * (ncd == 0) + rng.integers(0, 15, n))
    incident = notified - np.array([timedelta(days=int(d)) for d in delay])
    start_date = incident - np.array([timedelta(days=int(d)) for d in policy_age])
    return {
        "notified": notified, "incident": incident, "kind": kind, "amount": amount,
        "value": value, "vehicle_age": vehicle_age, "start": start_date, "ncd": ncd,
        "prior": prior, "channel": channel, "handler": np.where(tpa, params["tpa_handler"], HOUSE),
        "repairer": repairer, "tracker": tracker, "police": police, "third": third,
        "injured": injured, "alert": np.minimum(alert, 99), "p": p, "is": is_,
    }


def row(c: dict, i: int, claim_id: str) -> list:
    return [
        claim_id, c["notified"][i].isoformat(), c["incident"][i].isoformat(), c["kind"][i],
        f"{c['amount'][i]:.2f}", f"{c['value'][i]:.0f}", int(c["vehicle_age"][i]),
        c["start"][i].isoformat(), int(c["ncd"][i]), int(c["prior"][i]), c["channel"][i],
        c["handler"][i], c["repairer"][i], int(c["tracker"][i]), int(c["police"][i]),
        int(c["third"][i]), int(c["injured"][i]), int(c["alert"][i]),
    ]


def write_csv(path: Path, header: tuple, rows) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def closures(rng: np.random.Generator, c: dict) -> tuple[np.ndarray, np.ndarray]:
    """How each historic claim closed, and the day it closed.

    A fraudulent claim is repudiated (SIU or the handler found it). A genuine one is paid,
    declined for want of cover now and then, or withdrawn: stolen cars with a tracker are
    mostly recovered, and small bumps are often withdrawn by drivers keeping their NCD.
    """
    n = c["p"].size
    fraud = rng.random(n) < c["p"]
    is_ = c["is"]
    withdraw = np.full(n, 0.03)
    withdraw[is_["theft"] & (c["tracker"] == 1)] = 0.62
    withdraw[is_["theft"] & (c["tracker"] == 0)] = 0.10
    small_bump = (is_["collision"] | is_["vandalism"]) & (c["amount"] < 1500) & (c["ncd"] >= 4)
    withdraw[small_bump] = 0.35
    u = rng.random(n)
    reason = np.where(fraud, "repudiated_fraud",
                      np.where(u < withdraw, "withdrawn",
                               np.where(u < withdraw + 0.04, "declined_cover", "paid")))
    days = np.where(reason == "withdrawn", rng.integers(5, 40, n),
                    np.where(fraud, rng.integers(40, 200, n), rng.integers(10, 120, n)))
    closed = c["notified"] + np.array([timedelta(days=int(d)) for d in days])
    return reason, closed


def generate(params: dict, out: Path) -> None:
    rng = np.random.default_rng(params["seed"])
    data, truth = out / "data", out / "hidden" / "truth"
    data.mkdir(parents=True, exist_ok=True)
    truth.mkdir(parents=True, exist_ok=True)

    hist_end = date.fromisoformat(params["history_to"])
    hist = draw_claims(rng, params["history_claims"], date.fromisoformat(params["history_from"]),
                       hist_end - timedelta(days=200), params)
    reason, closed = closures(rng, hist)
    widened = date.fromisoformat(params["flag_widened_on"])
    flag = [int(r == "repudiated_fraud" or (r == "withdrawn" and d >= widened))
            for r, d in zip(reason, closed, strict=True)]
    order = np.argsort([d.toordinal() for d in hist["notified"]], kind="stable")
    write_csv(
        data / "claims_history.csv",
        (*COLUMNS, "closed_date", "closure_reason", "fraud_flag"),
        ([*row(hist, i, f"H{k + 1:06d}"), closed[i].isoformat(), reason[i], flag[i]]
         for k, i in enumerate(order)),
    )

    open_ = draw_claims(rng, params["open_claims"], date.fromisoformat(params["notified_from"]),
                        date.fromisoformat(params["notified_to"]), params)
    order = np.argsort([d.toordinal() for d in open_["notified"]], kind="stable")
    ids = [f"M{250000 + k + 1:06d}" for k in range(order.size)]
    write_csv(data / "claims_open.csv", COLUMNS, (row(open_, i, ids[k]) for k, i in enumerate(order)))
    write_csv(
        truth / "fraud_probability.csv",
        ("claim_id", "p_fraud"),
        ([ids[k], f"{open_['p'][i]:.6f}"] for k, i in enumerate(order)),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--params", type=Path, default=BASE_PARAMS)
    parser.add_argument("--out", type=Path, default=CASE_DIR)
    args = parser.parse_args()
    generate(load_params(args.params), args.out)


if __name__ == "__main__":
    main()
