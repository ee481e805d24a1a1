"""Reference solver of the exam-timetabling case (OR-Tools CP-SAT).

``python hidden/solver.py [--root ROOT] [--data DATA] [--ignore KEY | --anchor NAME | --all]``

It reads ``ROOT/hidden/params.json`` and ``DATA`` (default ``ROOT/data``; a variant without data
of its own uses the base's). Without options it writes ``ROOT/hidden/reference.csv``: every paper in one session, no
candidate in two exams at once, every rule of ``params.json`` kept, and the fewest penalty
points (evaluator.py) the model finds. ``--ignore KEY`` writes ``counterfactuals/KEY.csv``, the
same solve with that target's answer left out (or read the tempting wrong way); ``--anchor``
writes one admission anchor; ``--all`` writes the reference, every counterfactual and every
anchor. The model works on *units*: a paper with all its teaching groups (or one teaching group
when the shared-paper rule is ignored). Rooms are filled after the solve, biggest room first,
since a room may hold several exams and an exam may be spread over rooms. Deterministic: one
search worker and a fixed deterministic-time budget.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import defaultdict
from datetime import date, timedelta
from pathlib import Path

from ortools.sat.python import cp_model

HIDDEN = Path(__file__).resolve().parent
sys.path[:0] = [str(HIDDEN), str(HIDDEN.parents[3])]

from evaluator import afternoon_allows, load_case  # noqa: E402

TARGETS = [
    "exam_seating_capacity", "separate_room_candidates", "board_fixed_papers",
    "college_closed_day", "extra_time_afternoon", "shared_paper_same_session", "spread_penalty",
]
ALL_RULES = set(TARGETS) - {"spread_penalty"}
#: Anchors: the rules each one keeps and what it minimises.
ANCHORS = {
    # The exams officer's own way (the do-nothing): every rule kept, papers packed into the
    # fortnight from its first session on, no thought for the spread.
    "baseline": (ALL_RULES, "earliest"),
    # The request word for word: one slot per listed exam, the rooms.csv capacities, every
    # session of sessions.csv, and "as kind as possible" read as "no two exams in one day".
    "literal": (set(), "same_day"),
    # Every rule kept, papers placed one by one, most-entered first, each in the first session
    # without a clash that has room: the textbook greedy colouring of the clash graph.
    "shortcut-greedy-first-fit": (ALL_RULES, "greedy"),
    # Every rule kept, but papers spread as thinly as possible: fewest exams per session.
    "shortcut-even-spread": (ALL_RULES, "even"),
}
#: Deterministic-time budget (CP-SAT's work units, not seconds): the reference solve proves
#: its optimum well inside it; counterfactuals and anchors need a good timetable, not a proof.
DET_TIME = {"penalty": 200.0}
DET_TIME_OTHER = 8.0


def solve(case: dict, keep: set[str], objective: str) -> dict[str, tuple[str, str]]:
    """Exam -> (date, session) for the rules in ``keep`` and the named objective."""
    params, exams = case["params"], case["exams"]
    sessions = [s for s in case["sessions"]
                if "college_closed_day" not in keep or s[0] != params["closed_day"]]
    units: dict[str, list[str]] = defaultdict(list)
    for exam_id in sorted(exams):
        key = exams[exam_id]["paper_code"] if "shared_paper_same_session" in keep else exam_id
        units[key].append(exam_id)
    members = {u: {c for e in ex for c in case["entries"].get(e, [])} for u, ex in units.items()}
    separate = "separate_room_candidates" in keep
    aa = {u: sum(case["separate_count"][e] for e in ex) if separate else 0 for u, ex in units.items()}
    main = {u: len(members[u]) - aa[u] for u in units}
    seats = seat_table(case, keep)
    main_cap = sum(v for r, v in seats.items() if not (separate and r in params["separate_rooms"]))
    sep_cap = sum(seats[r] for r in params["separate_rooms"]) if separate else 0

    allowed = {}
    for u, ex in units.items():
        fixed = params["fixed_papers"].get(exams[ex[0]]["paper_code"]) if "board_fixed_papers" in keep else None
        allowed[u] = [s for s in sessions if not (fixed and s != tuple(fixed)) and not (
            s[1] == "PM" and "extra_time_afternoon" in keep and not all(afternoon_allows(case, e) for e in ex))]
    if objective == "greedy":
        return greedy(units, members, main, aa, allowed, main_cap, sep_cap)

    model = cp_model.CpModel()
    x = {}
    for u in units:
        for s in allowed[u]:
            x[u, s] = model.NewBoolVar(f"x_{u}_{s[0]}_{s[1]}")
        model.AddExactlyOne(x[u, s] for s in sessions if (u, s) in x)
    for s in sessions:
        model.Add(sum(main[u] * x[u, s] for u in units if (u, s) in x) <= main_cap)
        if separate:
            model.Add(sum(aa[u] * x[u, s] for u in units if (u, s) in x) <= sep_cap)
    groups: dict[tuple[str, ...], int] = defaultdict(int)
    taking: dict[str, set[str]] = defaultdict(set)
    for u, people in members.items():
        for c in people:
            taking[c].add(u)
    for c in sorted(taking):
        groups[tuple(sorted(taking[c]))] += 1
    # Sorted tuples, never sets, in the model: string hashing differs between processes, and
    # CP-SAT's search depends on the order of variables and constraints.
    groups = dict(sorted(groups.items()))
    for us in groups:
        if len(us) > 1:
            for s in sessions:
                model.AddAtMostOne(x[u, s] for u in us if (u, s) in x)

    days = sorted({d for d, _ in sessions})
    terms = []
    if objective in ("penalty", "same_day"):
        for us, weight in groups.items():
            if len(us) < 2:
                continue
            for d in days:
                am = [x[u, (d, "AM")] for u in us if (u, (d, "AM")) in x]
                pm = [x[u, (d, "PM")] for u in us if (u, (d, "PM")) in x]
                if am and pm:
                    z = model.NewBoolVar("")
                    model.Add(sum(am) + sum(pm) - 1 <= z)
                    terms.append(params["same_day_pts"] * weight * z)
                after = (date.fromisoformat(d) + timedelta(days=1)).isoformat()
                nxt = [x[u, (after, "AM")] for u in us if (u, (after, "AM")) in x]
                if objective == "penalty" and pm and nxt:
                    z = model.NewBoolVar("")
                    model.Add(sum(pm) + sum(nxt) - 1 <= z)
                    terms.append(params["overnight_pts"] * weight * z)
    elif objective == "earliest":
        terms = [index * len(members[u]) * x[u, s] for index, s in enumerate(sessions)
                 for u in units if (u, s) in x]
    elif objective == "even":
        load = model.NewIntVar(0, len(units), "load")
        for s in sessions:
            model.Add(sum(x[u, s] for u in units if (u, s) in x) <= load)
        terms = [load]
    model.Minimize(sum(terms))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 7
    solver.parameters.max_deterministic_time = DET_TIME.get(objective, DET_TIME_OTHER) if keep == ALL_RULES else DET_TIME_OTHER
    status = solver.Solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise SystemExit(f"no timetable found ({solver.StatusName(status)})")
    print(f"  {objective}: {solver.StatusName(status)} objective {solver.ObjectiveValue():.0f} "
          f"bound {solver.BestObjectiveBound():.0f}", file=sys.stderr)
    return {e: s for (u, s), var in x.items() if solver.Value(var) for e in units[u]}


def greedy(units, members, main, aa, allowed, main_cap, sep_cap) -> dict[str, tuple[str, str]]:
    """First fit: pinned papers first, then by entries; the first session that takes the paper."""
    placed: dict[str, tuple[str, str]] = {}
    busy: dict[tuple[str, str], set[str]] = defaultdict(set)
    load: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for u in sorted(units, key=lambda u: (len(allowed[u]) > 1, -len(members[u]), u)):
        for s in allowed[u]:
            if not busy[s] & members[u] and load[s][0] + main[u] <= main_cap and load[s][1] + aa[u] <= sep_cap:
                placed[u] = s
                busy[s] |= members[u]
                load[s][0] += main[u]
                load[s][1] += aa[u]
                break
        else:
            raise SystemExit(f"first fit finds no session for {u}")
    return {e: s for u, s in placed.items() for e in units[u]}


def seat_table(case: dict, keep: set[str]) -> dict[str, int]:
    """Seats per room: exam-layout desks, or the rooms.csv capacity when that rule is ignored."""
    if "exam_seating_capacity" in keep:
        return dict(case["params"]["exam_seats"])
    return {r: int(row["capacity"]) for r, row in case["rooms"].items()}


def rooms_for(case: dict, slot: dict[str, tuple[str, str]], keep: set[str]) -> list[list[object]]:
    """Deliverable rows: per session, pour each exam's candidates into the rooms, biggest first."""
    params = case["params"]
    seats = seat_table(case, keep)
    separate = "separate_room_candidates" in keep
    sep_rooms = [r for r in params["separate_rooms"]] if separate else []
    main_rooms = sorted((r for r in seats if r not in sep_rooms), key=lambda r: (-seats[r], r))
    rows = []
    for when in sorted(set(slot.values())):
        held = sorted(e for e, s in slot.items() if s == when)
        for rooms, need in ((main_rooms, lambda e: len(case["entries"][e]) - (case["separate_count"][e] if separate else 0)),
                            (sep_rooms, lambda e: case["separate_count"][e])):
            if not rooms:
                continue
            free = {r: seats[r] for r in rooms}
            for exam_id in held:
                left = need(exam_id)
                for room in rooms:
                    take = min(left, free[room])
                    if take > 0:
                        rows.append([exam_id, when[0], when[1], room, take])
                        free[room] -= take
                        left -= take
                if left:
                    raise SystemExit(f"{exam_id}: {left} candidates without a seat")
    return rows


