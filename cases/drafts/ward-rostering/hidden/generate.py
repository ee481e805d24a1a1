"""Seeded generator of the ward-rostering data (data/ of a variant) from hidden/params.json.

Writes what the ward's e-roster and the temporary staffing office would hand over for one
four-week roster period:

- ``nurses.csv``: the ward's registered nurses as the e-roster lists them (band, contracted
  hours a week). The list is the one the e-roster holds, so it still shows the nurse whose
  secondment the params name as an ordinary member of the ward.
- ``demand.csv``: registered nurses required per shift of every day (the ward's safe-staffing
  template plus the Monday post-take bump and a few one-off extras).
- ``shifts.csv``: the three shift codes with their clock times.
- ``agency_rates.csv``: the agency framework's charge per shift booked.
- ``leave_export.csv``: the e-roster's leave export for the period (approved, requested and
  declined rows).

Usage: ``generate.py [--params P] [--out ROOT]``; without arguments it rebuilds the base
variant in place (the package root is the folder above hidden/). Deterministic: the same
params give byte-identical files.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
from datetime import date, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent

FIRST = ["Amara", "Ben", "Chloe", "Dev", "Ellie", "Femi", "Grace", "Harry", "Isla", "Jonah",
         "Kemi", "Liam", "Maya", "Niamh", "Oscar", "Parveen", "Rosa", "Sanjay", "Tamsin",
         "Uche", "Wiktoria", "Yusuf", "Zara", "Callum", "Bethan", "Marek"]
LAST = ["Adeyemi", "Brennan", "Clarke", "Desai", "Evans", "Fraser", "Gallagher", "Hughes",
        "Iqbal", "Jankowski", "Kaur", "Lloyd", "Mensah", "Nowak", "O'Neill", "Patel", "Quinn",
        "Reid", "Santos", "Thomas", "Walsh", "Yildiz", "Morgan", "Okafor", "Price", "Doherty"]


def load_params(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def period_days(params: dict) -> list[date]:
    start = date.fromisoformat(params["start_date"])
    return [start + timedelta(days=i) for i in range(7 * int(params["weeks"]))]


def make_nurses(params: dict, rng: random.Random) -> list[dict]:
    names = [f"{f} {l}" for f, l in zip(rng.sample(FIRST, len(FIRST)), rng.sample(LAST, len(LAST)))]
    nurses = []
    for group in params["staff"]:
        for _ in range(int(group["count"])):
            i = len(nurses)
            nurses.append({
                "nurse_id": f"N{i + 1:02d}",
                "name": names[i],
                "band": int(group["band"]),
                "contract_hours_per_week": f"{float(group['hours']):.1f}",
                "start_on_ward": f"{2016 + rng.randrange(9)}-{rng.randrange(1, 13):02d}",
            })
    return nurses


def make_demand(params: dict, days: list[date], rng: random.Random) -> list[dict]:
    spec = params["demand"]
    need = {}
    for d in days:
        kind = "weekend" if d.weekday() >= 5 else "weekday"
        for s in ("E", "L", "N"):
            need[(d, s)] = int(spec[kind][s])
        if d.weekday() == 0:
            need[(d, "E")] += int(spec["monday_early_extra"])
    weekday_slots = [(d, s) for d in days if d.weekday() < 5 for s in ("E", "L")]
    for key in rng.sample(weekday_slots, int(spec["random_extra_shifts"])):
        need[key] += 1
    return [{"date": d.isoformat(), "day": d.strftime("%a"), "shift": s, "rn_required": need[(d, s)]}
            for d in days for s in ("E", "L", "N")]


def make_leave(params: dict, nurses: list[dict], days: list[date], rng: random.Random) -> list[dict]:
    """Leave rows for distinct nurses: spans of 2-7 days, never crossing the period's edge.

    Seniors are included on purpose (their leave is what makes the senior cover tight), and
    the seconded nurse is left out (his leave is booked with his new department).
    """
    counts = params["leave"]
    secondee = nurses[int(params["secondment"]["nurse_index"])]["nurse_id"]
    pool = [n["nurse_id"] for n in nurses if n["nurse_id"] != secondee]
    seniors = [n["nurse_id"] for n in nurses
               if n["band"] in params["senior_bands"] and n["nurse_id"] != secondee]
    statuses = (["Requested"] * int(counts["requested"]) + ["Approved"] * int(counts["approved"])
                + ["Declined"] * int(counts["declined"]))
    # One requested and one approved row belong to seniors; the rest are drawn from everyone.
    chosen = rng.sample(seniors, 2)
    rest = [n for n in pool if n not in chosen]
    chosen += rng.sample(rest, len(statuses) - 2)
    rows = []
    for i, (nurse_id, status) in enumerate(zip(chosen, statuses)):
        length = rng.choice([2, 3, 4, 5, 5, 7, 7])
        first = days[rng.randrange(0, len(days) - length + 1)]
        if length >= 5:  # week-long leave starts on a Monday, as the e-roster books it
            monday = first - timedelta(days=first.weekday())
            first = monday if monday >= days[0] else monday + timedelta(days=7)
            if first + timedelta(days=length - 1) > days[-1]:
                first -= timedelta(days=7)
        last = first + timedelta(days=length - 1)
        submitted = days[0] - timedelta(days=rng.randrange(20, 70))
        rows.append({
            "request_id": f"LV{4100 + 7 * i + rng.randrange(7)}",
            "nurse_id": nurse_id,
            "leave_type": "Study leave" if rng.random() < 0.2 else "Annual leave",
            "first_day": first.isoformat(),
            "last_day": last.isoformat(),
            "status": status,
            "submitted": submitted.isoformat(),
        })
    rows.sort(key=lambda r: (r["first_day"], r["nurse_id"]))
    return rows


def write_csv(path: Path, rows: list[dict]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def generate(params: dict, out: Path) -> None:
    rng = random.Random(int(params["seed"]))
    days = period_days(params)
    data = out / "data"
    data.mkdir(parents=True, exist_ok=True)
    nurses = make_nurses(params, rng)
    write_csv(data / "nurses.csv", nurses)
    write_csv(data / "demand.csv", make_demand(params, days, rng))
    write_csv(data / "shifts.csv", [
        {"shift": code, "name": s["name"], "start": s["start"], "end": s["end"]}
        for code, s in params["shifts"].items()
    ])
    rates = params["agency_rates_gbp"]
    write_csv(data / "agency_rates.csv", [
        {"shift": code, "day_type": kind,
         "applies_to": "shifts starting Monday to Friday" if kind == "weekday"
         else "shifts starting Saturday or Sunday",
         "rate_gbp_per_shift": rates[kind][code]}
        for kind in ("weekday", "weekend") for code in ("E", "L", "N")
    ])
    write_csv(data / "leave_export.csv", make_leave(params, nurses, days, rng))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--params", type=Path, default=HERE / "params.json")
    parser.add_argument("--out", type=Path, default=HERE.parent)
    args = parser.parse_args()
    generate(load_params(args.params), args.out)


if __name__ == "__main__":
    main()
