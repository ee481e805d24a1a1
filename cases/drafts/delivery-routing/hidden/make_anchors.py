"""Write the admission anchors of delivery-routing (cases/README.md, "Authoring a case").

``python cases/drafts/delivery-routing/hidden/make_anchors.py`` writes ``hidden/anchors/``;
``--params P --root ROOT`` does it for a variant.

- ``baseline.csv``: no van goes out, every customer gets the courier (the do-nothing plan).
- ``literal.csv``: the request read word for word (``solver.literal``): the opening hours as
  the delivery window, a few minutes a drop, any van anywhere, the addresses as listed.
- ``shortcut-districts-first.csv``: cluster first, route second: whole districts per van,
  each round solved alone (all rules kept).
- ``shortcut-earliest-first.csv``: a dispatcher's greedy sheet: customers by the time their
  window closes, each appended to the van that can still make it soonest (all rules kept),
  the courier for the rest.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

HIDDEN_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(HIDDEN_DIR))

from rounds import Day, Rules, load_day, tightest  # noqa: E402
from solver import Plan, literal, route, rows_of, write_rows  # noqa: E402


def earliest_first(day: Day) -> Plan:
    """Greedy: by window end, append each customer to the van already out whose round
    (re-timed) stays on time and back in time and grows least; else send the next own van
    out; the courier when no van can take it."""
    plan: Plan = {}
    own = [van for van in sorted(day.vans) if van != day.rules.hire_van]
    for stop in sorted(day.stops, key=lambda s: (day.window(s)[1], s)):
        fits = []
        for van in own:
            if not day.may_enter(van, stop) or (day.chilled(stop) and not day.may_carry_chilled(van)):
                continue
            stops = [*plan.get(van, []), stop]
            if sum(day.crates(s) for s in stops) > int(day.vans[van]["capacity_crates"]):
                continue
            after = tightest(day, van, stops)
            if after.late or after.back > day.back_by:
                continue
            before = tightest(day, van, plan[van]).cost_eur if plan.get(van) else None
            fits.append((before is None, after.cost_eur - (before or 0.0), van))
        if fits:
            plan.setdefault(min(fits)[2], []).append(stop)
    return plan


def districts_first(day: Day) -> Plan:
    """Cluster first, route second: each own van takes whole districts (the ones nearest the
    depot to the biggest van first, filling it up by crates), then each van's round is
    solved alone; customers a van may not take go with the courier."""
    own = sorted((van for van in day.vans if van != day.rules.hire_van),
                 key=lambda v: (-int(day.vans[v]["capacity_crates"]), v))
    by_district: dict[str, list[str]] = {}
    for stop in sorted(day.stops):
        by_district.setdefault(day.stops[stop]["district"], []).append(stop)
    order = sorted(by_district, key=lambda d: (min(day.minutes[("DEPOT", s)] for s in by_district[d]), d))
    plan: Plan = {}
    load = {van: 0 for van in own}
    for district in order:
        crates = sum(day.crates(s) for s in by_district[district])
        van = next((v for v in own if load[v] + crates <= int(day.vans[v]["capacity_crates"])), None)
        if van is None:
            continue
        load[van] += crates
        allowed = [s for s in by_district[district] if day.may_enter(van, s)
                   and (not day.chilled(s) or day.may_carry_chilled(van))]
        plan.setdefault(van, []).extend(allowed)
    solved: Plan = {}
    for van, stops in plan.items():
        alone = replace(day, vans={van: day.vans[van]})
        solved.update(route(alone, skip=set(day.stops) - set(stops)))
    return solved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--params", type=Path, default=HIDDEN_DIR / "params.json")
    parser.add_argument("--root", type=Path, default=HIDDEN_DIR.parent)
    args = parser.parse_args()
    params = json.loads(args.params.read_text(encoding="utf-8"))
    out = args.root / "hidden" / "anchors"
    truth = load_day(args.root / "data", Rules.truth(params))
    write_rows(out / "baseline.csv", [])
    naive = load_day(args.root / "data", literal(Rules.truth(params)))
    write_rows(out / "literal.csv", rows_of(naive, route(naive)))
    write_rows(out / "shortcut-districts-first.csv", rows_of(truth, districts_first(truth)))
    write_rows(out / "shortcut-earliest-first.csv", rows_of(truth, earliest_first(truth)))


if __name__ == "__main__":
    main()
