"""Hidden evaluator of line-scheduling: the cost of a week's filling plan under the plant's
real rules.

The plan gives each production order a line and a start and end (plant local time). Value
(GBP, lower is better): late orders x the late-order cost + changeover minutes x the cost of
a changeover minute (hidden/params.json). An order is late when it comes off the line after
its cut-off (the delivery date's despatch cut-off, plant.deadline). Changeover minutes are
what each order's predecessor on the line (or last week's final product) requires before it,
allergen clean included; idle time beyond that costs nothing.

Hard rules (violations, keyed by the target that holds them):

- rate_in_bottles: a run shorter than the order's filling time (bottles = cases x bottles per
  case, at the line's rate in bottles a minute);
- allergen_line_approval: a product with the allergen on a line QA has not approved for it;
- allergen_clean: after a product with the allergen, a gap too short for the changeover
  including the allergen clean before a product without it;
- maintenance_window: a run overlapping a line's planned maintenance;
- friday_no_night: a run ending after the last staffed shift of the week;
- changeover_time / line_overlap / line_format / planning_week / order_book: rules the request
  and the data state (matrix gaps, one order at a time, formats, the week, every order once).

late_order_cost and due_is_delivery_date change the value only.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from evaluators.api import Assessment, Submission, ViolationCollector
from plant import Plant, load_params, load_plant


def _read(submission: Submission, plant: Plant) -> tuple[list[dict[str, Any]], str | None]:
    known = {o.order_id: o for o in plant.orders}
    rows, seen = [], set()
    for index, row in enumerate(submission.rows):
        line_no = submission.line_of(index)
        oid = str(row.get("order_id", "")).strip()
        if oid not in known:
            return [], f"Line {line_no}: {oid!r} is not an order in data/orders.csv."
        if oid in seen:
            return [], f"Line {line_no}: order {oid} is planned twice; plan each order once."
        seen.add(oid)
        line_id = str(row.get("line_id", "")).strip()
        if line_id not in plant.lines:
            return [], f"Line {line_no}: {line_id!r} is not one of our filling lines."
        times = []
        for col in ("start", "end"):
            value = row.get(col)
            if isinstance(value, str):
                try:
                    value = datetime.fromisoformat(value.strip().replace(" ", "T", 1))
                except ValueError:
                    return [], f"Line {line_no}: {col} {value!r} is not a date and time."
            if not isinstance(value, datetime):
                return [], f"Line {line_no}: {col} is missing."
            if value.tzinfo is not None:
                return [], (f"Line {line_no}: {col} carries a UTC offset; the MES takes plant "
                            "local times without an offset (e.g. 2025-10-06T06:00).")
            times.append(plant.minute(value))
        if times[1] <= times[0]:
            return [], f"Line {line_no}: order {oid} ends before it starts."
        rows.append({"order": known[oid], "line": line_id, "start": times[0],
                     "end": times[1], "row": line_no})
    return rows, None


def evaluate(submission: Submission, data_dir: Path, hidden_dir: Path) -> Assessment:
    params = load_params(hidden_dir)
    plant = load_plant(data_dir, params)
    rows, fatal = _read(submission, plant)
    if fatal:
        return Assessment(fatal=fatal)
    v = ViolationCollector()
    eps = 1e-6
    planned = {r["order"].order_id for r in rows}
    for order in plant.orders:
        if order.order_id not in planned:
            v.add("order_book", "Every order in the order book has to be planned this week.",
                  {"order_id": order.order_id})
    week_end = plant.week_end
    for r in rows:
        o, line, ex = r["order"], r["line"], {"line": r["row"], "order_id": r["order"].order_id}
        product = plant.products[o.sku]
        if product.bottle_ml not in plant.lines[line].rate_per_min:
            v.add("line_format", "The line cannot fill this bottle size.", ex)
            continue
        if plant.has_allergen(o.sku) and line in params["allergen_barred_lines"]:
            v.add("allergen_line_approval",
                  "This product contains an allergen the line is not approved to run.", ex)
        if r["end"] - r["start"] < plant.run_minutes(o, line) - eps:
            v.add("rate_in_bottles",
                  "The run is shorter than the time the line needs to fill the order.",
                  {**ex, "planned_min": round(r["end"] - r["start"]),
                   "needed_min": plant.run_minutes(o, line)})
        if r["start"] < -eps:
            v.add("planning_week", "The run starts before the week's first shift.", ex)
        if r["end"] > week_end + eps:
            v.add("friday_no_night", "The run goes on after the last shift of the week.", ex)
        for a, b in plant.downtime(line):
            if r["start"] < b - eps and r["end"] > a + eps:
                v.add("maintenance_window",
                      "The run overlaps the line's planned maintenance.", ex)

    changeover_min, late = 0, []
    for line in sorted(plant.lines):
        seq = sorted((r for r in rows if r["line"] == line), key=lambda r: r["start"])
        prev_sku, prev_end = plant.lines[line].last_sku, 0.0
        for r in seq:
            sku = r["order"].sku
            need = plant.changeover(prev_sku, sku, line)
            clean = plant.allergen_clean(prev_sku, sku)
            gap = r["start"] - prev_end
            ex = {"line": r["row"], "order_id": r["order"].order_id,
                  "gap_min": round(gap), "after": prev_sku}
            if gap < -eps:
                v.add("line_overlap", "Two orders overlap on one line.", ex)
            elif gap < need - clean - eps:
                v.add("changeover_time",
                      "The gap before this order is shorter than the changeover it needs.", ex)
            elif gap < need - eps:
                v.add("allergen_clean",
                      "The gap after the allergen product is too short for the changeover.", ex)
            changeover_min += need
            prev_sku, prev_end = sku, r["end"]
    for r in rows:
        if r["end"] > plant.deadline(r["order"]) + eps:
            late.append(r["order"].order_id)
    if v:
        return Assessment(violations=v.violations())
    value = plant.cost(len(late), changeover_min)
    return Assessment(value=round(value, 2), details={
        "late_orders": len(late), "changeover_minutes": changeover_min,
        "late_order_ids": ", ".join(sorted(late))})
