"""Evaluator of the predictive-maintenance case: what the March door-overhaul list is worth.

Order of checks, as fleet engineering and the depot would run them:

1. Fatal: an id that is not a unit of ``data/units.csv`` or that appears twice (the schema
   catches most of this; the evaluator repeats it so it never scores a list it cannot read).
2. Constraints (each a target of ``gt.json``):
   - ``c6_units_excluded``: a unit whose C6 heavy overhaul falls due on or before
     ``c6_cutoff`` gets its doors done in the C6, so it may not take a door slot;
   - ``slot_hours_by_class``: the door gang's hours in the window (``capacity_hours``) must
     cover the list, each unit at its class's ``overhaul_hours``.
3. Value: the expected cost avoided, net of the overhauls, from the hidden truth
   (``truth/expected_failures.csv``: qualifying door failures expected over the horizon without
   an overhaul): per listed unit, ``effectiveness`` x expected failures x the class's
   ``failure_cost_eur`` minus its ``overhaul_cost_eur``. The empty list is worth 0 (the
   baseline); overhauling units that would not have failed loses money.

Every figure comes from ``hidden/params.json``, so a variant is its parameters.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path

from evaluators.api import Assessment, Submission, ViolationCollector


def evaluate(submission: Submission, data_dir: Path, hidden_dir: Path) -> Assessment:
    params = json.loads((hidden_dir / "params.json").read_text(encoding="utf-8"))
    units = _read_rows(data_dir / "units.csv")
    truth = _read_rows(hidden_dir / "truth" / "expected_failures.csv")

    ids = [str(row.get("unit_id", "")).strip() for row in submission.rows]
    fatal = _list_problem(ids, units)
    if fatal:
        return Assessment(fatal=fatal)

    collector = ViolationCollector()
    hours = 0
    for index, unit_id in enumerate(ids):
        unit = units[unit_id]
        hours += params["overhaul_hours"][unit["unit_class"]]
        if unit["next_c6_due"] <= params["c6_cutoff"]:
            collector.add(
                "c6_units_excluded",
                "The list gives a door slot to a unit whose C6 heavy overhaul is due before the "
                "next door window; the C6 overhauls its doors anyway.",
                {
                    "line": Submission.line_of(index),
                    "unit_id": unit_id,
                    "next_c6_due": unit["next_c6_due"],
                },
            )
    if hours > params["capacity_hours"]:
        collector.add(
            "slot_hours_by_class",
            f"The list needs {hours} hours of the door gang's time in the window, more than "
            f"the {params['capacity_hours']} hours the depot has.",
            {"units": len(ids), "hours": hours},
        )
    if collector:
        return Assessment(violations=collector.violations())

    value, avoided, spent = 0.0, 0.0, 0.0
    for unit_id in ids:
        cls = units[unit_id]["unit_class"]
        failures = float(truth[unit_id]["expected_failures_without_overhaul"])
        prevented = params["effectiveness"] * failures
        avoided += prevented
        spent += params["overhaul_cost_eur"][cls]
        value += prevented * params["failure_cost_eur"][cls] - params["overhaul_cost_eur"][cls]
    return Assessment(
        value=value,
        details={
            "units": len(ids),
            "depot_hours": hours,
            "expected_failures_avoided": round(avoided, 2),
            "overhaul_cost_eur": round(spent, 2),
        },
    )


def _read_rows(path: Path) -> dict[str, dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return {row["unit_id"]: row for row in csv.DictReader(handle)}


def _list_problem(ids: list[str], units: dict[str, dict[str, str]]) -> str | None:
    unknown = sorted({i for i in ids if i not in units})
    if unknown:
        return (
            f"{len(unknown)} id(s) in the list are not units in data/units.csv "
            f"(e.g. {', '.join(unknown[:3])}). Only our own fleet can go to the depot."
        )
    repeated = sorted(i for i, n in Counter(ids).items() if n > 1)
    if repeated:
        return (
            f"{len(repeated)} unit(s) appear more than once (e.g. {', '.join(repeated[:3])}). "
            "Each unit gets one door overhaul."
        )
    return None
