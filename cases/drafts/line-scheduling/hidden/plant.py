"""The filling hall's rules, read once from data/ and hidden/params.json.

Shared by the evaluator, the reference solver and the anchor script, so all three judge a
plan the same way. ``belief(params, ignore)`` gives the params a player who missed one rule
would plan with; the solver runs on those to write that rule's counterfactual.

Times are minutes after the planning week's first shift start (Monday 06:00 plant time).
"""

from __future__ import annotations

import copy
import csv
import json
import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any


def read_rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def load_params(hidden_dir: Path) -> dict[str, Any]:
    return json.loads((Path(hidden_dir) / "params.json").read_text(encoding="utf-8"))


@dataclass(frozen=True)
class Product:
    sku: str
    description: str
    family: str
    bottle_ml: int
    bottles_per_case: int
    allergens: str


@dataclass(frozen=True)
class Order:
    order_id: str
    customer: str
    sku: str
    cases: int
    due_date: str


@dataclass(frozen=True)
class Line:
    line_id: str
    rate_per_min: dict[int, float]   # bottle_ml -> rate as the line sheet states it
    format_change_min: int
    last_sku: str


@dataclass
class Plant:
    """Everything a plan is judged against (rules as the params say)."""

    params: dict[str, Any]
    week_start: datetime
    products: dict[str, Product]
    orders: list[Order]
    lines: dict[str, Line]
    matrix: dict[tuple[str, str], int]

    # -- time ---------------------------------------------------------------------------
    def minute(self, stamp: datetime) -> float:
        return (stamp - self.week_start).total_seconds() / 60.0

    def stamp(self, minute: int) -> datetime:
        return self.week_start + timedelta(minutes=minute)

    @property
    def week_end(self) -> int:
        """Last minute a line may run: the end of the last staffed shift."""
        return int(self.minute(datetime.fromisoformat(self.params["week_end"])))

    def downtime(self, line_id: str) -> list[tuple[int, int]]:
        out = []
        for window in self.params.get("maintenance", []):
            if window["line"] == line_id:
                out.append((int(self.minute(datetime.fromisoformat(window["start"]))),
                            int(self.minute(datetime.fromisoformat(window["end"])))))
        return out

    def deadline(self, order: Order) -> int:
        """Minute by which the order must be off the line to count as on time."""
        rule = self.params["deadline"]
        day = datetime.fromisoformat(order.due_date + "T00:00")
        cut = day - timedelta(days=int(rule["days_before"]))
        hh, mm = rule["time"].split(":")
        cut = cut.replace(hour=int(hh), minute=int(mm))
        return int(self.minute(cut))

    # -- products and lines ---------------------------------------------------------------
    def has_allergen(self, sku: str) -> bool:
        return self.params["allergen"] in self.products[sku].allergens.split(";")

    def may_run(self, order: Order, line_id: str) -> bool:
        product = self.products[order.sku]
        line = self.lines[line_id]
        if product.bottle_ml not in line.rate_per_min:
            return False
        if self.has_allergen(order.sku) and line_id in self.params["allergen_barred_lines"]:
            return False
        return True

    def run_minutes(self, order: Order, line_id: str) -> int:
        """Filling time of the order on the line, whole minutes rounded up."""
        product = self.products[order.sku]
        rate = self.lines[line_id].rate_per_min[product.bottle_ml]
        units = order.cases * product.bottles_per_case if self.params["rate_unit"] == "bottles" \
            else order.cases
        return int(math.ceil(units / rate - 1e-9))

    def changeover(self, before: str, after: str, line_id: str) -> int:
        """Minutes the line stands between the end of ``before`` and the start of ``after``."""
        if before == after:
            return 0
        a, b = self.products[before], self.products[after]
        minutes = self.matrix[(a.family, b.family)]
        if a.bottle_ml != b.bottle_ml:
            minutes += self.lines[line_id].format_change_min
        minutes += self.allergen_clean(before, after)
        return minutes

    def allergen_clean(self, before: str, after: str) -> int:
        if before != after and self.has_allergen(before) and not self.has_allergen(after):
            return int(self.params["allergen_clean_min"])
        return 0

    def cost(self, late_orders: int, changeover_min: int) -> float:
        return (late_orders * float(self.params["late_order_gbp"])
                + changeover_min * float(self.params["changeover_gbp_per_min"]))


def load_plant(data_dir: Path, params: dict[str, Any]) -> Plant:
    data_dir = Path(data_dir)
    products = {}
    for row in read_rows(data_dir / "products.csv"):
        products[row["sku"]] = Product(row["sku"], row["description"], row["family"],
                                       int(row["bottle_ml"]), int(row["bottles_per_case"]),
                                       row["allergens"].strip())
    orders = [Order(r["order_id"], r["customer"], r["sku"], int(r["quantity_cases"]),
                    r["due_date"]) for r in read_rows(data_dir / "orders.csv")]
    lines = {}
    for row in read_rows(data_dir / "lines.csv"):
        rates = {}
        for key, value in row.items():
            if key.startswith("rate_") and value.strip():
                rates[int(key.split("_")[1].rstrip("ml"))] = float(value)
        lines[row["line_id"]] = Line(row["line_id"], rates, int(row["format_change_min"]),
                                     row["last_sku_run"])
    matrix = {(r["from_family"], r["to_family"]): int(r["minutes"])
              for r in read_rows(data_dir / "changeovers.csv")}
    start = datetime.fromisoformat(params["week_start"])
    return Plant(params, start, products, orders, lines, matrix)


#: What a player who missed each target would plan with (the counterfactual's beliefs).
def belief(params: dict[str, Any], ignore: str | None) -> dict[str, Any]:
    p = copy.deepcopy(params)
    if ignore is None:
        return p
    if ignore == "rate_in_bottles":
        p["rate_unit"] = "cases"
    elif ignore == "allergen_line_approval":
        p["allergen_barred_lines"] = []
    elif ignore == "allergen_clean":
        p["allergen_clean_min"] = 0
    elif ignore == "maintenance_window":
        p["maintenance"] = []
    elif ignore == "friday_no_night":
        p["week_end"] = p["literal_week_end"]
    elif ignore == "late_order_cost":
        p["tardiness_objective"] = True
    elif ignore == "due_is_delivery_date":
        p["deadline"] = {"days_before": -1, "time": "00:00"}
    elif ignore == "changeovers_only":
        # Not a target: the shortcut that campaigns for the fewest changeover minutes and
        # lets the due dates fall where they fall.
        p["late_order_gbp"] = 0
    elif ignore == "literal":
        for key in ("rate_in_bottles", "allergen_line_approval", "allergen_clean",
                    "maintenance_window", "friday_no_night", "late_order_cost",
                    "due_is_delivery_date"):
            p = belief(p, key)
    else:
        raise KeyError(ignore)
    return p
