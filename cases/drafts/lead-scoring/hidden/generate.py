"""Rebuild the lead-scoring case data from a fixed seed (numpy and the standard library only).

``python hidden/generate.py [--params P] [--out ROOT]`` writes ``ROOT/data/`` (the player's
files) and ``ROOT/hidden/truth/queue_truth.csv`` (the evaluator's) from the parameters in
``P``. Without arguments it rebuilds the base variant in place, byte for byte.

The synthetic SaaS vendor (Fieldline, field-service scheduling software) is shaped so that
every hidden rule in ``information.md`` bites:

- A deal is won (at all) with a probability driven by buying intent (demo requests, trials,
  partner referrals, pricing-page visits), the contact's seniority and the company's size; it
  closes after a plan-dependent sales cycle (Starter weeks, Enterprise months), so only part
  of the won deals close inside the ``win_window_days`` sales counts.
- ``converted`` is marketing's funnel flag (a demo booked). Demos are booked by webinar and
  content audiences, dispatchers and small shops: a model of it ranks the wrong leads.
- ``activities_logged`` counts every sales touch logged until the extract, so on old leads it
  records the whole sales cycle (won deals have many); on the queue it is the SDR's first
  touches and says nothing.
- A share of the leads come from companies that already pay for Fieldline (expansion
  interest: they win often); account management owns them.
- Enterprise-interested companies send several leads (a buying committee): one deal each.
- The ACV differs by plan far more than the win rate, and the queue's territories are
  unbalanced (NA-East holds the most valuable leads), so capacity per territory binds.

The truth is each queue company's probability of a closed-won deal inside the window (no
sampling noise), so the evaluator's value is the expected closed-won ACV of a list.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
from datetime import date, timedelta
from pathlib import Path

import numpy as np

CASE_DIR = Path(__file__).resolve().parent.parent

TERRITORIES = ("NA-East", "NA-West", "EMEA", "APAC")
TERRITORY_SHARES = (0.38, 0.22, 0.25, 0.15)
TERRITORY_EFFECT = {"NA-East": 0.15, "NA-West": 0.0, "EMEA": -0.05, "APAC": -0.15}
INDUSTRIES = {  # name: effect on winning
    "hvac": 0.25, "plumbing": 0.15, "electrical": 0.1, "facilities_management": 0.2,
    "pest_control": -0.1, "security_installation": 0.0, "landscaping": -0.3,
    "telecom_field_services": 0.05,
}
SOURCES = ("demo_request", "free_trial", "pricing_page", "webinar", "content_download",
           "partner_referral", "event")
SOURCE_SHARES = (0.13, 0.15, 0.12, 0.19, 0.23, 0.08, 0.10)
SOURCE_WIN = {"demo_request": 1.1, "free_trial": 0.7, "pricing_page": 0.6, "webinar": -0.5,
              "content_download": -1.0, "partner_referral": 1.0, "event": 0.1}
SOURCE_DEMO = {"demo_request": 2.2, "free_trial": -0.9, "pricing_page": 0.1, "webinar": 1.1,
               "content_download": 0.7, "partner_referral": -0.6, "event": 0.6}
ROLES = ("owner_exec", "operations_manager", "dispatcher", "it", "other")
ROLE_SHARES = (0.18, 0.30, 0.20, 0.12, 0.20)
ROLE_WIN = {"owner_exec": 0.7, "operations_manager": 0.4, "dispatcher": -0.3, "it": 0.0,
            "other": -0.6}
ROLE_DEMO = {"owner_exec": -0.5, "operations_manager": 0.2, "dispatcher": 0.7, "it": 0.4,
             "other": 0.0}
PLANS = ("Starter", "Growth", "Enterprise")
PLAN_WIN = {"Starter": 0.2, "Growth": 0.0, "Enterprise": -0.2}
CYCLE_MEDIAN_DAYS = {"Starter": 28, "Growth": 55, "Enterprise": 115}
CYCLE_SIGMA = 0.45
EXTRA_LEADS = {"Starter": 0.08, "Growth": 0.35, "Enterprise": 1.1}  # Poisson mean, extra leads
STATUSES = ("new", "former_customer", "active_customer")
STATUS_WIN = {"new": 0.0, "former_customer": -0.4, "active_customer": 1.3}
WORDS_A = ("bright", "north", "summit", "blue", "iron", "clear", "true", "rapid", "prime",
           "metro", "coastal", "pioneer", "keystone", "evergreen", "redline", "silver",
           "harbor", "granite", "vertex", "allied", "crown", "liberty", "apex", "maple")
WORDS_B = ("air", "flow", "comfort", "pipe", "spark", "guard", "field", "works", "service",
           "climate", "power", "home", "tech", "systems", "pro", "crew", "care", "line")
TLDS = {"NA-East": ".com", "NA-West": ".com", "EMEA": ".co.uk", "APAC": ".com.au"}
AE_NAMES = {
    "NA-East": ["Rachel Kim", "Tom Brennan", "Aisha Patel", "Greg Novak", "Hannah Cole"],
    "NA-West": ["Marcus Lee", "Sofia Alvarez", "Jordan Pike", "Ben Ortiz"],
    "EMEA": ["Claire Dubois", "Oliver Grant", "Katja Weber", "Emma Walsh"],
    "APAC": ["Liam Chen", "Anjali Das", "Nathan Reid"],
}


DICTIONARY = """# Lead data - data dictionary

