"""Seeded generator of the grocery-forecast case: data/ (what the player gets) and hidden/truth/.

``python hidden/generate.py`` rebuilds the base variant in place; ``--params P --out ROOT``
writes ``ROOT/data/`` and ``ROOT/hidden/truth/`` for the parameters in ``P`` (a variant).

The story (hidden/information.md): Greenvale Markets' six stores sell a day-fresh range that is
delivered every morning and written off at close. Demand per store, product and day is
negative binomial around a multiplicative mean (store size x product base x weekday profile of
the product group x store/group mix x promotion lift x a shared day effect). The rules bite
because the generator makes them true:

- history was ordered by the stores' current habit (last week's sales, whole cases, a display
  minimum, one case more after a sell-out), so many days sold out and ``sold_units`` is
  demand cut off at ``delivered_units`` (censoring; ``sold_out_time`` says when);
- promotions lift demand from the Wednesday (``promo_week_start_weekday``) of the ISO week
  in a promo week's label to the Tuesday after, not Monday to Sunday;
- the closed store-day of the forecast week has zero demand (``closure``).

Everything the rules depend on comes from params.json; the structural demand constants below
are the "world" and are learnt from the data, not told by anyone.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
from datetime import date, timedelta
from pathlib import Path

import numpy as np

HIDDEN = Path(__file__).resolve().parent
ROOT = HIDDEN.parent

STORES = [
    # store_id, name, town, format, size factor
    ("S01", "Market Square", "Greenvale", "city centre", 1.50),
    ("S02", "Riverside", "Greenvale", "large suburban", 1.30),
    ("S03", "Station Road", "Greenvale", "commuter", 1.10),
    ("S04", "Hillcrest", "Ashford", "suburban", 0.90),
    ("S05", "Harbour Street", "Portmere", "town", 1.00),
    ("S06", "Ashby Village", "Ashby", "village", 0.45),
]
PRODUCTS = [
    # product_id, name, group, case_size, shelf price, unit cost, base demand per day
    ("P01", "Sourdough loaf 800g", "bakery", 6, 3.20, 0.90, 18.0),
    ("P02", "Butter croissant", "bakery", 12, 1.10, 0.28, 40.0),
    ("P03", "Seeded rolls 4-pack", "bakery", 8, 1.90, 0.55, 14.0),
    ("P04", "Chicken & bacon sandwich", "food to go", 6, 3.60, 2.30, 16.0),
    ("P05", "Egg & cress sandwich", "food to go", 6, 2.90, 1.85, 10.0),
    ("P06", "Falafel wrap", "food to go", 6, 3.80, 2.45, 9.0),
    ("P07", "Pasta salad bowl", "food to go", 6, 3.40, 1.60, 12.0),
    ("P08", "Mixed fruit pot", "fruit", 8, 2.50, 1.30, 11.0),
]
WEEKDAY = {  # Monday .. Sunday
    "bakery": [0.85, 0.85, 0.90, 0.95, 1.10, 1.45, 1.20],
    "food to go": [1.10, 1.15, 1.15, 1.10, 1.05, 0.75, 0.55],
    "fruit": [1.00, 1.00, 1.00, 1.00, 1.05, 1.10, 0.90],
}
MIX = {("S03", "food to go"): 1.5, ("S03", "bakery"): 0.8, ("S06", "food to go"): 0.6}
PROMO_LIFT = {"bakery": 1.7, "food to go": 1.9, "fruit": 1.6}
MECHANIC = {
    "P01": "2 for 5.00", "P02": "4 for 3.00", "P03": "2 for 3.00", "P04": "meal deal 5.00",
    "P05": "meal deal 5.00", "P06": "meal deal 5.00", "P07": "meal deal 5.00", "P08": "2 for 4.00",
}
OPEN_MINUTES = (7 * 60, 21 * 60)  # every store trades 07:00-21:00
DAY_EFFECT_SD = 0.10


def iso_week_label(day: date) -> str:
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


def promo_week_days(label: str, start_weekday: int) -> list[date]:
    """The seven days a promo week covers: from its start weekday of the labelled ISO week."""
    year, week = int(label[:4]), int(label[6:])
    monday = date.fromisocalendar(year, week, 1)
    start = monday + timedelta(days=start_weekday)
    return [start + timedelta(days=i) for i in range(7)]


def intraday_share(group: str, minutes: np.ndarray) -> np.ndarray:
    """Cumulative share of a day's demand sold by a clock time (bakery early, lunch peak)."""
    x = np.clip((minutes - OPEN_MINUTES[0]) / (OPEN_MINUTES[1] - OPEN_MINUTES[0]), 0, 1)
    if group == "bakery":
        return 1 - (1 - x) ** 1.8
    if group == "food to go":
        raw = 1 / (1 + np.exp(-(x - 0.38) * 9))
        lo, hi = 1 / (1 + math.exp(0.38 * 9)), 1 / (1 + math.exp(-(0.62) * 9))
        return (raw - lo) / (hi - lo)
    return x


def sold_out_clock(group: str, share: float) -> str:
    grid = np.arange(OPEN_MINUTES[0], OPEN_MINUTES[1] + 1, 5)
    reached = intraday_share(group, grid) >= share
    minute = int(grid[np.argmax(reached)]) if reached.any() else OPEN_MINUTES[1]
    return f"{minute // 60:02d}:{minute % 60:02d}"


