"""Reference solver of delivery-routing: OR-Tools vehicle routing with time windows.

``python cases/drafts/delivery-routing/hidden/solver.py`` writes ``hidden/reference.csv``;
``--ignore KEY`` writes ``hidden/counterfactuals/KEY.csv``, planned by someone who never
learned that target's answer (``READINGS``); ``--all`` writes the reference and every
counterfactual; ``--params P --root ROOT`` does it for a variant (docs/variants.md).

The planner's model: one round per van, the crates as capacity, the receiving windows as
hard windows on the arrival, chilled customers only on vans that can keep them cold, the
zone's customers not on the banned van, a customer left off every round goes with the
courier (its fee as the disjunction penalty), driver time as the span cost, km as the arc
cost, loading time and the hire fee as each van's fixed cost. The minimum paid shift is not
linear in the span, so the model is solved with a few extra fixed costs per van and the
round set the planner itself costs lowest is kept. Search limits are counts, not seconds,
so a rerun gives the same file.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

from ortools.constraint_solver import pywrapcp, routing_enums_pb2

HIDDEN_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(HIDDEN_DIR))

from rounds import DEPOT, Day, Rules, hhmm, load_day, tightest  # noqa: E402

#: Milli-euros: OR-Tools costs are integers.
SCALE = 1000
SOLUTION_LIMIT = 200

#: How a planner who never heard a target's answer reads the day.
READINGS = {
    "receiving_window": lambda r: r.but(window_from_opening=False),
    "lez_exemption_expired": lambda r: r.but(lez_van=None),
    "fridge_unit_down": lambda r: r.but(fridge_down_van=None),
    "address_moved": lambda r: r.but(moved_stop=None),
    "drop_time": lambda r: r.but(drop_fixed_min=5, drop_per_crate_min=0),
    "hire_van_fee": lambda r: r.but(hire_van=None, hire_fee_eur=0.0),
}


def literal(rules: Rules) -> Rules:
    """The request word for word: opening hours as the window, a few minutes a drop, every
    van anywhere, both fridges, the CRM address, cost as hours plus km."""
    for key in READINGS:
        rules = READINGS[key](rules)
    return rules


Plan = dict[str, list[str]]


def route(day: Day, solution_limit: int = SOLUTION_LIMIT, skip: set[str] | None = None) -> Plan:
    """One OR-Tools solve of the day under ``day.rules``; ``skip``: customers left to the
    courier before the solve."""
    stop_ids = sorted(set(day.stops) - (skip or set()))
    nodes = [DEPOT, *stop_ids]
    van_ids = sorted(day.vans)
    manager = pywrapcp.RoutingIndexManager(len(nodes), len(van_ids), 0)
    model = pywrapcp.RoutingModel(manager)

    def node(index: int) -> str:
        return nodes[manager.IndexToNode(index)]

    def travel(i: int, j: int) -> int:
        a, b = node(i), node(j)
        return (0 if a == DEPOT else day.drop(a)) + day.minutes[(a, b)]

    def arc_cost(i: int, j: int) -> int:
        return round(day.km[(node(i), node(j))] * day.km_eur * SCALE)

    time_cb = model.RegisterTransitCallback(travel)
    model.SetArcCostEvaluatorOfAllVehicles(model.RegisterTransitCallback(arc_cost))
    model.AddDimension(time_cb, 600, 24 * 60, False, "Time")
    time = model.GetDimensionOrDie("Time")
    per_min = day.driver_eur_per_min * SCALE
    free_span = max(0, day.rules.min_paid_min - day.rules.loading_min)
    for v, van in enumerate(van_ids):
        if van == day.rules.hire_van:
            # The hire firm's driver comes with the van: its day rate is all of it.
            model.SetFixedCostOfVehicle(round(day.fixed_eur(van) * SCALE), v)
        elif free_span:
            time.SetSoftSpanUpperBoundForVehicle(pywrapcp.BoundCost(free_span, round(per_min)), v)
            model.SetFixedCostOfVehicle(round(day.rules.min_paid_min * per_min), v)
        else:
            time.SetSpanCostCoefficientForVehicle(round(per_min), v)
            model.SetFixedCostOfVehicle(round(day.rules.loading_min * per_min), v)
        time.CumulVar(model.Start(v)).SetRange(day.ready, day.back_by)
        time.CumulVar(model.End(v)).SetRange(day.ready, day.back_by)
    demand_cb = model.RegisterUnaryTransitCallback(
        lambda i: 0 if node(i) == DEPOT else day.crates(node(i)))
    model.AddDimensionWithVehicleCapacity(
        demand_cb, 0, [int(day.vans[v]["capacity_crates"]) for v in van_ids], True, "Crates")
    courier = round(day.courier_eur * SCALE)
    for stop in stop_ids:
        index = manager.NodeToIndex(nodes.index(stop))
        start, end = day.window(stop)
        time.CumulVar(index).SetRange(start, end)
        for v, van in enumerate(van_ids):
            if not day.may_enter(van, stop) or (day.chilled(stop) and not day.may_carry_chilled(van)):
                model.VehicleVar(index).RemoveValue(v)
        model.AddDisjunction([index], courier)
    for v in range(len(van_ids)):
        model.AddVariableMinimizedByFinalizer(time.CumulVar(model.Start(v)))
        model.AddVariableMaximizedByFinalizer(time.CumulVar(model.End(v)))
    search = pywrapcp.DefaultRoutingSearchParameters()
    search.first_solution_strategy = routing_enums_pb2.FirstSolutionStrategy.PARALLEL_CHEAPEST_INSERTION
    search.local_search_metaheuristic = routing_enums_pb2.LocalSearchMetaheuristic.GUIDED_LOCAL_SEARCH
    search.solution_limit = solution_limit
    search.time_limit.seconds = 120
    solution = model.SolveWithParameters(search)
    if solution is None:
        raise SystemExit("no routing solution")
    plan: Plan = {}
    for v, van in enumerate(van_ids):
        index, stops = solution.Value(model.NextVar(model.Start(v))), []
        while not model.IsEnd(index):
            stops.append(node(index))
            index = solution.Value(model.NextVar(index))
        if stops:
            plan[van] = stops
    return plan


def believed_cost(day: Day, plan: Plan) -> float:
    """What the plan costs in the planner's own reading of the day."""
    total = (len(day.stops) - sum(len(s) for s in plan.values())) * day.courier_eur
    for van, stops in plan.items():
        done = tightest(day, van, stops)
        total += done.cost_eur + (1e6 if done.late or done.back > day.back_by else 0.0)
    return total


