"""Reference solver of line-scheduling: OR-Tools CP-SAT over the week's filling plan.

Each order gets one optional interval per line it may run on; each line's orders form a
circuit from the line's state at the end of last week (``last_sku_run``), and an arc i -> j
forces the gap the changeover needs (colour flush, format change, allergen clean), so the
circuit is a no-overlap with sequence-dependent transition times. Maintenance is a fixed
interval in the line's no-overlap; the week ends at the last staffed shift. Objective: the
plan's cost in GBP (late orders and changeover minutes, hidden/params.json).

``--ignore KEY`` solves with the beliefs of a player who missed that target
(plant.belief) and writes hidden/counterfactuals/KEY.csv; ``--ignore literal`` misses them all
(the literal anchor). The search is single-threaded with a deterministic time budget, so the
files rebuild identically.

Usage: solver.py [--params P] [--root ROOT] [--ignore KEY] [--out FILE]
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

from ortools.sat.python import cp_model

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from plant import Plant, belief, load_plant  # noqa: E402

DET_TIME = 60.0


FAMILY_ORDER = {"pale": 0, "yellow": 1, "red": 2, "dark": 3}


def whiteboard_key(plant: Plant, mode: str):
    """The order a planner works down the whiteboard in (modes other than ``cost``)."""
    if mode == "due":
        return lambda o: (plant.deadline(o), o.order_id)
    if mode == "colour":
        return lambda o: (plant.has_allergen(o.sku), FAMILY_ORDER[plant.products[o.sku].family],
                          o.sku, o.order_id)
    raise KeyError(mode)


def solve(plant: Plant, det_time: float = DET_TIME, hint: dict | None = None,
          mode: str = "cost", force_clean: bool = False) -> list[dict]:
    """``mode`` "cost": the reference (cheapest plan, then filled late). "due" / "colour": a
    hand plan - each line works through its orders in due-date (or light-to-dark, milk last)
    order, every order as early as it can go - for the baseline and a shortcut anchor.
    ``force_clean``: the cheapest plan with at least one allergen clean between two orders
    (make_value_probes.py, when the reference needs none)."""
    rank = None
    if mode != "cost":
        key = whiteboard_key(plant, mode)
        rank = {o.order_id: n for n, o in enumerate(sorted(plant.orders, key=key))}
    m = cp_model.CpModel()
    orders = plant.orders
    horizon = plant.week_end
    lines = sorted(plant.lines)
    x, s, e = {}, {}, {}
    per_line = {l: [] for l in lines}
    for i, o in enumerate(orders):
        options = [l for l in lines if plant.may_run(o, l)]
        if not options:
            raise SystemExit(f"{o.order_id} can run on no line")
        for l in options:
            d = plant.run_minutes(o, l)
            x[i, l] = m.NewBoolVar(f"x{i}{l}")
            s[i, l] = m.NewIntVar(0, max(0, horizon - d), f"s{i}{l}")
            e[i, l] = m.NewIntVar(d, horizon, f"e{i}{l}")
            per_line[l].append(i)
        m.AddExactlyOne(x[i, l] for l in options)

    setup_cost = []
    arc_var = {}
    clean_arcs = []
    for l in lines:
        members = per_line[l]
        intervals = [m.NewOptionalIntervalVar(s[i, l], plant.run_minutes(orders[i], l), e[i, l],
                                              x[i, l], f"iv{i}{l}") for i in members]
        for a, b in plant.downtime(l):
            intervals.append(m.NewIntervalVar(a, b - a, b, f"down{l}{a}"))
        m.AddNoOverlap(intervals)
        arcs = []
        empty = m.NewBoolVar(f"empty{l}")
        arcs.append((0, 0, empty))
        m.AddBoolOr([x[i, l] for i in members] + [empty])
        for i in members:
            arcs.append((i + 1, i + 1, x[i, l].Not()))
            m.Add(empty == 0).OnlyEnforceIf(x[i, l])
            first = m.NewBoolVar(f"f{l}{i}")
            last = m.NewBoolVar(f"z{l}{i}")
            arcs += [(0, i + 1, first), (i + 1, 0, last)]
            arc_var[l, -1, i], arc_var[l, i, -1] = first, last
            c0 = plant.changeover(plant.lines[l].last_sku, orders[i].sku, l)
            m.Add(s[i, l] >= c0).OnlyEnforceIf(first)
            setup_cost.append(c0 * first)
            for j in members:
                if i == j:
                    continue
                if rank and rank[orders[j].order_id] < rank[orders[i].order_id]:
                    continue
                lit = m.NewBoolVar(f"a{l}{i}_{j}")
                arcs.append((i + 1, j + 1, lit))
                arc_var[l, i, j] = lit
                c = plant.changeover(orders[i].sku, orders[j].sku, l)
                m.Add(s[j, l] >= e[i, l] + c).OnlyEnforceIf(lit)
                if c:
                    setup_cost.append(c * lit)
                if force_clean and plant.allergen_clean(orders[i].sku, orders[j].sku):
                    clean_arcs.append(lit)   # and no slack: the probe sits on the clean
                    m.Add(s[j, l] == e[i, l] + c).OnlyEnforceIf(lit)
        m.AddCircuit(arcs)
    if force_clean:
        m.AddBoolOr(clean_arcs)

    late, tardy = [], []
    for i, o in enumerate(orders):
        due = plant.deadline(o)
        if due >= horizon:
            continue
        flag = m.NewBoolVar(f"late{i}")
        for l in lines:
            if (i, l) in x:
                m.Add(e[i, l] <= due).OnlyEnforceIf([x[i, l], flag.Not()])
        late.append(flag)
        if plant.params.get("tardiness_objective"):
            t = m.NewIntVar(0, horizon, f"t{i}")
            for l in lines:
                if (i, l) in x:
                    m.Add(t >= e[i, l] - due).OnlyEnforceIf(x[i, l])
            tardy.append(t)

    late_gbp = int(round(float(plant.params["late_order_gbp"])))
    co_gbp = int(round(float(plant.params["changeover_gbp_per_min"])))
    if plant.params.get("tardiness_objective"):
        # A player who read "late" and "changeover time" as minutes of each, summed.
        cost = sum(tardy) + sum(setup_cost)
    else:
        cost = late_gbp * sum(late) + co_gbp * sum(setup_cost)
    if mode == "cost":
        m.Minimize(cost)
    else:
        # absent intervals' ends are free: weigh the present one through a per-order end
        finish = []
        for i in range(len(orders)):
            f = m.NewIntVar(0, horizon, f"fin{i}")
            for l in lines:
                if (i, l) in x:
                    m.Add(f == e[i, l]).OnlyEnforceIf(x[i, l])
            finish.append(f)
        m.Minimize(sum(finish))

    if hint:
        _add_hint(m, plant, hint, x, s, arc_var)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 7
    solver.parameters.max_deterministic_time = det_time
    status = solver.Solve(m)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise SystemExit(f"no plan found ({solver.StatusName(status)})")
    print(f"  {solver.StatusName(status)} objective {solver.ObjectiveValue():.0f} "
          f"bound {solver.BestObjectiveBound():.0f}", file=sys.stderr)
    plan = []
    for (i, l), var in x.items():
        if solver.Value(var):
            start = solver.Value(s[i, l])
            plan.append({"order_id": orders[i].order_id, "line_id": l, "start": start,
                         "end": start + plant.run_minutes(orders[i], l)})
    plan.sort(key=lambda r: (r["line_id"], r["start"]))
    return right_shift(plant, plan) if mode == "cost" else plan


def right_shift(plant: Plant, plan: list[dict]) -> list[dict]:
    """Same lines, sequences and late orders, each run as late as its line allows.

    Fresh juice is filled as close to despatch as the week permits, so among plans of one cost
    the reference fills late: walking each line back from the end of the week, an order ends
    at the next order's start less the changeover between them (or the week's end), no later
    than its cut-off if it was on time, and before any maintenance window it would overlap.
    The evaluator does not score this; it only picks one of the equally good plans.
    """
    index = {o.order_id: o for o in plant.orders}
    out = []
    for l in sorted(plant.lines):
        seq = [dict(r) for r in plan if r["line_id"] == l]
        limit, after = plant.week_end, None
        for r in reversed(seq):
            order = index[r["order_id"]]
            d = r["end"] - r["start"]
            end = limit if after is None else min(
                limit, after["start"] - plant.changeover(order.sku, index[after["order_id"]].sku, l))
            if r["end"] <= plant.deadline(order):
                end = min(end, plant.deadline(order))
            moved = True
            while moved:
                moved = False
                for a, b in plant.downtime(l):
                    if end - d < b and end > a:
                        end, moved = a, True
            end = max(end, r["end"])
            r["start"], r["end"] = end - d, end
            after = r
        out += seq
    out.sort(key=lambda r: (r["line_id"], r["start"]))
    return out


def _add_hint(m, plant: Plant, hint: list[dict], x, s, arc_var) -> None:
    """Warm start from a plan (order_id, line_id, start minute) that is feasible here."""
    index = {o.order_id: i for i, o in enumerate(plant.orders)}
    chosen = {(index[r["order_id"]], r["line_id"]) for r in hint}
    for key, var in x.items():
        m.AddHint(var, 1 if key in chosen else 0)
    for r in hint:
        m.AddHint(s[index[r["order_id"]], r["line_id"]], r["start"])
    used = set()
    for l in plant.lines:
        seq = [-1] + [index[r["order_id"]] for r in sorted(
            (r for r in hint if r["line_id"] == l), key=lambda r: r["start"])] + [-1]
        if len(seq) > 2:
            used |= {(l, a, b) for a, b in zip(seq, seq[1:])}
    for key, var in arc_var.items():
        m.AddHint(var, 1 if key in used else 0)


def read_plan(plant: Plant, path: Path) -> list[dict]:
    from datetime import datetime
    with path.open(newline="", encoding="utf-8") as handle:
        return [{"order_id": r["order_id"], "line_id": r["line_id"],
                 "start": int(plant.minute(datetime.fromisoformat(r["start"]))),
                 "end": int(plant.minute(datetime.fromisoformat(r["end"])))}
                for r in csv.DictReader(handle)]


def write_plan(plant: Plant, plan: list[dict], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        w = csv.writer(handle, lineterminator="\n")
        w.writerow(["order_id", "line_id", "start", "end"])
        for r in plan:
            w.writerow([r["order_id"], r["line_id"],
                        plant.stamp(r["start"]).strftime("%Y-%m-%dT%H:%M"),
                        plant.stamp(r["end"]).strftime("%Y-%m-%dT%H:%M")])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--params", type=Path, default=None)
    ap.add_argument("--root", type=Path, default=HERE.parent)
    ap.add_argument("--ignore", default=None)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--det-time", type=float, default=DET_TIME)
    ap.add_argument("--mode", default="cost", choices=["cost", "due", "colour"])
    ap.add_argument("--hint", type=Path, default=None,
                    help="warm start from this plan (must be feasible under the beliefs)")
    args = ap.parse_args()
    params_path = args.params or args.root / "hidden" / "params.json"
    params = json.loads(params_path.read_text(encoding="utf-8"))
    plant = load_plant(args.root / "data", belief(params, args.ignore))
    hint = read_plan(plant, args.hint) if args.hint else None
    plan = solve(plant, args.det_time, hint, args.mode)
    if args.out:
        out = args.out
    elif args.ignore == "literal":
        out = args.root / "hidden" / "anchors" / "literal.csv"
    elif args.ignore:
        out = args.root / "hidden" / "counterfactuals" / f"{args.ignore}.csv"
    else:
        out = args.root / "hidden" / "reference.csv"
    write_plan(load_plant(args.root / "data", params), plan, out)


if __name__ == "__main__":
    main()
