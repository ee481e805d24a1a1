"""Reference roster for ward-rostering with OR-Tools CP-SAT.

One boolean per (nurse, day, shift). Hard rules as constraints, read from the ward's params
(ward.py); the objective is the agency bill: every registered-nurse place a shift is short of
its requirement is booked from the agency at the framework rate of that shift. The search is
budgeted in deterministic time, so the reference is the best roster that budget finds (the
log prints its gap to the proven bound).

``--ignore KEY`` solves the same model on the params a player who missed that rule would
believe (ward.belief) and writes hidden/counterfactuals/KEY.csv. A player who believes the
ward's old four-night blocks plans in blocks of four, so that counterfactual prefers them.

Usage: solver.py [--params P] [--root ROOT] [--ignore KEY | --all]
Single-threaded with a fixed seed and a deterministic time budget, so reruns are identical.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

from ortools.sat.python import cp_model

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from ward import SHIFTS, Ward, belief, load_params, load_ward  # noqa: E402

# deterministic-time budgets (CP-SAT units, roughly CPU seconds): the reference is searched
# for long, a counterfactual only needs to be the roster a player with that belief would get
REFERENCE_BUDGET = 40.0
COUNTERFACTUAL_BUDGET = 4.0

TARGETS = ["max_consecutive_nights", "rest_between_shifts", "senior_on_shift",
           "contracted_hours", "paid_hours", "leave_credit", "leave_export", "secondment",
           "weekend_fairness"]


def solve(ward: Ward, *, prefer_long_night_blocks: bool = False,
          time_budget: float = REFERENCE_BUDGET) -> tuple[list[tuple[str, str, str]], float]:
    m = cp_model.CpModel()
    days, ids = ward.days, ward.ids
    x = {}
    for n in ids:
        for d in days:
            for s in SHIFTS:
                x[n, d, s] = m.NewBoolVar(f"x_{n}_{d}_{s}")
                if not ward.available(n, d) or s in ward.closed_shifts:
                    m.Add(x[n, d, s] == 0)
            m.AddAtMostOne(x[n, d, s] for s in SHIFTS)
    # planning caps of the hand-made anchors (make_anchors.py), never of the reference
    for d in days:
        for s in SHIFTS:
            caps = [c for c, on in ((ward.night_cap, s == "N"),
                                    (ward.weekend_cap, d.weekday() >= 5)) if on and c is not None]
            if (d, s) in ward.own_cap:
                caps.append(ward.own_cap[d, s])
            if caps:
                m.Add(sum(x[n, d, s] for n in ids) <= min(caps))
    # rest between shifts
    for a, b, gap in ward.forbidden_pairs():
        for n in ids:
            for i in range(len(days) - gap):
                m.AddBoolOr([x[n, days[i], a].Not(), x[n, days[i + gap], b].Not()])
    # consecutive nights
    k = ward.max_nights
    for n in ids:
        for i in range(len(days) - k):
            m.Add(sum(x[n, days[i + j], "N"] for j in range(k + 1)) <= k)
    # senior on every shift
    seniors = [n for n in ids if n in ward.seniors()]
    if ward.senior_bands:
        for d in days:
            for s in SHIFTS:
                if s not in ward.closed_shifts:
                    m.Add(sum(x[n, d, s] for n in seniors) >= 1)
    # contracted hours (paid hours x2, leave credited)
    if ward.hours_tolerance is not None:
        tol = round(2 * ward.hours_tolerance)
        for nurse in ward.nurses:
            n = nurse.nurse_id
            worked = sum(ward.paid_half_hours[s] * x[n, d, s] for d in days for s in SHIFTS)
            owed = ward.contract_half_hours(nurse) - ward.credit_half_hours.get(n, 0)
            m.Add(worked <= owed + tol)
            if n not in ward.no_floor:
                m.Add(worked >= owed - tol)
    # weekends
    for n in ids:
        worked_weekends = []
        for slots in ward.weekends():
            w = m.NewBoolVar("")
            for d, s in slots:
                m.AddImplication(x[n, d, s], w)
            worked_weekends.append(w)
        m.Add(sum(worked_weekends) <= ward.max_weekends)
    # agency shortfall
    cost_terms = []
    for d in days:
        for s in SHIFTS:
            need = ward.required[d, s]
            short = m.NewIntVar(0, need, "")
            m.Add(short >= need - sum(x[n, d, s] for n in ids))
            cost_terms.append(int(round(ward.rate[d, s])) * short)
    objective = sum(cost_terms)
    if prefer_long_night_blocks:
        # the four-night belief: plan nights in blocks of four where the bill allows it
        fours = []
        for n in ids:
            for i in range(len(days) - 3):
                f = m.NewBoolVar("")
                for j in range(4):
                    m.AddImplication(f, x[n, days[i + j], "N"])
                fours.append(f)
        objective = 100 * objective - sum(fours)
    m.Minimize(objective)
    solver = cp_model.CpSolver()
    # interleaved search runs the portfolio's subsolvers in one thread in a fixed order: the
    # same model and deterministic-time budget give the same roster on any machine and load
    solver.parameters.num_workers = 8
    solver.parameters.interleave_search = True
    solver.parameters.random_seed = 7
    solver.parameters.max_deterministic_time = time_budget
    status = solver.Solve(m)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise SystemExit(f"no roster found ({solver.StatusName(status)})")
    rows = [(n, d.isoformat(), s) for n in ids for d in days for s in SHIFTS
            if solver.Value(x[n, d, s])]
    agency = sum(ward.rate[d, s] * max(0, ward.required[d, s] -
                 sum(1 for n in ids if solver.Value(x[n, d, s]))) for d in days for s in SHIFTS)
    print(f"  {solver.StatusName(status)} agency GBP {agency:.0f}, bound "
          f"{solver.BestObjectiveBound():.0f}, {solver.WallTime():.1f}s", file=sys.stderr)
    return rows, agency


def write_roster(path: Path, rows: list[tuple[str, str, str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["nurse_id", "date", "shift"])
        writer.writerows(sorted(rows, key=lambda r: (r[1], "ELN".index(r[2]), r[0])))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--params", type=Path, default=HERE / "params.json")
    parser.add_argument("--root", type=Path, default=HERE.parent)
    parser.add_argument("--ignore", choices=TARGETS)
    parser.add_argument("--all", action="store_true", help="reference and every counterfactual")
    args = parser.parse_args()
    import json
    params = json.loads(args.params.read_text(encoding="utf-8"))
    hidden = args.root / "hidden"
    keys = [None] + TARGETS if args.all else [args.ignore]
    for key in keys:
        print(f"{key or 'reference'}:", file=sys.stderr)
        ward = load_ward(args.root / "data", belief(params, key))
        rows, _ = solve(ward, prefer_long_night_blocks=key == "max_consecutive_nights",
                        time_budget=REFERENCE_BUDGET if key is None else COUNTERFACTUAL_BUDGET)
        out = hidden / "reference.csv" if key is None else hidden / "counterfactuals" / f"{key}.csv"
        write_roster(out, rows)


if __name__ == "__main__":
    main()