Maintained by Marketing Operations. Exported from the CRM on 30 May 2025.

## Files

- `leads_history.csv` - inbound leads created from January 2024 to February 2025, with
  where each one ended up.
- `lead_queue.csv` - inbound leads created in May 2025 that no account executive has
  picked up yet.
- `sales_team.csv` - the account executives, from the CRM user list.

## Lead columns (both lead files)

| column | description |
|---|---|
| `lead_id` | Lead reference (`H` + 5 digits in the history, `L` + 5 digits in the queue). |
| `created_date` | Date the lead was created by the web form, event scan or partner portal. |
| `company_domain` | Email domain of the lead's company. |
| `employees` | Company headcount (enrichment provider). |
| `industry` | Company industry (enrichment provider). |
| `territory` | Sales territory of the company's address. |
| `plan_interest` | Plan picked on the form or pricing page: `Starter`, `Growth`, `Enterprise`. |
| `account_status` | CRM match of the company: `new`, `former_customer`, `active_customer`. |
| `lead_source` | How the lead came in. |
| `contact_role` | The contact's role, from the form. |
| `pages_viewed_7d` | Website pages viewed in the 7 days before the lead was created. |
| `emails_opened_30d` | Marketing emails opened in the last 30 days. |
| `trial_days_active` | Days with activity in the free trial (free-trial leads; else 0). |
| `mql_score` | Marketing lead score, 0-100. |
| `activities_logged` | Sales activities (calls, emails, meetings) logged against the lead. |

## History columns

| column | description |
|---|---|
| `converted` | 1 if the lead converted, else 0 (marketing funnel report). |
| `stage` | Last CRM stage: `no_opportunity`, `open_opportunity`, `closed_lost`, `closed_won`. |
| `closed_won_date` | Date the opportunity was closed won (empty unless `closed_won`). |
"""


def load_params(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def sigmoid(x: np.ndarray | float) -> np.ndarray | float:
    return 1.0 / (1.0 + np.exp(-x))


def within_window(plan: str, days: int) -> float:
    """P(sales cycle <= days) for a lognormal cycle with the plan's median."""
    z = (math.log(days) - math.log(CYCLE_MEDIAN_DAYS[plan])) / CYCLE_SIGMA
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


def pick(rng: np.random.Generator, names: tuple[str, ...], shares: tuple[float, ...]) -> str:
    return names[int(rng.choice(len(names), p=np.array(shares) / sum(shares)))]


def size_effect(employees: int) -> float:
    if employees < 10:
        return -0.8
    if employees < 25:
        return -0.2
    if employees <= 500:
        return 0.3
    return 0.0


def plan_for(rng: np.random.Generator, employees: int) -> str:
    if employees < 25:
        shares = (0.70, 0.25, 0.05)
    elif employees <= 250:
        shares = (0.25, 0.55, 0.20)
    else:
        shares = (0.05, 0.35, 0.60)
    return pick(rng, PLANS, shares)


