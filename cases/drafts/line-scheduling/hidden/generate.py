"""Seeded generator of line-scheduling's player data (data/).

Writes the order book for the planning week, the product master, the line sheet and the
changeover matrix of Fenwick Fruit Co.'s filling hall. The catalogue, the lines and the matrix
are the plant's standing data (fixed here); the order book is drawn from the seed so that the
week is loaded to about ``load_factor`` of the lines' staffed time, with delivery dates that
crowd the first days, so lateness, changeovers and every rule in params.json trade off.

Usage: generate.py [--params P] [--out ROOT]   (defaults: hidden/params.json, the case folder)
"""

from __future__ import annotations

import argparse
import csv
import json
import random
from datetime import date, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent

# sku, description, family, bottle_ml, allergens, weight in the order book
PRODUCTS = [
    ("FJ-101", "Cloudy Apple Juice 1L", "pale", 1000, "", 3),
    ("FJ-102", "Cloudy Apple Juice 330ml", "pale", 330, "", 3),
    ("FJ-111", "Apple & Elderflower Presse 330ml", "pale", 330, "", 2),
    ("FJ-121", "Orange Juice with Bits 1L", "yellow", 1000, "", 3),
    ("FJ-122", "Orange Juice Smooth 330ml", "yellow", 330, "", 3),
    ("FJ-131", "Tropical Pineapple & Mango 1L", "yellow", 1000, "", 2),
    ("FJ-141", "Strawberry & Watermelon 330ml", "red", 330, "", 2),
    ("FJ-151", "Blackcurrant & Apple 1L", "dark", 1000, "", 2),
    ("FJ-152", "Blackcurrant Cordial-free Juice 330ml", "dark", 330, "", 2),
    ("FJ-161", "Beetroot & Ginger Shot 330ml", "dark", 330, "", 1),
    ("SM-201", "Strawberry & Banana Yoghurt Smoothie 330ml", "red", 330, "milk", 6),
    ("SM-202", "Strawberry & Banana Yoghurt Smoothie 1L", "red", 1000, "milk", 3),
    ("SM-211", "Mango Lassi 330ml", "yellow", 330, "milk", 5),
    ("SM-221", "Mixed Berry Kefir 330ml", "dark", 330, "milk;sulphites", 2),
]
BOTTLES_PER_CASE = {330: 12, 1000: 6}

# line_id, description, rate 330ml, rate 1L (bottles a minute), format change, last run
LINES = [
    ("L1", "Filler 1 (Serac, 2014)", 200, 110, 45, "FJ-121"),
    ("L2", "Filler 2 (Serac, 2016)", 180, 100, 45, "FJ-151"),
    ("L3", "Filler 3 (Krones, 2024)", 260, 140, 30, "FJ-102"),
]

FAMILIES = ["pale", "yellow", "red", "dark"]
# Colour flush minutes, from -> to: light to dark is quick, dark to light needs a long flush.
MATRIX = {
    "pale": {"pale": 15, "yellow": 20, "red": 25, "dark": 30},
    "yellow": {"pale": 60, "yellow": 15, "red": 25, "dark": 30},
    "red": {"pale": 75, "yellow": 60, "red": 15, "dark": 25},
    "dark": {"pale": 90, "yellow": 80, "red": 60, "dark": 15},
}

CUSTOMERS = [("Marlow's Supermarkets", 5), ("Hartley Wholesale", 3), ("Costwise", 3),
             ("Brennan Foodservice", 2), ("FreshWay Express", 2), ("Nordhavn Import AS", 1)]

# Delivery dates of the week after 2025-10-06, weighted towards the first days.
DUE_OFFSETS = [(1, 3), (2, 5), (3, 6), (4, 6), (5, 4), (7, 6)]
# With params["milk_share"] (a smoothie-promotion week): that share of the orders are milk
# products, delivered early in the week; the juices spread over it.
DUE_OFFSETS_MILK = [(1, 1), (2, 4), (3, 4), (4, 2)]
DUE_OFFSETS_JUICE = [(2, 2), (3, 4), (4, 5), (5, 4), (7, 5)]


