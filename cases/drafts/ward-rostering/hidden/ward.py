"""The ward's roster rules, read once from data/ and hidden/params.json (shared by the
evaluator, the solver and the anchor script, so all three judge a roster the same way).

A ``Ward`` holds the period, the nurses, the demand and every rule parameter. The solver
builds counterfactual wards from altered params (``belief``), so a counterfactual is the
reference solver run on what a player who missed one rule would believe.
"""

from __future__ import annotations

import copy
import csv
import json
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

SHIFTS = ("E", "L", "N")


def read_rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def minutes(clock: str) -> int:
    hours, mins = clock.split(":")
    return int(hours) * 60 + int(mins)


@dataclass
class Nurse:
    nurse_id: str
    name: str
    band: int
    hours_per_week: float


@dataclass
class Ward:
    days: list[date]
    nurses: list[Nurse]
    required: dict[tuple[date, str], int]
    rate: dict[tuple[date, str], float]
    start_min: dict[str, int]
    end_min: dict[str, int]          # minutes after the start day's midnight (nights > 1440)
    paid_half_hours: dict[str, int]  # paid hours x 2, so every figure is an integer
    min_rest_hours: float
    max_nights: int
    senior_bands: set[int]
    hours_tolerance: float | None    # None: contracted hours are not checked
    max_weekends: int
    blocked: dict[str, set[date]] = field(default_factory=dict)   # leave days off
    credit_half_hours: dict[str, int] = field(default_factory=dict)
    secondee: str | None = None
    secondment_from: date | None = None
    closed_shifts: set[str] = field(default_factory=set)  # planning only: shifts own staff skip
    # planning only (anchors): at most this many own nurses on a night / a weekend shift
    night_cap: int | None = None
    weekend_cap: int | None = None
    # planning only (anchors): at most this many own nurses on the given (day, shift)
    own_cap: dict[tuple[date, str], int] = field(default_factory=dict)
    no_floor: set[str] = field(default_factory=set)       # planning only: no lower hours bound

    @property
    def ids(self) -> list[str]:
        return [n.nurse_id for n in self.nurses]

    def seniors(self) -> set[str]:
        return {n.nurse_id for n in self.nurses if n.band in self.senior_bands}

    def available(self, nurse_id: str, day: date) -> bool:
        if day in self.blocked.get(nurse_id, set()):
            return False
        if nurse_id == self.secondee and self.secondment_from and day >= self.secondment_from:
            return False
        return True

    def contract_half_hours(self, nurse: Nurse) -> int:
        """Paid hours owed over the period (x2): weekly hours x the weeks on the ward."""
        days_on_ward = len(self.days)
        if nurse.nurse_id == self.secondee and self.secondment_from:
            days_on_ward = sum(1 for d in self.days if d < self.secondment_from)
        return round(2 * nurse.hours_per_week * days_on_ward / 7)

    def rest_hours(self, first: str, second: str, gap_days: int) -> float:
        """Hours between the end of ``first`` and the start of ``second`` gap_days later."""
        return (gap_days * 1440 + self.start_min[second] - self.end_min[first]) / 60.0

    def forbidden_pairs(self) -> list[tuple[str, str, int]]:
        """(shift, next shift, days later) combinations with too little rest in between."""
        return [(a, b, g) for g in (1, 2) for a in SHIFTS for b in SHIFTS
                if self.rest_hours(a, b, g) < self.min_rest_hours]

    def weekends(self) -> list[list[tuple[date, str]]]:
        """Per weekend of the period, the shifts that mean working it: Saturday and Sunday
        shifts, and the Friday night that runs into Saturday."""
        result = []
        for d in self.days:
            if d.weekday() == 5:
                sunday = d + timedelta(days=1)
                slots = [(d, s) for s in SHIFTS] + [(sunday, s) for s in SHIFTS if sunday in self.days]
                friday = d - timedelta(days=1)
                if friday in self.days:
                    slots.append((friday, "N"))
                result.append(slots)
        return result


def load_params(hidden_dir: Path) -> dict[str, Any]:
    return json.loads((hidden_dir / "params.json").read_text(encoding="utf-8"))


