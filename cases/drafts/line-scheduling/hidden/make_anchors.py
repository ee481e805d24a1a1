"""Write line-scheduling's admission anchors into hidden/anchors/.

- shortcut-due-date.csv: earliest cut-off first, each order onto the line that finishes it
  soonest - a dispatching rule, no optimisation;
- shortcut-campaign.csv: allergen-free before allergen and light to dark colours, each order
  onto the line that finishes it soonest - fewest flushes, due dates ignored.

Both respect the lines, the allergen rules and the maintenance but not the end of the week
(a dispatcher fills until the list is done), so on a full week they run past it. The baseline
(the planner's whiteboard plan: solver.py --mode due), the literal anchor (solver.py --ignore
literal) and the changeover-only shortcut (solver.py --ignore
changeovers_only: fewest changeover minutes, due dates ignored) come from the solver.

Usage: make_anchors.py [--params P] [--root ROOT]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from plant import Plant, load_plant  # noqa: E402
from solver import write_plan  # noqa: E402

FAMILY_ORDER = {"pale": 0, "yellow": 1, "red": 2, "dark": 3}


def dispatch(plant: Plant, sequence: list) -> list[dict]:
    """Place orders in the given sequence, each on the line where it ends earliest."""
    state = {l: (plant.lines[l].last_sku, 0) for l in plant.lines}
    plan = []
    for order in sequence:
        best = None
        for l in sorted(plant.lines):
            if not plant.may_run(order, l):
                continue
            prev, free = state[l]
            d = plant.run_minutes(order, l)
            start = free + plant.changeover(prev, order.sku, l)
            for a, b in sorted(plant.downtime(l)):
                if start < b and start + d > a:
                    start = b
            if best is None or start + d < best[2]:
                best = (l, start, start + d)
        l, start, end = best
        state[l] = (order.sku, end)
        plan.append({"order_id": order.order_id, "line_id": l, "start": start, "end": end})
    plan.sort(key=lambda r: (r["line_id"], r["start"]))
    return plan


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--params", type=Path, default=None)
    ap.add_argument("--root", type=Path, default=HERE.parent)
    args = ap.parse_args()
    params = json.loads((args.params or args.root / "hidden" / "params.json").read_text())
    plant = load_plant(args.root / "data", params)
    anchors = args.root / "hidden" / "anchors"
    by_due = sorted(plant.orders, key=lambda o: (plant.deadline(o), o.order_id))
    write_plan(plant, dispatch(plant, by_due), anchors / "shortcut-due-date.csv")
    by_colour = sorted(plant.orders, key=lambda o: (
        plant.has_allergen(o.sku), FAMILY_ORDER[plant.products[o.sku].family], o.sku,
        o.order_id))
    write_plan(plant, dispatch(plant, by_colour), anchors / "shortcut-campaign.csv")


if __name__ == "__main__":
    main()
