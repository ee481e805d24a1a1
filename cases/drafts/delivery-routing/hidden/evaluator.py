"""Evaluator of delivery-routing: tomorrow's van rounds, driven and costed.

Each van's rows (by ``seq``) are driven as ``rounds.drive`` does it on the true map (the moved
customer at its new address). Hard rules are violations: a drop after its receiving window
closes, a van back after the depot's return time, more crates than a van holds, chilled crates
in a van that cannot keep them cold (a box van, or the refrigerated van whose unit is down),
the old diesel inside the low-emission zone. Otherwise the value is the day's cost in EUR:
paid driver time (from clock-in, at least the minimum paid shift), km, the hire van's day
fee if it goes out, and the courier for every customer no van visits. Every rule figure comes
from ``params.json`` or ``data/``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rounds import Day, Round, Rules, drive, hhmm, load_day, minutes_of

from evaluators.api import Assessment, Submission, ViolationCollector


def _group(submission: Submission, day: Day) -> tuple[dict[str, list[tuple[int, str, int]]], str]:
    """Rows per van as (seq, stop, planned minutes), or a fatal reason."""
    by_van: dict[str, list[tuple[int, str, int]]] = {}
    seen: dict[str, int] = {}
    for index, row in enumerate(submission.rows):
        van, stop = str(row["van_id"]).strip(), str(row["stop_id"]).strip()
        if van not in day.vans:
            return {}, f"Line {Submission.line_of(index)}: we have no van {van}."
        if stop not in day.stops:
            return {}, f"Line {Submission.line_of(index)}: {stop} is not one of tomorrow's customers."
        if stop in seen:
            return {}, (f"{stop} is on line {seen[stop]} and on line {Submission.line_of(index)}: "
                        "each customer gets one drop.")
        seen[stop] = Submission.line_of(index)
        by_van.setdefault(van, []).append((int(row["seq"]), stop, minutes_of(row["planned_arrival"])))
    for van, rows in by_van.items():
        rows.sort()
        seqs = [seq for seq, _, _ in rows]
        if len(set(seqs)) != len(seqs):
            return {}, f"Van {van} has two rows with the same seq."
    return by_van, ""


def evaluate(submission: Submission, data_dir: Path, hidden_dir: Path) -> Assessment:
    params = json.loads((hidden_dir / "params.json").read_text(encoding="utf-8"))
    day = load_day(data_dir, Rules.truth(params))
    by_van, fatal = _group(submission, day)
    if fatal:
        return Assessment(fatal=fatal)
    problems = ViolationCollector()
    cost = {"drivers": 0.0, "km": 0.0, "hire": 0.0, "courier": 0.0}
    shifts, served = {}, set()
    for van, rows in sorted(by_van.items()):
        stops = [stop for _, stop, _ in rows]
        served.update(stops)
        done = _drive_and_check(day, van, stops, [plan for _, _, plan in rows], problems)
        cost["drivers"] += done.paid_min * day.driver_eur_per_min
        cost["km"] += done.km * day.km_eur
        cost["hire"] += day.fixed_eur(van)
        shifts[van] = f"{hhmm(done.depart - day.rules.loading_min)}-{hhmm(done.back)}"
    if problems:
        return Assessment(violations=problems.violations())
    couriers = sorted(set(day.stops) - served)
    cost["courier"] = len(couriers) * day.courier_eur
    total = sum(cost.values())
    details = {f"{key}_eur": round(value, 2) for key, value in cost.items()}
    details.update({"vans_out": len(by_van), "courier_drops": len(couriers), "shifts": shifts})
    return Assessment(value=round(total, 6), details=details)


def _drive_and_check(day: Day, van: str, stops: list[str], planned: list[int],
                     problems: ViolationCollector) -> Round:
    """Drive one van's round and record the hard rules it breaks."""
    done = drive(day, van, stops, planned)
    for stop, arrive, end in done.late:
        problems.add(
            "receiving_window",
            "The van gets there after the customer has stopped taking deliveries.",
            {"van_id": van, "stop_id": stop, "arrives": hhmm(arrive), "window_closes": hhmm(end)},
        )
    if done.back > day.back_by:
        problems.add(
            "return_by",
            f"The van is back at the depot after {hhmm(day.back_by)}.",
            {"van_id": van, "back": hhmm(done.back)},
        )
    crates = sum(day.crates(stop) for stop in stops)
    capacity = int(day.vans[van]["capacity_crates"])
    if crates > capacity:
        problems.add(
            "van_capacity",
            "More crates than the van holds.",
            {"van_id": van, "crates": crates, "capacity_crates": capacity},
        )
    for stop in stops:
        if day.chilled(stop) and day.vans[van]["body"] != "refrigerated":
            problems.add(
                "cold_chain",
                "Chilled crates in a van without refrigeration.",
                {"van_id": van, "stop_id": stop, "crates_chilled": day.chilled(stop)},
            )
        elif day.chilled(stop) and van == day.rules.fridge_down_van:
            problems.add(
                "fridge_unit_down",
                "Chilled crates in a van whose cooling unit is not working.",
                {"van_id": van, "stop_id": stop, "crates_chilled": day.chilled(stop)},
            )
        if not day.may_enter(van, stop):
            problems.add(
                "lez_exemption_expired",
                "This van may not enter the low-emission zone.",
                {"van_id": van, "stop_id": stop, "district": day.district[stop]},
            )
    return done
