"""Write the value probes of predictive-maintenance: the reference moved onto each numeric limit and past it.

``python cases/drafts/predictive-maintenance/hidden/make_value_probes.py [--root ROOT]`` writes
``ROOT/hidden/value_probes/`` and ``ROOT/hidden/value_probes.json`` (cases/README.md, "Value
probes"); ROOT is this case (the base variant) unless given, e.g. a variant's scratch package.

Two limits are pinned, each from the evaluator's own ``params.json`` and ``data/units.csv``:

- the door gang's hours (``capacity_hours``): the reference with units swapped in and out until
  it needs exactly the capacity (valid), and the smallest total just above it (refused);
- the C6 cutoff (``c6_cutoff``): the reference with one unit swapped for the unit whose C6 is
  due exactly on the cutoff (refused) or for one due the day after (valid).

The labels are written from the parameters, and every file is checked with ``evaluate()``
before it is written, so a probe cannot disagree with the evaluator by construction.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from datetime import date, timedelta
from pathlib import Path

HIDDEN_DIR = Path(__file__).resolve().parent
sys.path[:0] = [str(HIDDEN_DIR), str(HIDDEN_DIR.parents[3])]

from evaluator import evaluate  # noqa: E402

from evaluators.api import Submission  # noqa: E402


def read_rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def verdict(ids: list[str], root: Path) -> set[str] | None:
    """The rules the evaluator says the list breaks (empty: valid); None for a fatal reason."""
    rows = [{"unit_id": i} for i in ids]
    assessment = evaluate(Submission(format="csv", rows=rows), root / "data", root / "hidden")
    if assessment.fatal:
        return None
    return {violation.rule for violation in assessment.violations}


def long_date(day: date) -> str:
    return f"{day.day} {day:%B %Y}"


def hours_list(
    reference: list[str], pool: list[str], units: dict, hours: dict[str, int], target: int
) -> list[str] | None:
    """The reference with as few units of each class added or dropped as make it need exactly
    ``target`` hours (units added from ``pool``, dropped from the end of the reference)."""
    by_class = {c: [i for i in reference if units[i]["unit_class"] == c] for c in ("417", "428")}
    spare = {c: [i for i in pool if units[i]["unit_class"] == c] for c in ("417", "428")}
    h = {c: next(hours[i] for i in units if units[i]["unit_class"] == c) for c in ("417", "428")}
    best = None
    for x in range(len(by_class["417"]) + len(spare["417"]) + 1):
        rest = target - x * h["417"]
        if rest < 0 or rest % h["428"]:
            continue
        y = rest // h["428"]
        if y > len(by_class["428"]) + len(spare["428"]):
            continue
        moves = abs(x - len(by_class["417"])) + abs(y - len(by_class["428"]))
        if best is None or moves < best[0]:
            best = (moves, x, y)
    if best is None:
        return None
    chosen = []
    for c, n in (("417", best[1]), ("428", best[2])):
        kept = by_class[c][:n]
        chosen += kept + spare[c][: n - len(kept)]
    order = {i: k for k, i in enumerate(reference)}
    return sorted(chosen, key=lambda i: (order.get(i, len(order)), i))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=HIDDEN_DIR.parent, help="package root")
    root = parser.parse_args().root
    hidden = root / "hidden"
    params = json.loads((hidden / "params.json").read_text(encoding="utf-8"))
    values = json.loads((hidden / "values.json").read_text(encoding="utf-8"))
    units = {u["unit_id"]: u for u in read_rows(root / "data" / "units.csv")}
    reference = [r["unit_id"] for r in read_rows(hidden / "reference.csv")]
    hours = {i: params["overhaul_hours"][u["unit_class"]] for i, u in units.items()}
    cutoff = date.fromisoformat(params["c6_cutoff"])
    pool = sorted(
        i for i, u in units.items() if i not in reference and u["next_c6_due"] > params["c6_cutoff"]
    )

    probes: list[dict[str, str]] = []
    files: dict[str, list[str]] = {}

    def add(name: str, ids: list[str], fact: str, value: str, expect: str, note: str) -> None:
        got = verdict(ids, root)
        wanted = set() if expect == "valid" else {expect}
        if got != wanted:
            raise SystemExit(
                f"{name}: the evaluator finds {got if got is not None else 'a fatal reason'}"
            )
        file = f"value_probes/{name}.csv"
        files[file] = ids
        probes.append({"fact": fact, "value": value, "file": file, "expect": expect, "note": note})

    capacity = params["capacity_hours"]
    for name, targets, expect in (
        ("hours-at-limit", [capacity], "valid"),
        ("hours-past-limit", range(capacity + 1, capacity + 14), "slot_hours_by_class"),
    ):
        found = next(
            (f for t in targets if (f := hours_list(reference, pool, units, hours, t))), None
        )
        if found is None:
            raise SystemExit(f"{name}: no list found")
        need = sum(hours[i] for i in found)
        add(
            name,
            found,
            "slot_hours",
            values["capacity_hours"],
            expect,
            f"reference with units swapped: {len(found)} units needing {need} door-gang hours",
        )

    for name, due, expect in (
        ("c6-on-cutoff", cutoff, "c6_units_excluded"),
        ("c6-day-after", cutoff + timedelta(days=1), "valid"),
    ):
        probe_unit = next(
            i for i, u in sorted(units.items()) if u["next_c6_due"] == due.isoformat()
        )
        if probe_unit in reference:  # already listed: the reference itself is the probe
            ids, how = reference, f"reference, which lists {probe_unit}"
        else:
            same_class = [i for i in reversed(reference) if hours[i] >= hours[probe_unit]]
            ids = [i for i in reference if i != same_class[0]] + [probe_unit]
            how = f"reference with {same_class[0]} swapped for {probe_unit}"
        add(
            name,
            ids,
            "c6_exclusion",
            f"on or before {values['c6_cutoff']}",
            expect,
            f"{how}, next C6 due {long_date(due)}",
        )

    (hidden / "value_probes").mkdir(exist_ok=True)
    for old in (hidden / "value_probes").glob("*.csv"):
        old.unlink()
    for file, ids in files.items():
        with (hidden / file).open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle, lineterminator="\n")
            writer.writerow(["unit_id"])
            writer.writerows([i] for i in ids)
    document = {"generated_by": "hidden/make_value_probes.py", "probes": probes}
    (hidden / "value_probes.json").write_text(
        json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()
