"""Evaluator of the insurance-claims-triage case: what a week's SIU referral list is worth.

Order of checks, as the claims team, the SIU and the scheme partners would run them:

1. Fatal: a claim id that is not a claim of ``data/claims_open.csv`` or that appears twice
   (the schema catches most of this; the evaluator repeats it so it never scores a list it
   cannot read).
2. Constraints (each a target of ``gt.json``):
   - ``tpa_not_referable``: claims handled by the delegated-authority administrator
     (``tpa_handler``) are not ours to refer;
   - ``capacity_in_hours``: the investigation hours of the list (``hours_per_claim`` by claim
     type) must fit the unit's ``capacity_hours`` this week;
   - ``injury_cap``: the injury referrals' hours must fit ``injury_cap_hours`` (one
     accredited investigator).
3. Value: the expected net saving of the list against referring nothing, with each claim's
   true probability of fraud (``truth/fraud_probability.csv``): a fraudulent referred claim
   is repudiated and its claimed amount saved; every referral costs its investigator hours at
   ``cost_per_hour_gbp``; a genuine claimant referred costs ``friction_gbp`` (delay, complaint,
   lapse), and ``hire_car_gbp`` more for a claim type in ``hire_car_types`` (a theft or fire
   customer is on a hire car while SIU investigates). The empty list is worth 0.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path

from evaluators.api import Assessment, Submission, ViolationCollector


def evaluate(submission: Submission, data_dir: Path, hidden_dir: Path) -> Assessment:
    params = json.loads((hidden_dir / "params.json").read_text(encoding="utf-8"))
    claims = _read_rows(data_dir / "claims_open.csv")
    truth = _read_rows(hidden_dir / "truth" / "fraud_probability.csv")

    ids = [str(row.get("claim_id", "")).strip().upper() for row in submission.rows]
    fatal = _list_problem(ids, claims)
    if fatal:
        return Assessment(fatal=fatal)

    hours_of = params["hours_per_claim"]
    collector = ViolationCollector()
    hours = injury_hours = 0.0
    for index, claim_id in enumerate(ids):
        claim = claims[claim_id]
        if claim["handled_by"] == params["tpa_handler"]:
            collector.add(
                "tpa_not_referable",
                "The list refers claims that another organisation handles for us; our "
                "investigators cannot take those on.",
                {"line": Submission.line_of(index), "claim_id": claim_id,
                 "handled_by": claim["handled_by"]},
            )
        hours += hours_of[claim["claim_type"]]
        if claim["claim_type"] == "injury":
            injury_hours += hours_of["injury"]
    if hours > params["capacity_hours"] + 1e-9:
        collector.add(
            "capacity_in_hours",
            f"The referrals need {hours:g} investigator hours; the unit has "
            f"{params['capacity_hours']:g} hours this week.",
            {"referrals": len(ids), "hours": hours},
        )
    if injury_hours > params["injury_cap_hours"] + 1e-9:
        collector.add(
            "injury_cap",
            f"The injury referrals need {injury_hours:g} hours; only "
            f"{params['injury_cap_hours']:g} hours of injury investigation are available "
            "this week.",
            {"injury_referrals": sum(claims[i]["claim_type"] == "injury" for i in ids),
             "injury_hours": injury_hours},
        )
    if collector:
        return Assessment(violations=collector.violations())

    saved = cost = friction = frauds = 0.0
    for claim_id in ids:
        claim = claims[claim_id]
        p = float(truth[claim_id]["p_fraud"])
        frauds += p
        saved += p * float(claim["claimed_amount_gbp"])
        cost += hours_of[claim["claim_type"]] * params["cost_per_hour_gbp"]
        hire = params["hire_car_gbp"] if claim["claim_type"] in params["hire_car_types"] else 0.0
        friction += (1 - p) * (params["friction_gbp"] + hire)
    return Assessment(
        value=saved - cost - friction,
        details={
            "referrals": len(ids),
            "investigator_hours": hours,
            "expected_frauds_stopped": round(frauds, 2),
            "expected_fraud_saved_gbp": round(saved, 2),
            "investigation_cost_gbp": round(cost, 2),
            "expected_friction_cost_gbp": round(friction, 2),
        },
    )


def _read_rows(path: Path) -> dict[str, dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return {row["claim_id"]: row for row in csv.DictReader(handle)}


def _list_problem(ids: list[str], claims: dict) -> str | None:
    unknown = sorted({i for i in ids if i not in claims})
    if unknown:
        return (
            f"{len(unknown)} id(s) in the list are not claims in data/claims_open.csv "
            f"(e.g. {', '.join(unknown[:3])}). Only this week's open claims can be referred."
        )
    repeated = sorted(i for i, n in Counter(ids).items() if n > 1)
    if repeated:
        return (
            f"{len(repeated)} claim(s) appear more than once (e.g. {', '.join(repeated[:3])}). "
            "A claim is referred once."
        )
    return None