def companies(rng: np.random.Generator, n_leads: int, used: set[str]) -> list[dict]:
    """Companies with their leads until ``n_leads`` leads exist (the last company trimmed)."""
    out, total = [], 0
    while total < n_leads:
        territory = pick(rng, TERRITORIES, TERRITORY_SHARES)
        employees = int(np.clip(np.exp(rng.normal(math.log(60), 1.2)), 2, 8000))
        plan = plan_for(rng, employees)
        status = pick(rng, STATUSES, (0.78, 0.10, 0.12))
        if status == "active_customer" and plan == "Starter" and rng.random() < 0.5:
            plan = "Growth"  # paying customers asking about more usually outgrow Starter
        while True:
            domain = (f"{WORDS_A[rng.integers(len(WORDS_A))]}{WORDS_B[rng.integers(len(WORDS_B))]}"
                      f"{rng.integers(2, 99)}{TLDS[territory]}")
            if domain not in used:
                used.add(domain)
                break
        industry = list(INDUSTRIES)[rng.integers(len(INDUSTRIES))]
        n = min(1 + int(rng.poisson(EXTRA_LEADS[plan])), 4, n_leads - total)
        company = {
            "company_domain": domain, "employees": employees, "industry": industry,
            "territory": territory, "plan_interest": plan, "account_status": status,
            "noise": float(rng.normal(0, 0.6)), "leads": [],
        }
        for _ in range(n):
            source = pick(rng, SOURCES, SOURCE_SHARES)
            intent = source in ("demo_request", "free_trial", "pricing_page", "partner_referral")
            nurture = source in ("webinar", "content_download")
            lead = {
                "lead_source": source,
                "contact_role": pick(rng, ROLES, ROLE_SHARES),
                "pages_viewed_7d": int(rng.poisson(6 if intent else 3)),
                "emails_opened_30d": int(rng.poisson(6 if nurture else 2.5)),
                "trial_days_active": int(rng.integers(0, 15)) if source == "free_trial" else 0,
            }
            lead["mql_score"] = int(np.clip(
                round(12 * (source == "webinar") + 9 * (source == "content_download")
                      + 15 * (source == "demo_request") + 6 * (source == "event")
                      + 3.0 * lead["emails_opened_30d"] + 1.5 * lead["pages_viewed_7d"]
                      + 4 * (lead["contact_role"] in ("dispatcher", "it"))
                      + rng.normal(10, 6)), 0, 100))
            company["leads"].append(lead)
        total += n
        out.append(company)
    return out


def win_logit(company: dict) -> float:
    """Log-odds that the company's deal is ever won: the company plus its best contact."""
    base = (-2.6 + PLAN_WIN[company["plan_interest"]] + size_effect(company["employees"])
            + INDUSTRIES[company["industry"]] + STATUS_WIN[company["account_status"]]
            + TERRITORY_EFFECT[company["territory"]] + company["noise"])
    best = max(
        SOURCE_WIN[lead["lead_source"]] + ROLE_WIN[lead["contact_role"]]
        + 0.05 * min(lead["pages_viewed_7d"], 20) + 0.08 * lead["trial_days_active"]
        for lead in company["leads"]
    )
    return base + best


def demo_logit(company: dict, lead: dict) -> float:
    """Log-odds that marketing's funnel records a demo booked for the lead."""
    small = 0.5 if company["employees"] < 25 else 0.0
    return (-1.6 + SOURCE_DEMO[lead["lead_source"]] + ROLE_DEMO[lead["contact_role"]]
            + 0.12 * min(lead["emails_opened_30d"], 15) + small)


def spread_dates(rng: np.random.Generator, start: date, end: date, n: int) -> list[date]:
    span = (end - start).days
    return [start + timedelta(days=int(d)) for d in rng.integers(0, span + 1, n)]


LEAD_COLUMNS = ("lead_id", "created_date", "company_domain", "employees", "industry",
                "territory", "plan_interest", "account_status", "lead_source", "contact_role",
                "pages_viewed_7d", "emails_opened_30d", "trial_days_active", "mql_score",
                "activities_logged")
HISTORY_COLUMNS = (*LEAD_COLUMNS, "converted", "stage", "closed_won_date")


def lead_row(lead_id: str, created: date, company: dict, lead: dict, activities: int) -> dict:
    row = {"lead_id": lead_id, "created_date": created.isoformat()}
    for key in ("company_domain", "employees", "industry", "territory", "plan_interest",
                "account_status"):
        row[key] = company[key]
    for key in ("lead_source", "contact_role", "pages_viewed_7d", "emails_opened_30d",
                "trial_days_active", "mql_score"):
        row[key] = lead[key]
    row["activities_logged"] = activities
    return row


