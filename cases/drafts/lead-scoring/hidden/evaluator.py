"""Evaluator of the lead-scoring case: what June's call list is worth to sales.

Order of checks, as sales operations would run them before handing the list out:

1. Fatal: a lead id that is not in ``data/lead_queue.csv`` or that appears twice (the schema
   catches most of this; the evaluator repeats it so it never scores a list it cannot read).
2. Constraints (each a target of ``gt.json``):
   - ``existing_customers_excluded``: a lead whose company already pays for Fieldline
     (``account_status = active_customer``) belongs to account management, not to new sales;
   - ``territory_capacity``: a lead can only be worked by an AE of its own territory, and each
     AE takes ``leads_per_ae`` new leads a month, so each territory takes at most its listed
     AEs times that;
   - ``roster_change``: ``moved_ae`` left new business on 1 June, so ``moved_territory`` has
     one AE fewer than ``sales_team.csv`` lists (its count over the real capacity but within
     the listed one is this rule, not the one above).
3. Value: the expected closed-won first-year ACV (USD) of the list within the sales window,
   from the hidden truth (``truth/queue_truth.csv``): for each *company* with at least one lead
   on the list, P(closed won within ``win_window_days``) x ``acv_usd`` of its plan. A company
   is one deal however many of its contacts are on the list (``one_deal_per_company``: the
   extra leads take capacity and add nothing). The empty list is worth 0.

Order in the file is the calling order; it does not change the value (the whole list is
worked within the month).
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path

from evaluators.api import Assessment, Submission, ViolationCollector


def evaluate(submission: Submission, data_dir: Path, hidden_dir: Path) -> Assessment:
    params = json.loads((hidden_dir / "params.json").read_text(encoding="utf-8"))
    leads = _read_rows(data_dir / "lead_queue.csv", "lead_id")
    truth = _read_rows(hidden_dir / "truth" / "queue_truth.csv", "lead_id")
    listed = Counter(row["territory"] for row in _read_list(data_dir / "sales_team.csv"))

    ids = [str(row.get("lead_id", "")).strip() for row in submission.rows]
    fatal = _list_problem(ids, leads)
    if fatal:
        return Assessment(fatal=fatal)

    collector = ViolationCollector()
    per_territory: Counter[str] = Counter()
    for index, lead_id in enumerate(ids):
        lead = leads[lead_id]
        per_territory[lead["territory"]] += 1
        if lead["account_status"] == "active_customer":
            collector.add(
                "existing_customers_excluded",
                "The list hands new-business AEs leads from companies that are already our "
                "customers; those belong to their account manager.",
                {"line": Submission.line_of(index), "lead_id": lead_id,
                 "company_domain": lead["company_domain"]},
            )
    cap = params["leads_per_ae"]
    for territory, count in sorted(per_territory.items()):
        aes = listed.get(territory, 0)
        real = aes - (1 if territory == params["moved_territory"] else 0)
        if count > aes * cap:
            collector.add(
                "territory_capacity",
                f"{territory} gets {count} leads, more than its {aes} AEs can take in a month "
                f"({aes * cap}); leads cannot be worked outside their own territory.",
                {"territory": territory, "leads": count, "capacity": aes * cap},
            )
        elif count > real * cap:
            collector.add(
                "roster_change",
                f"{territory} gets {count} leads, more than the AEs actually working new "
                f"business there in June can take ({real * cap}).",
                {"territory": territory, "leads": count, "capacity": real * cap},
            )
    if collector:
        return Assessment(violations=collector.violations())

    deals: dict[str, float] = {}
    for lead_id in ids:
        lead = leads[lead_id]
        deals[lead["company_domain"]] = (
            float(truth[lead_id]["p_won_in_window"]) * params["acv_usd"][lead["plan_interest"]]
        )
    value = sum(deals.values())
    return Assessment(
        value=value,
        details={
            "leads": len(ids),
            "companies": len(deals),
            "leads_per_territory": dict(sorted(per_territory.items())),
            "expected_closed_won_usd": round(value, 2),
        },
    )


def _read_list(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def _read_rows(path: Path, key: str) -> dict[str, dict[str, str]]:
    return {row[key]: row for row in _read_list(path)}


def _list_problem(ids: list[str], leads: dict[str, dict[str, str]]) -> str | None:
    unknown = sorted({i for i in ids if i not in leads})
    if unknown:
        return (
            f"{len(unknown)} id(s) in the list are not leads in data/lead_queue.csv "
            f"(e.g. {', '.join(unknown[:3])}). We can only hand out leads from the queue."
        )
    repeated = sorted(i for i, n in Counter(ids).items() if n > 1)
    if repeated:
        return (
            f"{len(repeated)} lead(s) appear more than once (e.g. {', '.join(repeated[:3])}). "
            "Each lead goes to one AE once."
        )
    return None
