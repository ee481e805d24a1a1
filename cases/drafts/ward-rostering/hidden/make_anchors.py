"""Admission anchors of ward-rostering, written into ROOT/hidden/anchors/.

- baseline.csv: the ward's hand-made habit - own staff on the weekday days, and on nights and
  weekend shifts only the nurse in charge (one own senior), the agency taking the rest; every
  rule kept (the reference solver with those caps). Valid: the baseline_value.
- shortcut-nights-to-agency.csv: a planner who keeps every rule but never asks Marcus how the
  agency is booked, and takes the ward's standing agency line as given: one agency nurse on
  every night and every weekend shift, the own staff rostered around it (at most the demand
  less one own nurses there; the nurse in charge stays own). The skipped clarification is the
  agency_booking fact: agency is booked by the shift, only for the gaps the ward reports, so
  the standing line is no rule. Valid; it pays for the dearest shifts the own hours could
  have covered. The same construction in every variant (the cap comes from each variant's
  demand, not a tuned number). Leaving only the nights beyond the nurse in charge to the
  agency and freeing the weekends (a night-only habit) is nearly free: 0.79-0.85 of the way
  from the baseline to the reference across the variants: own hours are the scarce thing, and
  the 9 or so paid hours a second own nurse spends on a night cover about 1.2 weekday earlies
  or lates instead (about GBP 320 of agency against the night's GBP 352), so it is no shortcut
  anchor here.
- shortcut-weekends-to-agency.csv: the ward's weekend habit kept - only the nurse in charge
  of the own staff on the weekend shifts, the agency taking the rest; nights and weekdays
  planned freely with every rule. Valid.
- literal.csv: the request read word for word: cover the demand with the ward's nurses as
  cheaply as possible, one shift a day each, nothing else assumed (no contract, rest, night,
  skill-mix, leave or weekend rules). Invalid.
- shortcut-days-only.csv: a planner who keeps own staff off nights (nights are left to the
  agency) and otherwise follows every rule with the reference solver. No nurse in charge at
  night, so invalid.
- shortcut-greedy.csv: a day-by-day greedy that knows every rule: each day, the dearest
  shifts first, each place to the available nurse furthest behind on hours (a senior first
  where the shift has none). It spends own hours early and leaves late gaps: shifts without
  a senior and nurses off their contracted hours, so invalid.

Usage: make_anchors.py [--params P] [--root ROOT]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from solver import COUNTERFACTUAL_BUDGET, solve, write_roster  # noqa: E402
from ward import SHIFTS, belief, load_ward  # noqa: E402


def literal(data: Path, params: dict) -> list[tuple[str, str, str]]:
    p = params
    for key in ("max_consecutive_nights", "rest_between_shifts", "senior_on_shift",
                "contracted_hours", "leave_export", "secondment", "weekend_fairness"):
        p = belief(p, key)
    p["binding_leave_statuses"] = []
    p["max_consecutive_nights"] = 28
    rows, _ = solve(load_ward(data, p), time_budget=COUNTERFACTUAL_BUDGET)
    return rows


def days_only(data: Path, params: dict) -> list[tuple[str, str, str]]:
    ward = load_ward(data, params)
    ward.closed_shifts = {"N"}  # own staff on earlies and lates only; agency takes the nights
    rows, _ = solve(ward, time_budget=COUNTERFACTUAL_BUDGET)
    return rows


def capped(data: Path, params: dict, nights: int | None, weekends: int | None):
    """The reference solver with own staff capped on nights and / or weekend shifts."""
    ward = load_ward(data, params)
    ward.night_cap, ward.weekend_cap = nights, weekends
    rows, _ = solve(ward, time_budget=COUNTERFACTUAL_BUDGET)
    return rows


def standing_agency_line(data: Path, params: dict) -> list[tuple[str, str, str]]:
    """The reference solver with one place of every night and weekend shift left to the
    agency (the ward's standing agency line, never questioned)."""
    ward = load_ward(data, params)
    ward.own_cap = {(d, s): max(1, ward.required[d, s] - 1) for d in ward.days for s in SHIFTS
                    if s == "N" or d.weekday() >= 5}
    rows, _ = solve(ward, time_budget=COUNTERFACTUAL_BUDGET)
    return rows


def greedy(data: Path, params: dict) -> list[tuple[str, str, str]]:
    ward = load_ward(data, params)
    tol2 = round(2 * ward.hours_tolerance)
    owed = {n.nurse_id: ward.contract_half_hours(n) - ward.credit_half_hours.get(n.nurse_id, 0)
            for n in ward.nurses}
    worked = {n: 0 for n in ward.ids}
    shift_of: dict[tuple[str, int], str] = {}
    weekend_of = {}
    for k, slots in enumerate(ward.weekends()):
        for d, s in slots:
            weekend_of[d, s] = k
    weekends = {n: set() for n in ward.ids}
    pairs = set(ward.forbidden_pairs())
    seniors = ward.seniors()
    rows = []
    for i, d in enumerate(ward.days):
        for s in sorted(SHIFTS, key=lambda s: -ward.rate[d, s]):
            placed = []
            for _ in range(ward.required[d, s]):
                def ok(n: str) -> bool:
                    if (n, i) in shift_of or not ward.available(n, d):
                        return False
                    for gap in (1, 2):
                        prev = shift_of.get((n, i - gap))
                        if prev and (prev, s, gap) in pairs:
                            return False
                    if s == "N" and all(shift_of.get((n, i - j)) == "N"
                                        for j in range(1, ward.max_nights + 1)):
                        return False
                    k = weekend_of.get((d, s))
                    if k is not None and k not in weekends[n] and len(weekends[n]) >= ward.max_weekends:
                        return False
                    return worked[n] + ward.paid_half_hours[s] <= owed[n] + tol2
                pool = [n for n in ward.ids if ok(n)]
                if not any(n in seniors for n in placed):
                    pool = [n for n in pool if n in seniors] or pool
                if not pool:
                    break
                n = max(pool, key=lambda n: ((owed[n] - worked[n]) / max(owed[n], 1), n))
                shift_of[n, i] = s
                worked[n] += ward.paid_half_hours[s]
                k = weekend_of.get((d, s))
                if k is not None:
                    weekends[n].add(k)
                placed.append(n)
                rows.append((n, d.isoformat(), s))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--params", type=Path, default=HERE / "params.json")
    parser.add_argument("--root", type=Path, default=HERE.parent)
    args = parser.parse_args()
    params = json.loads(args.params.read_text(encoding="utf-8"))
    data, anchors = args.root / "data", args.root / "hidden" / "anchors"
    # The ward's hand-made habit: own staff on the weekday days, and on nights and at weekends
    # only the nurse in charge; the agency takes the rest of the nights and weekends.
    write_roster(anchors / "baseline.csv", capped(data, params, 1, 1))
    write_roster(anchors / "shortcut-nights-to-agency.csv", standing_agency_line(data, params))
    write_roster(anchors / "shortcut-weekends-to-agency.csv", capped(data, params, None, 1))
    write_roster(anchors / "literal.csv", literal(data, params))
    write_roster(anchors / "shortcut-days-only.csv", days_only(data, params))
    write_roster(anchors / "shortcut-greedy.csv", greedy(data, params))


if __name__ == "__main__":
    main()
