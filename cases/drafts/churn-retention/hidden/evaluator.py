"""Evaluator of the churn-retention case: what this month's retention list is worth.

Order of checks, as the retention team, compliance and finance would run them:

1. Fatal: an id that is not a customer of ``data/customers.csv`` or that appears twice (the
   schema catches most of this; the evaluator repeats it so it never scores a list it cannot
   read).
2. Constraints (each a target of ``gt.json``):
   - ``in_contract_ineligible``: billing can only put the discount on a line whose minimum
     term ends within the window (``contract_window_months`` from the offer date);
   - ``suppression_applies``: nobody on ``data/contact_suppressions.csv`` may be offered;
   - ``budget_full_commitment``: the full committed discount of every offer (``discount_pct``
     of the monthly fee for ``discount_months``) must fit ``budget_eur``.
3. Value: the expected incremental margin of the list against offering nothing, from the
   hidden potential outcomes (``truth/potential_outcomes.csv``): for each offered customer,
   (P(port-out, no offer) - P(port-out, offer)) x ``value_months`` x plan margin, minus the
   discount paid if they stay, (1 - P(port-out, offer)) x committed discount. The empty list
   is worth 0 (the uplift baseline); a list full of sleeping dogs and sure things is negative.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from evaluators.api import Assessment, Submission, ViolationCollector


def evaluate(submission: Submission, data_dir: Path, hidden_dir: Path) -> Assessment:
    params = json.loads((hidden_dir / "params.json").read_text(encoding="utf-8"))
    customers = _read_rows(data_dir / "customers.csv")
    truth = _read_rows(hidden_dir / "truth" / "potential_outcomes.csv")
    suppressed = _read_rows(data_dir / "contact_suppressions.csv")

    ids = [str(row.get("customer_id", "")).strip() for row in submission.rows]
    fatal = _list_problem(ids, customers)
    if fatal:
        return Assessment(fatal=fatal)

    collector = ViolationCollector()
    last_day = _window_end(date.fromisoformat(params["offer_date"]), params["contract_window_months"])
    rate = params["discount_pct"] / 100.0 * params["discount_months"]
    committed = 0.0
    for index, customer_id in enumerate(ids):
        customer = customers[customer_id]
        line = Submission.line_of(index)
        if date.fromisoformat(customer["contract_end_date"]) > last_day:
            collector.add(
                "in_contract_ineligible",
                "The list offers the discount to lines that are still well inside their "
                "minimum term; billing cannot apply a retention discount to them.",
                {"line": line, "customer_id": customer_id,
                 "contract_end_date": customer["contract_end_date"]},
            )
        if customer_id in suppressed:
            collector.add(
                "suppression_applies",
                "The list offers the discount to customers we are not allowed to contact "
                "with offers.",
                {"line": line, "customer_id": customer_id,
                 "reason": suppressed[customer_id]["reason"]},
            )
        committed += rate * float(customer["monthly_fee_eur"])
    if committed > params["budget_eur"] + 0.005:
        collector.add(
            "budget_full_commitment",
            f"The offers commit EUR {committed:,.2f} of discount, more than this month's "
            f"retention budget of EUR {params['budget_eur']:,.0f}.",
            {"offers": len(ids), "committed_eur": round(committed, 2)},
        )
    if collector:
        return Assessment(violations=collector.violations())

    value, kept, discount = 0.0, 0.0, 0.0
    for customer_id in ids:
        fee = float(customers[customer_id]["monthly_fee_eur"])
        margin = params["plan_margin_eur"][customers[customer_id]["plan_code"]]
        p0 = float(truth[customer_id]["p_port_out_without_offer"])
        p1 = float(truth[customer_id]["p_port_out_with_offer"])
        kept += p0 - p1
        discount += (1 - p1) * rate * fee
        value += (p0 - p1) * params["value_months"] * margin - (1 - p1) * rate * fee
    return Assessment(
        value=value,
        details={
            "offers": len(ids),
            "committed_discount_eur": round(committed, 2),
            "expected_port_outs_prevented": round(kept, 2),
            "expected_discount_paid_eur": round(discount, 2),
        },
    )


def _read_rows(path: Path) -> dict[str, dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return {row["customer_id"]: row for row in csv.DictReader(handle)}


def _window_end(start: date, months: int) -> date:
    """Last day of the ``months``-th calendar month counted from ``start``'s month."""
    year, month = start.year, start.month + months
    year += (month - 1) // 12
    month = (month - 1) % 12 + 1
    return date(year, month, 1) - timedelta(days=1)


def _list_problem(ids: list[str], customers: dict[str, Any]) -> str | None:
    unknown = sorted({i for i in ids if i not in customers})
    if unknown:
        return (
            f"{len(unknown)} id(s) in the list are not customers in data/customers.csv "
            f"(e.g. {', '.join(unknown[:3])}). We can only send offers to this month's base."
        )
    repeated = sorted(i for i, n in Counter(ids).items() if n > 1)
    if repeated:
        return (
            f"{len(repeated)} customer(s) appear more than once (e.g. {', '.join(repeated[:3])}). "
            "Each customer gets at most one offer."
        )
    return None
