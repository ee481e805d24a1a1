"""Reference solver of the predictive-maintenance case, its counterfactuals and its anchors.

``python hidden/solver.py [--params P] [--root ROOT]`` writes ``ROOT/hidden/reference.csv``;
``--ignore KEY`` writes ``ROOT/hidden/counterfactuals/KEY.csv`` (the same pipeline with one
customer answer ignored); ``--anchors`` writes the admission anchors; ``--all`` does all three.
Without arguments: the base variant, in place. Deterministic (fixed seeds, one thread).

The reference follows every rule in ``information.md``:

1. Door current readings taken on or after a unit's door control unit software 4.2 install
   (``DCU-SW42`` in the modification log) are peak values: divided by ``firmware_factor`` to
   put them back on the RMS scale of the rest of the history.
2. The label of a reading is the number of *qualifying* door failures in the six months after
   it: in service, ``delay_min`` at or above ``delay_threshold_min`` or a cancellation, and of a
   category the overhaul renews (operator, lock, seal; not obstructions or vandalism).
   Readings whose six months run past the fault log, or see a door overhaul, are not used.
3. A Poisson gradient-boosting model (scikit-learn) of that count on class, route, depot,
   months since the last door overhaul and the sensor readings; applied to each unit's latest
   reading it estimates the qualifying failures over the next window's horizon.
4. Each unit's worth: ``effectiveness`` x estimate x the class's failure cost, minus the
   class's overhaul cost. Units whose C6 falls due by ``c6_cutoff`` are left out (the C6 does
   the doors); an exact 0/1 knapsack (dynamic programming over whole depot hours) picks the
   units of positive worth that fit ``capacity_hours`` at the class's overhaul hours.

Each counterfactual changes one ``Recipe`` field.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
from dataclasses import dataclass, replace
from datetime import date, timedelta
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")  # deterministic and quick on a busy machine

import numpy as np
from sklearn.ensemble import HistGradientBoostingRegressor

CASE_DIR = Path(__file__).resolve().parent.parent
HORIZON_DAYS = 183
PREVENTABLE = ("operator", "lock", "seal")
ROUTES = ("Clyde Coast", "Ayrshire", "Borders")
DEPOTS = ("Hallhill", "Westfield")


@dataclass(frozen=True)
class Recipe:
    """How a list is built; the reference and every counterfactual differ in one field."""

    firmware: bool = True  # put post-4.2 door current readings back on the RMS scale
    service_affecting: bool = True  # count only faults with delay >= threshold or a cancellation
    wear_only: bool = True  # count only the categories an overhaul renews
    c6_excluded: bool = True  # leave out units whose C6 falls due by the cutoff
    capacity: str = "hours"  # or "units": the slots read as a number of units, any class
    value: str = "cost"  # or "failures": maximise failures avoided, costs unknown
    rank: str = "model"  # or "age" (months since door overhaul) or "faults" (last 12 months)
    greedy: bool = False  # fill by rank instead of the knapsack


REFERENCE = Recipe()
COUNTERFACTUALS = {
    "service_affecting_only": replace(REFERENCE, service_affecting=False),
    "firmware_current_peak": replace(REFERENCE, firmware=False),
    "c6_units_excluded": replace(REFERENCE, c6_excluded=False),
    "slot_hours_by_class": replace(REFERENCE, capacity="units"),
    "failure_cost_by_class": replace(REFERENCE, value="failures"),
    "wear_failures_only": replace(REFERENCE, wear_only=False),
}
#: The request word for word: 30 slots are 30 units, every logged door fault is a failure,
#: the readings as they come, the units most likely to fail first.
LITERAL = Recipe(firmware=False, service_affecting=False, wear_only=False, c6_excluded=False,
                 capacity="units", value="failures", greedy=True)  # fmt: skip
SHORTCUTS = {
    # Time-based maintenance: the longest since a door overhaul first, all rules kept.
    "shortcut-oldest-first": replace(REFERENCE, rank="age", greedy=True),
    # The units with the most door faults in the log over the last twelve months.
    "shortcut-most-faults": replace(REFERENCE, rank="faults", greedy=True),
}


def read_rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def modifications(root: Path) -> tuple[dict[str, list[date]], dict[str, date]]:
    """Door overhaul dates and the software 4.2 install date of each unit."""
    overhauls: dict[str, list[date]] = {}
    software: dict[str, date] = {}
    for row in read_rows(root / "data" / "unit_modifications.csv"):
        day = date.fromisoformat(row["completed_on"])
        if row["mod_code"] == "DOOR-OH":
            overhauls.setdefault(row["unit_id"], []).append(day)
        elif row["mod_code"] == "DCU-SW42":
            software[row["unit_id"]] = day
    return overhauls, software


def counts_fault(row: dict[str, str], params: dict, recipe: Recipe) -> bool:
    if recipe.wear_only and row["fault_category"] not in PREVENTABLE:
        return False
    if recipe.service_affecting:
        return row["found_during"] == "in service" and (
            int(row["delay_min"]) >= params["delay_threshold_min"] or row["cancelled"] == "1"
        )
    return True


def feature_rows(root: Path, params: dict, recipe: Recipe):
    """(features, label or None, unit id, is latest) per sensor reading."""
    units = {row["unit_id"]: row for row in read_rows(root / "data" / "units.csv")}
    overhauls, software = modifications(root)
    faults: dict[str, list[date]] = {}
    for row in read_rows(root / "data" / "door_faults.csv"):
        if counts_fault(row, params, recipe):
            faults.setdefault(row["unit_id"], []).append(date.fromisoformat(row["reported_on"]))
    log_end = date.fromisoformat(params["snapshot_date"])
    readings = read_rows(root / "data" / "sensor_history.csv")
    latest = {}
    for row in readings:
        latest[row["unit_id"]] = max(latest.get(row["unit_id"], ""), row["reading_date"])
    out = []
    for row in readings:
        unit_id, day = row["unit_id"], date.fromisoformat(row["reading_date"])
        unit = units[unit_id]
        last = max(d for d in overhauls[unit_id] if d <= day)
        current = float(row["door_current_a"])
        if recipe.firmware and unit_id in software and software[unit_id] <= day:
            current /= params["firmware_factor"]
        x = [
            float(unit["cars"]),
            (day - last).days / 30.4,
            float(row["door_cycles_30d"]),
            current,
            float(row["close_time_s"]),
            float(row["obstruction_events_30d"]),
            *(float(unit["route"] == r) for r in ROUTES),
            *(float(unit["depot"] == d) for d in DEPOTS),
        ]
        end = day + timedelta(days=HORIZON_DAYS)
        label = None
        overhauled = any(day < d <= end for d in overhauls[unit_id])
        if end <= log_end and not overhauled:
            label = sum(1 for d in faults.get(unit_id, []) if day < d <= end)
        out.append((x, label, unit_id, row["reading_date"] == latest[unit_id]))
    return out


def estimates(root: Path, params: dict, recipe: Recipe) -> dict[str, float]:
    """Estimated counted failures over the next horizon for each unit, from its latest reading."""
    rows = feature_rows(root, params, recipe)
    train = [(x, y) for x, y, _, _ in rows if y is not None]
    x_train = np.array([x for x, _ in train])
    y_train = np.array([y for _, y in train], dtype=float)
    model = HistGradientBoostingRegressor(
        loss="poisson", learning_rate=0.05, max_iter=250, max_depth=3, min_samples_leaf=40,
        l2_regularization=1.0, early_stopping=False, random_state=0,
    )  # fmt: skip
    model.fit(x_train, y_train)
    now = [(x, unit_id) for x, _, unit_id, is_latest in rows if is_latest]
    predicted = model.predict(np.array([x for x, _ in now]))
    return {unit_id: float(p) for (_, unit_id), p in zip(now, predicted, strict=True)}


def recent_faults(root: Path, params: dict) -> dict[str, int]:
    since = date.fromisoformat(params["snapshot_date"]) - timedelta(days=365)
    counts: dict[str, int] = {}
    for row in read_rows(root / "data" / "door_faults.csv"):
        if date.fromisoformat(row["reported_on"]) > since:
            counts[row["unit_id"]] = counts.get(row["unit_id"], 0) + 1
    return counts


def build(root: Path, params: dict, recipe: Recipe) -> list[str]:
    """The unit ids the recipe sends for a door overhaul, best first."""
    units = read_rows(root / "data" / "units.csv")
    expected = estimates(root, params, recipe)
    hours = {u["unit_id"]: params["overhaul_hours"][u["unit_class"]] for u in units}
    worth = {}
    for unit in units:
        unit_id, cls = unit["unit_id"], unit["unit_class"]
        if recipe.value == "failures":
            worth[unit_id] = params["effectiveness"] * expected[unit_id]
        else:
            worth[unit_id] = (params["effectiveness"] * expected[unit_id] * params["failure_cost_eur"][cls]
                              - params["overhaul_cost_eur"][cls])  # fmt: skip
    cutoff = params["c6_cutoff"]
    candidates = [
        u["unit_id"] for u in units
        if worth[u["unit_id"]] > 0 and not (recipe.c6_excluded and u["next_c6_due"] <= cutoff)
    ]  # fmt: skip
    if recipe.capacity == "units":
        weight, capacity = dict.fromkeys(hours, 1), params["slots"]
    else:
        weight, capacity = hours, params["capacity_hours"]
    if recipe.rank != "model" or recipe.greedy:
        if recipe.rank == "age":
            last = {u["unit_id"]: u["last_door_overhaul"] for u in units}
            key = {i: -date.fromisoformat(last[i]).toordinal() for i in candidates}
        elif recipe.rank == "faults":
            counts = recent_faults(root, params)
            key = {i: counts.get(i, 0) for i in candidates}
        else:
            key = {i: expected[i] for i in candidates}
        if recipe.rank != "model":  # rank-only methods know no worth, so take every unit
            candidates = [u["unit_id"] for u in units
                          if not (recipe.c6_excluded and u["next_c6_due"] <= cutoff)]  # fmt: skip
            key = {i: key.get(i, 0) for i in candidates}
        chosen, used = [], 0
        for unit_id in sorted(candidates, key=lambda i: (-key[i], i)):
            if used + weight[unit_id] <= capacity:
                chosen.append(unit_id)
                used += weight[unit_id]
        return chosen
    picked = knapsack([worth[i] for i in candidates], [weight[i] for i in candidates], capacity)
    chosen = [candidates[k] for k in picked]
    return sorted(chosen, key=lambda i: (-worth[i], i))


def knapsack(value: list[float], weight: list[int], capacity: int) -> list[int]:
    """Indices of the exact 0/1 knapsack optimum, by dynamic programming over whole hours."""
    best = np.zeros(capacity + 1)
    take = np.zeros((len(value), capacity + 1), dtype=bool)
    for i, (v, w) in enumerate(zip(value, weight, strict=True)):
        if w > capacity:
            continue
        candidate = best[: capacity + 1 - w] + v
        better = candidate > best[w:] + 1e-9
        take[i, w:] = better
        best[w:] = np.where(better, candidate, best[w:])
    chosen, room = [], capacity
    for i in range(len(value) - 1, -1, -1):
        if take[i, room]:
            chosen.append(i)
            room -= weight[i]
    return sorted(chosen)


def write_list(path: Path, ids: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(("unit_id",))
        writer.writerows([i] for i in ids)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--params", type=Path, default=None)
    parser.add_argument("--root", type=Path, default=CASE_DIR)
    parser.add_argument("--ignore", choices=sorted(COUNTERFACTUALS))
    parser.add_argument("--anchors", action="store_true")
    parser.add_argument("--all", action="store_true")
    args = parser.parse_args()
    root = args.root
    params = json.loads(
        (args.params or root / "hidden" / "params.json").read_text(encoding="utf-8")
    )
    hidden = root / "hidden"
    if args.all or not (args.ignore or args.anchors):
        write_list(hidden / "reference.csv", build(root, params, REFERENCE))
    if args.ignore:
        recipe = COUNTERFACTUALS[args.ignore]
        write_list(hidden / "counterfactuals" / f"{args.ignore}.csv", build(root, params, recipe))
    if args.all:
        for key, recipe in COUNTERFACTUALS.items():
            write_list(hidden / "counterfactuals" / f"{key}.csv", build(root, params, recipe))
    if args.all or args.anchors:
        write_list(hidden / "anchors" / "baseline.csv", [])
        write_list(hidden / "anchors" / "literal.csv", build(root, params, LITERAL))
        for name, recipe in SHORTCUTS.items():
            write_list(hidden / "anchors" / f"{name}.csv", build(root, params, recipe))


if __name__ == "__main__":
    main()
