"""Reference solver of the grocery-forecast case, its counterfactuals and its anchors.

``python hidden/solver.py`` writes ``hidden/reference.csv``; ``--ignore KEY`` writes
``hidden/counterfactuals/KEY.csv``; ``--anchors`` writes ``hidden/anchors/``; ``--all`` does
all of it. ``--params P --root ROOT`` works on a variant's folder (docs/variants.md).

The reference, as the customer accepted it (hidden/information.md):

1. Demand model: a scikit-learn gradient-boosting regressor with Poisson loss on store, line,
   weekday and promotion flag, where a promo week runs from its start weekday
   (``promo_week_start_weekday``, Wednesday) of the labelled ISO week to the day before the
   next start.
2. Sell-outs: ``sold_units`` is demand cut off at ``delivered_units`` on days with a
   ``sold_out_time``. The model is refitted by expectation-maximisation: each sold-out day's
   target becomes the expected demand given that demand was at least what was sold, under a
   negative binomial around the current mean whose dispersion is fitted by censored
   likelihood.
3. Order: per store, line and day, the whole number of cases that minimises the expected cost
   under that negative binomial - waste at unit cost (the sale-or-return lines at the
   handling fee), lost sales at margin - with at least the display minimum, and nothing for
   the closed store-day.

Each counterfactual changes one ``Recipe`` field: the one a player gets wrong without that
target's answer.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
from dataclasses import dataclass, replace
from datetime import date, timedelta
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")  # small data: one thread is fast and steady

import numpy as np  # noqa: E402
from scipy import stats  # noqa: E402
from sklearn.ensemble import HistGradientBoostingRegressor  # noqa: E402

HIDDEN = Path(__file__).resolve().parent
SEED = 11
EM_ROUNDS = 4
DISPERSION_GRID = (1.0, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0, 32.0, 64.0)


@dataclass(frozen=True)
class Recipe:
    """How an order plan is built; the reference and every counterfactual differ in one field."""

    in_cases: bool = True  # order_qty counts cases (False: items, as a forecast would)
    uncensor: bool = True  # treat sold-out days as demand of at least the sales
    promo_start_weekday: int | None = None  # None: from params (False reading: 0 = ISO Monday)
    respect_closure: bool = True  # nothing for the closed store-day
    min_display: bool = True  # at least the display minimum, in whole cases
    waste_at_cost: bool = True  # False: waste valued at shelf price (the store-KPI view)
    sale_or_return: bool = True  # False: the sale-or-return lines' waste valued at cost
    point_forecast: bool = False  # order the rounded mean instead of the cost-optimal cases
    naive: bool = False  # average of the last four same weekdays' sales instead of a model


REFERENCE = Recipe()
COUNTERFACTUALS = {
    "order_in_cases": replace(REFERENCE, in_cases=False),
    "stockout_censoring": replace(REFERENCE, uncensor=False),
    "promo_week_start": replace(REFERENCE, promo_start_weekday=0),
    "store_closure": replace(REFERENCE, respect_closure=False),
    "min_display": replace(REFERENCE, min_display=False),
    "waste_at_cost": replace(REFERENCE, waste_at_cost=False),
    "sale_or_return": replace(REFERENCE, sale_or_return=False),
}
ANCHORS = {
    # A forecast of demand in items, word for word: "how many we expect to sell", every store
    # every day as the request says, promo weeks read as ISO weeks, sales taken as demand.
    "literal": replace(
        REFERENCE, in_cases=False, uncensor=False, promo_start_weekday=0,
        respect_closure=False, min_display=False, point_forecast=True,
    ),
    # The player who asked about the depot and the shelves but forecast by averaging.
    "shortcut-four-week-average": replace(REFERENCE, naive=True, point_forecast=True),
    # A good demand model ordered at the expected demand, as if waste and gaps cost the same.
    "shortcut-mean-forecast": replace(REFERENCE, point_forecast=True),
}


def read(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


class World:
    """The visible data of one variant, plus the parameters its rules depend on."""

    def __init__(self, root: Path, params: dict) -> None:
        data = root / "data"
        self.params = params
        self.stores = [r["store_id"] for r in read(data / "stores.csv")]
        self.products = {r["product_id"]: r for r in read(data / "products.csv")}
        self.history = read(data / "sales_history.csv")
        self.promotions = read(data / "promotions.csv")
        first = date.fromisoformat(params["forecast_start"])
        self.days = [first + timedelta(days=i) for i in range(7)]

    def promo_days(self, start_weekday: int) -> set[tuple[date, str]]:
        days = set()
        for row in self.promotions:
            label = row["promo_week"]
            monday = date.fromisocalendar(int(label[:4]), int(label[6:]), 1)
            for i in range(7):
                days.add((monday + timedelta(days=start_weekday + i), row["product_id"]))
        return days


def features(rows: list[tuple[str, str, date]], world: World, promo: set) -> np.ndarray:
    stores = {s: i for i, s in enumerate(world.stores)}
    products = {p: i for i, p in enumerate(world.products)}
    return np.array(
        [[stores[s], products[p], d.weekday(), float((d, p) in promo)] for s, p, d in rows],
        dtype=float,
    )


def nb_pmf_table(mu: np.ndarray, k: float, top: int) -> np.ndarray:
    """P(D = d) for d = 0..top for each mean, negative binomial with dispersion k."""
    d = np.arange(top + 1)
    p = k / (k + mu[:, None])
    return stats.nbinom.pmf(d[None, :], k, p)


def censored_expectation(mu: np.ndarray, k: float, floor: np.ndarray) -> np.ndarray:
    """E[D | D >= floor] under the negative binomial: what a sold-out day really wanted.

    (E[D] - sum_{d < floor} d P(d)) / P(D >= floor), summing only below the floor.
    """
    if floor.size == 0:
        return floor.astype(float)
    top = int(floor.max())
    d = np.arange(top + 1)
    pmf = nb_pmf_table(mu, k, top)
    below = d[None, :] < floor[:, None]
    partial = (pmf * below * d[None, :]).sum(axis=1)
    tail = stats.nbinom.sf(floor - 1, k, k / (k + mu))
    return np.where(tail > 1e-12, (mu - partial) / np.maximum(tail, 1e-12), floor)


def fit_dispersion(y: np.ndarray, mu: np.ndarray, censored: np.ndarray) -> float:
    """Dispersion by (censored) likelihood over a grid; sold-out days count as D >= sales."""
    best, best_ll = DISPERSION_GRID[0], -np.inf
    for k in DISPERSION_GRID:
        p = k / (k + mu)
        ll = np.where(
            censored,
            stats.nbinom.logsf(y - 1, k, p),
            stats.nbinom.logpmf(y, k, p),
        ).sum()
        if ll > best_ll:
            best, best_ll = k, ll
    return best


_MODELS: dict[tuple, tuple] = {}


def demand_model(world: World, recipe: Recipe) -> tuple[HistGradientBoostingRegressor, float, set]:
    """The fitted demand model, its dispersion and promo days; cached per reading of the data."""
    key = (id(world), recipe.uncensor, recipe.promo_start_weekday)
    if key not in _MODELS:
        _MODELS[key] = _fit_demand_model(world, recipe)
    return _MODELS[key]


def _fit_demand_model(world: World, recipe: Recipe) -> tuple:
    start = (
        recipe.promo_start_weekday
        if recipe.promo_start_weekday is not None
        else int(world.params["promo_week_start_weekday"])
    )
    promo = world.promo_days(start)
    keys = [(r["store_id"], r["product_id"], date.fromisoformat(r["date"])) for r in world.history]
    x = features(keys, world, promo)
    sold = np.array([int(r["sold_units"]) for r in world.history], dtype=float)
    censored = np.array([r["sold_out_time"] != "" for r in world.history])
    if not recipe.uncensor:
        censored = np.zeros_like(censored)
    model = HistGradientBoostingRegressor(
        loss="poisson", max_iter=150, learning_rate=0.1, max_leaf_nodes=31,
        min_samples_leaf=20, categorical_features=[0, 1, 2], random_state=SEED,
    )
    target = sold.copy()
    k = 8.0
    for _ in range(EM_ROUNDS if censored.any() else 1):
        model.fit(x, target)
        mu = np.maximum(model.predict(x), 0.05)
        k = fit_dispersion(sold, mu, censored)
        target = sold.copy()
        target[censored] = censored_expectation(mu[censored], k, sold[censored])
    if censored.any():
        model.fit(x, target)
        mu = np.maximum(model.predict(x), 0.05)
        k = fit_dispersion(sold, mu, censored)
    return model, k, promo


def naive_means(world: World, cells: list[tuple[str, str, date]]) -> np.ndarray:
    """Average sales of the last four same weekdays, per store and line."""
    sales = {
        (r["store_id"], r["product_id"], r["date"]): int(r["sold_units"]) for r in world.history
    }
    out = []
    for store, product, day in cells:
        past = [sales.get((store, product, (day - timedelta(weeks=w)).isoformat())) for w in (1, 2, 3, 4)]
        past = [v for v in past if v is not None]
        out.append(float(np.mean(past)) if past else 0.0)
    return np.array(out)


def plan(world: World, recipe: Recipe) -> list[list]:
    """The order plan's rows: store_id, product_id, date, order_qty."""
    params = world.params
    cells = [(s, p, d) for d in world.days for s in world.stores for p in world.products]
    if recipe.naive:
        mu = naive_means(world, cells)
        k = 8.0
    else:
        model, k, promo = demand_model(world, recipe)
        mu = np.maximum(model.predict(features(cells, world, promo)), 0.05)
    closed = (params["closure"]["store_id"], params["closure"]["date"])
    min_units = int(params["min_display_units"])
    rows = []
    for (store, product, day), mean in zip(cells, mu, strict=True):
        info = world.products[product]
        case = int(info["case_size"])
        price, cost = float(info["shelf_price_eur"]), float(info["unit_cost_eur"])
        waste = price if not recipe.waste_at_cost else cost
        if recipe.sale_or_return and info["supplier"] == params["sale_or_return_supplier"]:
            waste = float(params["handling_fee_eur"])
        floor = -(-min_units // case) if recipe.min_display else 0
        if recipe.point_forecast:
            cases = max(floor, int(round(mean / case)))
        else:
            cases = best_cases(float(mean), k, case, waste, price - cost, floor)
        if recipe.respect_closure and (store, day.isoformat()) == closed:
            cases = 0
        if recipe.in_cases:
            quantity = cases
        elif recipe.point_forecast:
            quantity = 0 if cases == 0 and floor == 0 and recipe.respect_closure and (
                store, day.isoformat()) == closed else int(round(mean))
        else:
            quantity = cases * case  # the same plan, written in items
        rows.append([store, product, day.isoformat(), quantity])
    return rows


def best_cases(mu: float, k: float, case: int, waste: float, margin: float, floor: int) -> int:
    """Whole cases minimising expected waste plus lost margin under NB(mu, k)."""
    top = int(mu * 5 + 80)
    d = np.arange(top + 1)
    pmf = stats.nbinom.pmf(d, k, k / (k + mu))
    best, best_cost = floor, np.inf
    for cases in range(floor, top // case + 2):
        supply = cases * case
        cost = float((pmf * (waste * np.maximum(supply - d, 0) + margin * np.maximum(d - supply, 0))).sum())
        if cost < best_cost - 1e-12:
            best, best_cost = cases, cost
        elif supply > mu * 3 + 3 * case:
            break
    return best


def baseline(world: World) -> list[list]:
    """The stores' current habit: last week's same-day sales in whole cases, one case more
    after a sell-out, the display minimum, nothing for the closed store-day."""
    params = world.params
    last = {(r["store_id"], r["product_id"], r["date"]): r for r in world.history}
    closed = (params["closure"]["store_id"], params["closure"]["date"])
    min_units = int(params["min_display_units"])
    rows = []
    for day in world.days:
        for store in world.stores:
            for product, info in world.products.items():
                case = int(info["case_size"])
                past = last[(store, product, (day - timedelta(weeks=1)).isoformat())]
                cases = -(-int(past["sold_units"]) // case) + int(past["sold_out_time"] != "")
                cases = max(cases, -(-min_units // case))
                if (store, day.isoformat()) == closed:
                    cases = 0
                rows.append([store, product, day.isoformat(), cases])
    return rows


def write(path: Path, rows: list[list]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["store_id", "product_id", "date", "order_qty"])
        writer.writerows(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--params", type=Path, default=HIDDEN / "params.json")
    parser.add_argument("--root", type=Path, default=HIDDEN.parent)
    parser.add_argument("--ignore", choices=sorted(COUNTERFACTUALS))
    parser.add_argument("--anchors", action="store_true")
    parser.add_argument("--all", action="store_true")
    args = parser.parse_args()
    world = World(args.root, json.loads(args.params.read_text(encoding="utf-8")))
    hidden = args.root / "hidden"
    if args.ignore:
        write(hidden / "counterfactuals" / f"{args.ignore}.csv", plan(world, COUNTERFACTUALS[args.ignore]))
        return
    if args.anchors or args.all:
        write(hidden / "anchors" / "baseline.csv", baseline(world))
        for name, recipe in ANCHORS.items():
            write(hidden / "anchors" / f"{name}.csv", plan(world, recipe))
    if args.all:
        for key, recipe in COUNTERFACTUALS.items():
            write(hidden / "counterfactuals" / f"{key}.csv", plan(world, recipe))
    if args.all or not args.anchors:
        write(hidden / "reference.csv", plan(world, REFERENCE))


if __name__ == "__main__":
    main()