def best_plan(day: Day) -> Plan:
    return route(day)


def rows_of(day: Day, plan: Plan) -> list[list[str | int]]:
    rows = []
    for van in sorted(plan):
        done = tightest(day, van, plan[van])
        for seq, (stop, arrive) in enumerate(zip(done.stops, done.arrivals, strict=True), 1):
            rows.append([van, seq, stop, hhmm(arrive)])
    return rows


def write_rows(path: Path, rows: list[list[str | int]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["van_id", "seq", "stop_id", "planned_arrival"])
        writer.writerows(rows)


def solve_to(root: Path, rules: Rules, path: Path) -> None:
    day = load_day(root / "data", rules)
    plan = best_plan(day)
    write_rows(path, rows_of(day, plan))
    print(f"{path.name}: {len(plan)} vans, {sum(len(s) for s in plan.values())} drops, "
          f"believed {believed_cost(day, plan):.2f} EUR")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--params", type=Path, default=HIDDEN_DIR / "params.json")
    parser.add_argument("--root", type=Path, default=HIDDEN_DIR.parent)
    parser.add_argument("--ignore", choices=sorted(READINGS))
    parser.add_argument("--all", action="store_true", help="reference and every counterfactual")
    args = parser.parse_args()
    params = json.loads(args.params.read_text(encoding="utf-8"))
    truth = Rules.truth(params)
    hidden = args.root / "hidden"
    keys = [None, *sorted(READINGS)] if args.all else [args.ignore]
    for key in keys:
        if key is None:
            solve_to(args.root, truth, hidden / "reference.csv")
        else:
            solve_to(args.root, READINGS[key](truth), hidden / "counterfactuals" / f"{key}.csv")


if __name__ == "__main__":
    main()