def write(path: Path, rows: list[list[object]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["exam_id", "date", "session", "room_id", "seated"])
        writer.writerows(sorted(rows, key=lambda r: (r[1], r[2], r[0], r[3])))


def run(root: Path, data: Path | None, what: str) -> None:
    case = load_case(data or root / "data", root / "hidden")
    hidden = root / "hidden"
    if what == "reference":
        keep, objective, out = ALL_RULES, "penalty", hidden / "reference.csv"
    elif what in ANCHORS:
        keep, objective = ANCHORS[what]
        out = hidden / "anchors" / f"{what}.csv"
    else:
        if what == "spread_penalty":
            keep, objective = ALL_RULES, "earliest"
        else:
            keep, objective = ALL_RULES - {what}, "penalty"
        out = hidden / "counterfactuals" / f"{what}.csv"
    print(f"{what}:", file=sys.stderr)
    write(out, rooms_for(case, solve(case, keep, objective), keep))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=HIDDEN.parent, help="package root")
    parser.add_argument("--data", type=Path, default=None, help="data folder (default ROOT/data)")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--ignore", choices=TARGETS)
    group.add_argument("--anchor", choices=sorted(ANCHORS))
    group.add_argument("--all", action="store_true")
    args = parser.parse_args()
    if args.all:
        for what in ["reference", *TARGETS, *ANCHORS]:
            run(args.root, args.data, what)
    else:
        run(args.root, args.data, args.ignore or args.anchor or "reference")


if __name__ == "__main__":
    main()