def history(rng: np.random.Generator, params: dict, used: set[str]) -> list[dict]:
    start = date.fromisoformat(params["history_start"])
    end = date.fromisoformat(params["history_end"])
    extract = date.fromisoformat(params["extract_date"])
    rows = []
    for company in companies(rng, params["history_leads"], used):
        first = spread_dates(rng, start, end, 1)[0]
        won = rng.random() < sigmoid(win_logit(company))
        cycle = round(math.exp(rng.normal(math.log(CYCLE_MEDIAN_DAYS[company["plan_interest"]]),
                                              CYCLE_SIGMA)))
        opportunity = won or rng.random() < 0.45
        for lead in company["leads"]:
            created = min(first + timedelta(days=int(rng.integers(0, 12))), end)
            closed = first + timedelta(days=max(cycle, 5))
            if won and closed <= extract:
                stage, closed_text, activities = "closed_won", closed.isoformat(), 8 + rng.poisson(9)
            elif won:
                stage, closed_text, activities = "open_opportunity", "", 5 + rng.poisson(6)
            elif opportunity:
                stage, closed_text, activities = "closed_lost", "", 3 + rng.poisson(5)
            else:
                stage, closed_text, activities = "no_opportunity", "", rng.poisson(1.5)
            demo = demo_logit(company, lead) + (0.8 if won else 0.0)
            row = lead_row("", created, company, lead, int(activities))
            row["converted"] = int(rng.random() < sigmoid(demo))
            row["stage"] = stage
            row["closed_won_date"] = closed_text
            rows.append(row)
    rows.sort(key=lambda r: (r["created_date"], r["company_domain"]))
    for i, row in enumerate(rows):
        row["lead_id"] = f"H{i + 1:05d}"
    return rows


def queue(rng: np.random.Generator, params: dict, used: set[str]) -> tuple[list[dict], list[dict]]:
    start = date.fromisoformat(params["queue_start"])
    end = date.fromisoformat(params["extract_date"])
    window = params["win_window_days"]
    rows, truth = [], []
    for company in companies(rng, params["queue_leads"], used):
        p_ever = float(sigmoid(win_logit(company)))
        p_window = p_ever * within_window(company["plan_interest"], window)
        first = spread_dates(rng, start, end, 1)[0]
        for lead in company["leads"]:
            created = min(first + timedelta(days=int(rng.integers(0, 8))), end)
            rows.append(lead_row("", created, company, lead, int(rng.poisson(1.0))))
            truth.append({"company_domain": company["company_domain"],
                          "p_won_in_window": round(p_window, 6)})
    order = sorted(range(len(rows)), key=lambda i: (rows[i]["created_date"], rows[i]["company_domain"]))
    rows = [rows[i] for i in order]
    truth = [truth[i] for i in order]
    for i, (row, t) in enumerate(zip(rows, truth, strict=True)):
        row["lead_id"] = f"L{10001 + i}"
        t["lead_id"] = row["lead_id"]
    return rows, truth


def roster(params: dict) -> list[dict]:
    """The sales roster as the CRM holds it: the moved AE is still listed."""
    rows = []
    for territory in TERRITORIES:
        names = [n for n in AE_NAMES[territory] if n != params["moved_ae"]]
        count = params["territory_aes"][territory]
        listed = [*names[:count - 1], params["moved_ae"]] if territory == params["moved_territory"] else names[:count]
        for name in sorted(listed):
            rows.append({"ae_name": name, "territory": territory, "role": "Account Executive"})
    return rows


def write_csv(path: Path, columns: tuple[str, ...] | list[str], rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(columns), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--params", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=CASE_DIR)
    args = parser.parse_args()
    params = load_params(args.params or args.out / "hidden" / "params.json")
    rng = np.random.default_rng(params["seed"])
    used: set[str] = set()
    hist = history(rng, params, used)
    rows, truth = queue(rng, params, used)
    data = args.out / "data"
    write_csv(data / "leads_history.csv", HISTORY_COLUMNS, hist)
    write_csv(data / "lead_queue.csv", LEAD_COLUMNS, rows)
    write_csv(data / "sales_team.csv", ("ae_name", "territory", "role"), roster(params))
    (data / "data_dictionary.md").write_text(DICTIONARY, encoding="utf-8")
    write_csv(args.out / "hidden" / "truth" / "queue_truth.csv",
              ("lead_id", "company_domain", "p_won_in_window"), truth)


if __name__ == "__main__":
    main()
