"""Evaluator of the grocery-forecast case: next week's day-fresh orders against real demand.

Greenvale Markets judges an order plan the way its finance team judges a week of fresh
trading (hidden/information.md):

1. Fatal: the plan must be for the forecast week, the stores of ``stores.csv`` and the lines
   of ``products.csv``, one order per store, line and trading day. Without that the depot
   cannot book it.
2. Constraints: nothing may be ordered for a store on a day it is closed (``closure``), and
   every open store must get at least the display minimum of every line every day
   (``min_display_units`` items, rounded up to whole cases). Either breach is refused by store
   operations, whatever it would cost.
3. Value: the week's cost in EUR, lower is better. Orders are in cases of ``case_size`` items;
   each item left at close is waste, valued at its unit cost, except for the sale-or-return
   supplier's lines, where the supplier takes it back for a handling fee; each item a customer
   wanted but could not find is a lost sale, valued at its margin (shelf price minus unit cost).

A plan whose deliveries exceed three times the week's demand is scored but flagged as an
incident: the depot would ship it and the stores would bin most of it.
"""

from __future__ import annotations

import csv
import json
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from evaluators.api import Assessment, Submission, ViolationCollector

INCIDENT_FACTOR = 3.0


def evaluate(submission: Submission, data_dir: Path, hidden_dir: Path) -> Assessment:
    params = json.loads((hidden_dir / "params.json").read_text(encoding="utf-8"))
    products = {row["product_id"]: row for row in _read(data_dir / "products.csv")}
    stores = [row["store_id"] for row in _read(data_dir / "stores.csv")]
    first = date.fromisoformat(params["forecast_start"])
    days = [(first + timedelta(days=i)).isoformat() for i in range(7)]
    closed = (params["closure"]["store_id"], params["closure"]["date"])
    demand = {
        (row["store_id"], row["product_id"], row["date"]): int(row["demand_units"])
        for row in _read(hidden_dir / "truth" / "demand.csv")
    }

    orders, fatal = _orders(submission.rows, stores, products, days)
    if fatal:
        return Assessment(fatal=fatal)
    missing = [
        key for key in demand if key not in orders and (key[0], key[2]) != closed
    ]
    if missing:
        examples = ", ".join(f"{s} {p} {d}" for s, p, d in sorted(missing)[:3])
        return Assessment(
            fatal=f"The plan has no order for {len(missing)} store, product and day "
            f"combinations (e.g. {examples}). The depot needs a line for every store, product "
            "and trading day of the week, with 0 where nothing should come."
        )

    collector = ViolationCollector()
    min_units = int(params["min_display_units"])
    for key, (quantity, line) in sorted(orders.items(), key=lambda item: item[1][1]):
        store, product, day = key
        example = {"line": line, "store_id": store, "product_id": product, "date": day,
                   "order_qty": quantity}
        if (store, day) == closed:
            if quantity > 0:
                collector.add(
                    "store_closure",
                    "The plan sends fresh stock to a store that cannot take a delivery that "
                    "day; the depot would refuse the drop.",
                    example,
                )
            continue
        if quantity * int(products[product]["case_size"]) < min_units:
            collector.add(
                "min_display",
                "The plan leaves a line below the display standard store operations sets "
                "for every open store at opening; the stores would not accept it.",
                example,
            )
    if collector:
        return Assessment(violations=collector.violations())
    return Assessment(**_cost(orders, demand, products, params))


def _orders(
    rows: list[dict[str, Any]], stores: list[str], products: dict[str, dict], days: list[str]
) -> tuple[dict[tuple[str, str, str], tuple[int, int]], str | None]:
    """Orders keyed by (store, product, day) with their file line, or why they cannot be read."""
    orders: dict[tuple[str, str, str], tuple[int, int]] = {}
    for index, row in enumerate(rows):
        line = Submission.line_of(index)
        store = str(row.get("store_id", "")).strip()
        product = str(row.get("product_id", "")).strip()
        day = str(row.get("date", "")).strip()
        if store not in stores:
            return {}, f"Line {line}: '{store}' is not one of our stores (see stores.csv)."
        if product not in products:
            return {}, f"Line {line}: '{product}' is not a day-fresh line (see products.csv)."
        if day not in days:
            return {}, (
                f"Line {line}: {day} is not a day of the forecast week ({days[0]} to "
                f"{days[-1]}); we only need next week's orders."
            )
        key = (store, product, day)
        if key in orders:
            return {}, f"Line {line}: a second order for {store} {product} on {day}."
        orders[key] = (int(row["order_qty"]), line)
    return orders, None


def _cost(
    orders: dict[tuple[str, str, str], tuple[int, int]],
    demand: dict[tuple[str, str, str], int],
    products: dict[str, dict],
    params: dict,
) -> dict[str, Any]:
    waste_eur = lost_eur = 0.0
    waste_units = lost_units = supplied_total = 0
    for key, wanted in demand.items():
        product = products[key[1]]
        quantity = orders.get(key, (0, 0))[0]
        supplied = quantity * int(product["case_size"])
        price, cost = float(product["shelf_price_eur"]), float(product["unit_cost_eur"])
        waste_value = (
            float(params["handling_fee_eur"])
            if product["supplier"] == params["sale_or_return_supplier"]
            else cost
        )
        left, short = max(0, supplied - wanted), max(0, wanted - supplied)
        waste_units += left
        lost_units += short
        supplied_total += supplied
        waste_eur += left * waste_value
        lost_eur += short * (price - cost)
    total_demand = sum(demand.values())
    details: dict[str, Any] = {
        "waste_eur": round(waste_eur, 2),
        "lost_sales_eur": round(lost_eur, 2),
        "waste_units": waste_units,
        "lost_units": lost_units,
        "delivered_units": supplied_total,
        "demand_units": total_demand,
        "availability": round(1 - lost_units / total_demand, 4) if total_demand else 1.0,
    }
    if supplied_total > INCIDENT_FACTOR * total_demand:
        details["incident"] = (
            "the plan delivers more than three times the week's demand: most of it would be "
            "binned"
        )
    return {"value": round(waste_eur + lost_eur, 2), "details": details}


def _read(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))