def display_cases(min_units: int, case_size: int) -> int:
    return -(-min_units // case_size)


def build(params: dict, out: Path) -> None:
    rng = np.random.default_rng(params["seed"])
    start = date.fromisoformat(params["history_start"])
    forecast_start = date.fromisoformat(params["forecast_start"])
    history_days = [start + timedelta(days=i) for i in range(7 * params["history_weeks"])]
    forecast_days = [forecast_start + timedelta(days=i) for i in range(7)]
    k = float(params["nb_dispersion"])
    start_weekday = int(params["promo_week_start_weekday"])
    closed = (params["closure"]["store_id"], params["closure"]["date"])

    # Promo calendar: random promo weeks over the history, the forecast weeks from params.
    labels = sorted({iso_week_label(d) for d in history_days + forecast_days})
    fixed = params["forecast_promos"]
    calendar: dict[str, list[str]] = {}
    product_ids = [p[0] for p in PRODUCTS]
    for label in labels:
        if label in fixed:
            calendar[label] = list(fixed[label])
        elif promo_week_days(label, start_weekday)[0] >= start:
            count = int(rng.integers(1, 3))
            calendar[label] = sorted(rng.choice(product_ids, size=count, replace=False).tolist())
    on_promo = {
        (day, pid)
        for label, pids in calendar.items()
        for day in promo_week_days(label, start_weekday)
        for pid in pids
    }

    def mean_demand(day: date, store: tuple, product: tuple, effect: float) -> float:
        group = product[2]
        mu = store[4] * product[6] * WEEKDAY[group][day.weekday()] * MIX.get((store[0], group), 1)
        if (day, product[0]) in on_promo:
            mu *= PROMO_LIFT[group]
        return mu * effect

    def draw(mu: float) -> int:
        return int(rng.negative_binomial(k, k / (k + mu))) if mu > 0 else 0

    min_units = int(params["min_display_units"])
    sales_rows = []
    last_week: dict[tuple, tuple[int, bool]] = {}
    for day in history_days:
        effect = float(np.exp(rng.normal(0, DAY_EFFECT_SD)))
        for store in STORES:
            for product in PRODUCTS:
                pid, group, case = product[0], product[2], product[3]
                demand = draw(mean_demand(day, store, product, effect))
                key = (store[0], pid, day.weekday())
                if key in last_week:
                    sold, was_out = last_week[key]
                    cases = -(-sold // case) + int(was_out)
                else:  # first week: the stores' own guess, one case above the typical day
                    cases = -(-int(store[4] * product[6]) // case) + 1
                cases = max(cases, display_cases(min_units, case))
                delivered = cases * case
                sold = min(demand, delivered)
                sold_out = demand >= delivered
                clock = sold_out_clock(group, delivered / demand) if sold_out else ""
                last_week[key] = (sold, sold_out)
                sales_rows.append([day.isoformat(), store[0], pid, delivered, sold, clock])

    truth_rows = []
    for day in forecast_days:
        effect = float(np.exp(rng.normal(0, DAY_EFFECT_SD)))
        for store in STORES:
            for product in PRODUCTS:
                demand = draw(mean_demand(day, store, product, effect))
                if (store[0], day.isoformat()) == closed:
                    demand = 0
                truth_rows.append([day.isoformat(), store[0], product[0], demand])

    data = out / "data"
    truth = out / "hidden" / "truth"
    data.mkdir(parents=True, exist_ok=True)
    truth.mkdir(parents=True, exist_ok=True)
    write(data / "stores.csv", ["store_id", "store_name", "town", "format", "opening_hours"],
          [[s[0], s[1], s[2], s[3], "07:00-21:00"] for s in STORES])
    suppliers = params["suppliers"]
    write(data / "products.csv",
          ["product_id", "product_name", "product_group", "supplier", "case_size",
           "shelf_price_eur", "unit_cost_eur"],
          [[p[0], p[1], p[2], suppliers[p[0]], p[3], f"{p[4]:.2f}", f"{p[5]:.2f}"]
           for p in PRODUCTS])
    write(data / "sales_history.csv",
          ["date", "store_id", "product_id", "delivered_units", "sold_units", "sold_out_time"],
          sales_rows)
    write(data / "promotions.csv", ["promo_week", "product_id", "mechanic"],
          [[label, pid, MECHANIC[pid]] for label in sorted(calendar) for pid in calendar[label]])
    (data / "README.md").write_text(readme(forecast_days), encoding="utf-8")
    write(truth / "demand.csv", ["date", "store_id", "product_id", "demand_units"], truth_rows)


def readme(forecast_days: list[date]) -> str:
    first, last = forecast_days[0], forecast_days[-1]
    return f"""# Day-fresh range - data extract

Exported by Replenishment for the forecasting project. Forecast week: {first:%A %d %B %Y} to
{last:%A %d %B %Y}.

## Files

- `stores.csv` - the six stores.
- `products.csv` - the day-fresh lines in scope, with supplier, case size, shelf price and unit
  cost (EUR, excluding VAT).
- `sales_history.csv` - one row per store, product and trading day since mid-February.
- `promotions.csv` - the promotion calendar from the marketing plan, including the forecast
  week.

## sales_history.csv

| column | description |
|---|---|
| `date` | Trading day. |
| `store_id`, `product_id` | See stores.csv and products.csv. |
| `delivered_units` | Items delivered to the store that morning. |
| `sold_units` | Items sold through the tills that day. |
| `sold_out_time` | Time of the first empty-shelf gap scan that day; blank when no gap was recorded. |

## promotions.csv

| column | description |
|---|---|
| `promo_week` | Promotion week as printed in the marketing plan. |
| `product_id` | Line on promotion, in every store. |
| `mechanic` | Offer shown on the shelf-edge label. |
"""


def write(path: Path, header: list[str], rows: list[list]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--params", type=Path, default=HIDDEN / "params.json")
    parser.add_argument("--out", type=Path, default=ROOT)
    args = parser.parse_args()
    build(json.loads(args.params.read_text(encoding="utf-8")), args.out)


if __name__ == "__main__":
    main()