def belief(params: dict[str, Any], ignore: str | None) -> dict[str, Any]:
    """The params as a player who missed the rule ``ignore`` would take them."""
    p = copy.deepcopy(params)
    if ignore is None:
        return p
    if ignore == "max_consecutive_nights":
        p["max_consecutive_nights"] = p["believed_max_consecutive_nights"]
    elif ignore == "rest_between_shifts":
        p["min_rest_hours"] = 0
    elif ignore == "senior_on_shift":
        p["senior_bands"] = []
    elif ignore == "contracted_hours":
        p["hours_tolerance"] = None
    elif ignore == "paid_hours":
        for shift in p["shifts"].values():
            shift["unpaid_break_min"] = 0
    elif ignore == "leave_credit":
        # Without the credit, a nurse on leave cannot fit the full contract around it; the
        # planner then rosters them as much as the rest allows (no lower bound for them).
        p["leave_credit_days"] = "none"
        p["planning_no_floor_for_leave"] = True
    elif ignore == "leave_export":
        p["binding_leave_statuses"] = ["Approved"]
    elif ignore == "secondment":
        p["secondment"] = None
    elif ignore == "weekend_fairness":
        p["max_weekends_worked"] = 99
    else:
        raise ValueError(f"unknown rule {ignore!r}")
    return p


def load_ward(data_dir: Path, params: dict[str, Any]) -> Ward:
    start = date.fromisoformat(params["start_date"])
    days = [start + timedelta(days=i) for i in range(7 * int(params["weeks"]))]
    nurses = [Nurse(r["nurse_id"], r["name"], int(r["band"]), float(r["contract_hours_per_week"]))
              for r in read_rows(data_dir / "nurses.csv")]
    required = {(date.fromisoformat(r["date"]), r["shift"]): int(r["rn_required"])
                for r in read_rows(data_dir / "demand.csv")}
    rates = {(r["day_type"], r["shift"]): float(r["rate_gbp_per_shift"])
             for r in read_rows(data_dir / "agency_rates.csv")}
    rate = {(d, s): rates[("weekend" if d.weekday() >= 5 else "weekday", s)]
            for d in days for s in SHIFTS}
    start_min, end_min, paid = {}, {}, {}
    for code, spec in params["shifts"].items():
        begin, end = minutes(spec["start"]), minutes(spec["end"])
        if end <= begin:
            end += 1440
        start_min[code], end_min[code] = begin, end
        paid[code] = round((end - begin - int(spec["unpaid_break_min"])) / 30)
    ward = Ward(
        days=days, nurses=nurses, required=required, rate=rate, start_min=start_min,
        end_min=end_min, paid_half_hours=paid, min_rest_hours=float(params["min_rest_hours"]),
        max_nights=int(params["max_consecutive_nights"]),
        senior_bands={int(b) for b in params["senior_bands"]},
        hours_tolerance=None if params["hours_tolerance"] is None else float(params["hours_tolerance"]),
        max_weekends=int(params["max_weekends_worked"]),
    )
    by_id = {n.nurse_id: n for n in nurses}
    binding = set(params["binding_leave_statuses"])
    for row in read_rows(data_dir / "leave_export.csv"):
        if row["status"] not in binding:
            continue
        first, last = date.fromisoformat(row["first_day"]), date.fromisoformat(row["last_day"])
        leave_days = [d for d in days if first <= d <= last]
        ward.blocked.setdefault(row["nurse_id"], set()).update(leave_days)
        nurse = by_id[row["nurse_id"]]
        if params["leave_credit_days"] == "weekdays":
            credited = sum(1 for d in leave_days if d.weekday() < 5)
            ward.credit_half_hours[nurse.nurse_id] = (
                ward.credit_half_hours.get(nurse.nurse_id, 0)
                + round(2 * nurse.hours_per_week / 5 * credited))
    if params.get("planning_no_floor_for_leave"):
        ward.no_floor = set(ward.blocked)
    if params.get("secondment"):
        ward.secondee = nurses[int(params["secondment"]["nurse_index"])].nurse_id
        ward.secondment_from = date.fromisoformat(params["secondment"]["from_date"])
    return ward
