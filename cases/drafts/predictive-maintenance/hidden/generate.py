"""Rebuild the predictive-maintenance case data from a fixed seed (numpy and the standard library).

``python hidden/generate.py [--params P] [--out ROOT]`` writes ``ROOT/data/`` (the player's
files) and ``ROOT/hidden/truth/expected_failures.csv`` (the evaluator's) from the parameters
in ``P``. Without arguments it rebuilds the base variant in place, byte for byte.

The synthetic fleet is shaped so that every hidden rule in ``information.md`` bites:

- Door wear grows with the months since a unit's last door overhaul, its door cycles and an
  unseen frailty of the gear fitted at that overhaul; the door motor current (and a little the closing time) shows the
  wear, so the sensor history is worth modelling. Four-car units have twice the doors.
- The fault log mixes the failures that matter (wear faults on operators, locks and seals that
  cost delay minutes at or above the threshold, or a cancellation) with faults that do not:
  small in-service delays, findings at depot exams (one depot logs every adjustment it makes),
  and passenger obstructions and vandalism, which hit busy routes and which an overhaul does
  not prevent.
- Door control unit software 4.2 (in the modification log, among other mods) makes the door
  current readings peak values instead of RMS from the day it is installed, unit by unit.
- Units with their C6 heavy overhaul due before the next window are among the most worn (they
  have been held back for it), so a list that forgets them is tempting.
- Depot time per unit depends on the class; the request counts "slots".

The truth is the expected number of qualifying failures over the horizon without an overhaul
(no sampling noise), so the evaluator values a list by its expected cost avoided.
"""

from __future__ import annotations

import argparse
import csv
import json
from datetime import date, timedelta
from pathlib import Path

import numpy as np

CASE_DIR = Path(__file__).resolve().parent.parent
BASE_PARAMS = CASE_DIR / "hidden" / "params.json"

#: Routes each class works, with shares; depots by route (Ayrshire units are split).
ROUTES = {
    "417": (("Borders", 0.55), ("Ayrshire", 0.45)),
    "428": (("Clyde Coast", 0.65), ("Ayrshire", 0.35)),
}
CYCLES = {"Clyde Coast": 2300.0, "Ayrshire": 1600.0, "Borders": 900.0}  # per door leaf, 30 days
PREVENTABLE = ("operator", "lock", "seal")
PREVENTABLE_SHARES = (0.5, 0.3, 0.2)
K_WEAR = 0.07  # qualifying wear failures a month for a unit of wear factor 1 at wear 30
OTHER_MODS = (
    ("PIS-2", "Passenger information screens upgrade"),
    ("CCTV-HD", "Saloon CCTV replacement"),
    ("WIFI-3", "On-board wifi router replacement"),
    ("SEAT-RT", "Seat retrim"),
)