def write_csv(path: Path, header: list[str], rows: list[list]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def staffed_minutes(params: dict) -> float:
    from datetime import datetime
    start = datetime.fromisoformat(params["week_start"])
    end = datetime.fromisoformat(params["week_end"])
    per_line = (end - start).total_seconds() / 60
    down = sum((datetime.fromisoformat(w["end"]) - datetime.fromisoformat(w["start"]))
               .total_seconds() / 60 for w in params.get("maintenance", []))
    return per_line * len(LINES) - down


def generate(params: dict, out: Path) -> None:
    rng = random.Random(params["seed"])
    data = out / "data"
    write_csv(data / "products.csv",
              ["sku", "description", "family", "bottle_ml", "bottles_per_case", "allergens"],
              [[s, d, f, ml, BOTTLES_PER_CASE[ml], a] for s, d, f, ml, a, _ in PRODUCTS])
    write_csv(data / "lines.csv",
              ["line_id", "description", "products", "rate_330ml_per_min", "rate_1000ml_per_min",
               "format_change_min", "last_sku_run"],
              [[l, d, "all 330ml and 1L", r3, r1, fc, last] for l, d, r3, r1, fc, last in LINES])
    write_csv(data / "changeovers.csv", ["from_family", "to_family", "minutes"],
              [[a, b, MATRIX[a][b]] for a in FAMILIES for b in FAMILIES])

    n = int(params["n_orders"])
    skus = [p for p in PRODUCTS for _ in range(p[5])]
    customers = [c for c, w in CUSTOMERS for _ in range(w)]
    dues = [o for o, w in DUE_OFFSETS for _ in range(w)]
    promotion = "milk_share" in params
    if promotion:
        milk = [p for p in skus if "milk" in p[4]]
        free = [p for p in skus if "milk" not in p[4]]
        n_milk = int(round(float(params["milk_share"]) * n))
        dues_milk = [o for o, w in DUE_OFFSETS_MILK for _ in range(w)]
        dues_juice = [o for o, w in DUE_OFFSETS_JUICE for _ in range(w)]
    mean_rate = {ml: sum(l[2] if ml == 330 else l[3] for l in LINES) / len(LINES)
                 for ml in (330, 1000)}
    raw = [rng.uniform(0.45, 1.55) for _ in range(n)]
    budget = staffed_minutes(params) * float(params["load_factor"])
    scale = budget / sum(raw)
    week = date.fromisoformat(params["week_start"][:10])
    rows = []
    for i in range(n):
        pool = (milk if i < n_milk else free) if promotion else skus
        sku, _, _, ml, _, _ = rng.choice(pool)
        minutes = raw[i] * scale
        cases = max(500, int(round(minutes * mean_rate[ml] / BOTTLES_PER_CASE[ml] / 50)) * 50)
        if promotion:
            due = week + timedelta(days=rng.choice(dues_milk if i < n_milk else dues_juice))
        else:
            due = week + timedelta(days=rng.choice(dues))
        rows.append([rng.choice(customers), sku, cases, due.isoformat()])
    rows.sort(key=lambda r: (r[3], r[0]))  # the order book is entered as the orders came in
    rng.shuffle(rows)
    numbered = [[f"PO-{25410 + i * 3 + rng.randint(0, 2)}", *r] for i, r in enumerate(rows)]
    write_csv(data / "orders.csv",
              ["order_id", "customer", "sku", "quantity_cases", "due_date"], numbered)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--params", type=Path, default=HERE / "params.json")
    ap.add_argument("--out", type=Path, default=HERE.parent)
    args = ap.parse_args()
    generate(json.loads(args.params.read_text(encoding="utf-8")), args.out)


if __name__ == "__main__":
    main()