def load_params(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def month_start(first: date, index: int) -> date:
    year, month = first.year, first.month + index
    year += (month - 1) // 12
    return date(year, (month - 1) % 12 + 1, 1)


def days_in_month(start: date) -> int:
    return (month_start(start, 1) - start).days


def write_csv(path: Path, header: tuple[str, ...], rows) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def draw_fleet(rng: np.random.Generator, params: dict) -> list[dict]:
    """The units with their static facts and the latent wear they carry into the history."""
    first = date.fromisoformat(params["history_start"])
    cutoff = date.fromisoformat(params["c6_cutoff"])
    units = []
    for cls, count in params["fleet"].items():
        names, shares = zip(*ROUTES[cls], strict=True)
        for n in range(count):
            route = str(rng.choice(names, p=shares))
            depot = {"Clyde Coast": "Hallhill", "Borders": "Westfield"}.get(route)
            depot = depot or ("Hallhill" if rng.random() < 0.5 else "Westfield")
            units.append(
                {
                    "unit_id": f"{cls}{n + 1:03d}",
                    "cls": cls,
                    "cars": params["cars"][cls],
                    "class_factor": params["class_wear_factor"][cls],
                    "route": route,
                    "depot": depot,
                    "entered": int(
                        rng.integers(1999, 2004) if cls == "417" else rng.integers(2009, 2012)
                    ),
                    "c6": bool(rng.random() < params["c6_share"]),
                    "rate": CYCLES[route] / 1600.0 * float(rng.lognormal(0, 0.12)),
                    "offset": float(rng.normal(0, 0.04)),
                    "obstruction": params["obstruction_rate"][route]
                    * float(rng.lognormal(0, 0.35)),
                }
            )
    for unit in units:
        unit["cycles"] = unit["rate"] * 1600.0  # door cycles per leaf in 30 days
        months_ago = rng.uniform(50, 75) if unit["c6"] else rng.uniform(2, 58)
        unit["overhauls"] = [first - timedelta(days=int(months_ago * 30.4))]
        unit["frailty"] = {unit["overhauls"][0]: draw_frailty(rng)}
        if unit["c6"]:
            unit["c6_due"] = cutoff - timedelta(days=int(rng.integers(0, 150)))
        else:
            unit["c6_due"] = cutoff + timedelta(days=int(rng.integers(1, 1600)))
    # Two fixed points for the value probes: one C6 exactly on the cutoff, one the day after.
    c6_units = [u for u in units if u["c6"]]
    c6_units[0]["c6_due"] = cutoff
    free = [u for u in units if not u["c6"] and u["route"] == "Borders"]  # rarely worth a slot
    free[len(free) // 2]["c6_due"] = cutoff + timedelta(days=1)
    return units


def draw_frailty(rng: np.random.Generator) -> float:
    """How fast one fitted set of door gear wears: drawn anew at every overhaul (new parts)."""
    return float(rng.lognormal(-0.15, 0.75))


def wear(unit: dict, day: date) -> float:
    last = max(d for d in unit["overhauls"] if d <= day)
    return (day - last).days / 30.4 * unit["rate"] * unit["frailty"][last]


def hazard(unit: dict, w: float) -> float:
    """Qualifying (service-affecting, preventable) failures expected in a month at wear ``w``."""
    return K_WEAR * unit["class_factor"] * (w / 30.0) ** 1.7


def plan_history_overhauls(rng: np.random.Generator, units: list[dict], params: dict) -> None:
    """Past depot windows: engineering picked the oldest-looking units (never C6-bound ones)."""
    for window in params["history_windows"]:
        start = date.fromisoformat(window + "-01")
        scores = np.array(
            [-1.0 if u["c6"] else wear(u, start) * float(rng.lognormal(0, 0.35)) for u in units]
        )
        for index in np.argsort(-scores, kind="stable")[: params["overhauls_per_window"]]:
            day = start + timedelta(days=int(rng.integers(4, 26)))
            units[index]["overhauls"].append(day)
            units[index]["frailty"][day] = draw_frailty(rng)


def delay_minutes(rng: np.random.Generator, threshold: int, qualifying: bool) -> tuple[int, int]:
    """(delay minutes, cancelled) of one in-service fault."""
    if not qualifying:
        return int(rng.integers(0, threshold)), 0
    if rng.random() < 0.3:
        return int(rng.integers(0, 25)), 1
    return threshold + int(rng.exponential(9.0)), 0


def generate(params: dict, root: Path) -> None:
    rng = np.random.default_rng(params["seed"])
    data, truth = root / "data", root / "hidden" / "truth"
    first = date.fromisoformat(params["history_start"])
    snapshot = date.fromisoformat(params["snapshot_date"])
    months = (snapshot.year - first.year) * 12 + snapshot.month - first.month + 1
    threshold = int(params["delay_threshold_min"])
    units = draw_fleet(rng, params)
    plan_history_overhauls(rng, units, params)

    # The software went in depot by depot, at the units' exams (the rollout per depot).
    for unit in units:
        rollout = params["firmware_rollout"][unit["depot"]]
        fw_from = date.fromisoformat(rollout["from"])
        fw_span = (date.fromisoformat(rollout["to"]) - fw_from).days
        updated = rng.random() < rollout["share"]
        unit["firmware"] = (
            fw_from + timedelta(days=int(rng.integers(0, fw_span + 1))) if updated else None
        )

    readings, faults = [], []
    for i in range(months):
        start = month_start(first, i)
        length = days_in_month(start)
        for unit in units:
            middle = start + timedelta(days=length // 2)
            w = wear(unit, middle)
            lam = hazard(unit, w)
            half = unit["cars"] / 2
            day = start + timedelta(days=int(rng.integers(0, min(length, 28))))
            w_read = wear(unit, day)
            current = 1.75 + 0.014 * w_read + unit["offset"] + rng.normal(0, 0.03)
            if unit["firmware"] is not None and unit["firmware"] <= day:
                current *= params["firmware_factor"]
            close = 3.0 + 0.010 * w_read + rng.normal(0, 0.10)
            cycles = unit["cycles"] * (1 + rng.normal(0, 0.05))
            obstruct = rng.poisson(unit["obstruction"] * half * 150)
            readings.append(
                (
                    unit["unit_id"],
                    day.isoformat(),
                    int(round(cycles)),  # noqa: RUF046 - numpy floats round to floats
                    f"{current:.2f}",
                    f"{close:.2f}",
                    int(obstruct),
                )
            )
            events = []
            for _ in range(rng.poisson(lam)):
                events.append(("in service", rng.choice(PREVENTABLE, p=PREVENTABLE_SHARES), True))
            for _ in range(rng.poisson(0.4 * lam + 0.05 * half)):
                events.append(("in service", rng.choice(PREVENTABLE, p=PREVENTABLE_SHARES), False))
            depot_rate = params["depot_finding_rate"][unit["depot"]] * half * (0.8 + w / 200.0)
            for _ in range(rng.poisson(depot_rate)):
                events.append(("depot exam", rng.choice(PREVENTABLE, p=PREVENTABLE_SHARES), False))
            for _ in range(rng.poisson(unit["obstruction"] * half)):
                events.append(("in service", "passenger_obstruction", rng.random() < 0.75))
            for _ in range(rng.poisson(0.012 * half * (2 if unit["route"] == "Ayrshire" else 1))):
                events.append(("in service", "vandalism", rng.random() < 0.8))
            for found, category, qualifying in events:
                when = start + timedelta(days=int(rng.integers(0, length)))
                if found == "depot exam":
                    delay, cancelled = 0, 0
                else:
                    delay, cancelled = delay_minutes(rng, threshold, qualifying)
                faults.append(
                    (when.isoformat(), unit["unit_id"], found, str(category), delay, cancelled)
                )

    faults.sort()
    write_csv(
        data / "door_faults.csv",
        (
            "fault_id",
            "unit_id",
            "reported_on",
            "found_during",
            "fault_category",
            "delay_min",
            "cancelled",
        ),
        ([f"F{k + 1:05d}", f[1], f[0], *f[2:]] for k, f in enumerate(faults)),
    )
    write_csv(
        data / "sensor_history.csv",
        (
            "unit_id",
            "reading_date",
            "door_cycles_30d",
            "door_current_a",
            "close_time_s",
            "obstruction_events_30d",
        ),
        sorted(readings, key=lambda r: (r[0], r[1])),
    )
    write_csv(
        data / "units.csv",
        (
            "unit_id",
            "unit_class",
            "cars",
            "route",
            "depot",
            "entered_service",
            "last_door_overhaul",
            "next_c6_due",
        ),
        (
            [
                u["unit_id"],
                u["cls"],
                u["cars"],
                u["route"],
                u["depot"],
                u["entered"],
                max(u["overhauls"]).isoformat(),
                u["c6_due"].isoformat(),
            ]
            for u in units
        ),
    )
    mods = []
    for unit in units:
        for day in unit["overhauls"]:
            mods.append((unit["unit_id"], day.isoformat(), "DOOR-OH", "Door system overhaul"))
        if unit["firmware"] is not None:
            mods.append(
                (
                    unit["unit_id"],
                    unit["firmware"].isoformat(),
                    "DCU-SW42",
                    "Door control unit software 4.2",
                )
            )
        for code, text in OTHER_MODS:
            if rng.random() < 0.55:
                day = date(2021, 1, 1) + timedelta(days=int(rng.integers(0, 1880)))
                mods.append((unit["unit_id"], day.isoformat(), code, text))
    write_csv(
        data / "unit_modifications.csv",
        ("unit_id", "completed_on", "mod_code", "description"),
        sorted(mods),
    )

    # Truth: qualifying failures expected over the horizon months if the unit is not overhauled.
    future = [month_start(first, months + k) for k in range(params["horizon_months"])]
    write_csv(
        truth / "expected_failures.csv",
        ("unit_id", "expected_failures_without_overhaul"),
        (
            [u["unit_id"], f"{sum(hazard(u, wear(u, m + timedelta(days=14))) for m in future):.6f}"]
            for u in units
        ),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--params", type=Path, default=BASE_PARAMS)
    parser.add_argument("--out", type=Path, default=CASE_DIR)
    args = parser.parse_args()
    generate(load_params(args.params), args.out)


if __name__ == "__main__":
    main()
