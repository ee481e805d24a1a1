"""Write hidden/value_probes/ and value_probes.json: the figures the answers state, pinned.

Two limits are figures an answer gives: the display minimum (Tomasz: at least N items, in whole
cases) and the closed store-day. For each, one deliverable at the limit (must stay valid) and
one just past it (must break the rule), each the reference with one order changed. Labels are
written from params.json and values.json, the files the evaluator and the answers read, and
every file is checked with evaluate() before it is written.

``python hidden/make_value_probes.py [--root ROOT]`` (ROOT: a materialised variant folder).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

HIDDEN = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=HIDDEN.parent)
    parser.add_argument("--repo", type=Path, default=HIDDEN.parents[3])
    args = parser.parse_args()
    sys.path.insert(0, str(args.repo))
    sys.path.insert(0, str(HIDDEN))
    from evaluators.api import Submission

    import evaluator

    root = args.root
    hidden = root / "hidden"
    params = json.loads((hidden / "params.json").read_text(encoding="utf-8"))
    values = json.loads((hidden / "values.json").read_text(encoding="utf-8"))
    with (hidden / "reference.csv").open(newline="", encoding="utf-8") as handle:
        reference = list(csv.DictReader(handle))
    products = {r["product_id"]: r for r in csv.DictReader((root / "data" / "products.csv").open())}
    closed = (params["closure"]["store_id"], params["closure"]["date"])
    min_units = int(params["min_display_units"])

    # The display minimum, pinned from both sides in the smallest store: at the limit on the
    # line whose whole cases come closest above it, past it on the line closest below it.
    def floor_of(pid: str) -> int:
        return -(-min_units // int(products[pid]["case_size"]))

    def case(pid: str) -> int:
        return int(products[pid]["case_size"])

    at_pid = min(products, key=lambda p: (floor_of(p) * case(p) - min_units, p))
    past_pid = max(products, key=lambda p: ((floor_of(p) - 1) * case(p), p))
    open_rows = [r for r in reference if r["store_id"] == "S06" and (r["store_id"], r["date"]) != closed]
    at_row = next(r for r in open_rows if r["product_id"] == at_pid)
    past_row = next(r for r in open_rows if r["product_id"] == past_pid)
    probes = []
    for row, pid, cases, name, expect, what in (
        (at_row, at_pid, floor_of(at_pid), "min-display-at-limit.csv", "valid", "at the minimum"),
        (past_row, past_pid, floor_of(past_pid) - 1, "min-display-past-limit.csv", "min_display",
         "one case short of the minimum"),
    ):
        where = f"{row['store_id']} {pid} {row['date']}"
        note = f"{where}: {cases} case(s) = {cases * case(pid)} items, {what}"
        probes.append(("min_display", values["min_display"], name, expect, {id(row): cases}, note))
    shut = next(r for r in reference if (r["store_id"], r["date"]) == closed)
    where = f"{shut['store_id']} {shut['product_id']} {shut['date']}"
    probes += [
        ("store_closure", values["closed_store"], "closure-at-limit.csv", "valid",
         {id(shut): 0}, f"{where}: nothing ordered for the closed store-day"),
        ("store_closure", values["closed_store"], "closure-past-limit.csv", "store_closure",
         {id(shut): 1}, f"{where}: one case for the closed store-day"),
    ]
    out = hidden / "value_probes"
    out.mkdir(exist_ok=True)
    listing = []
    for fact, value, name, expect, change, note in probes:
        rows = [dict(r, order_qty=str(change.get(id(r), r["order_qty"]))) for r in reference]
        typed = [dict(r, order_qty=int(r["order_qty"])) for r in rows]
        verdict = evaluator.evaluate(Submission(format="csv", rows=typed), root / "data", hidden)
        rules = {v.rule for v in verdict.violations}
        ok = (not rules and not verdict.fatal) if expect == "valid" else expect in rules
        if not ok:
            raise SystemExit(f"{name}: expected {expect}, evaluator said {rules or verdict.fatal}")
        with (out / name).open("w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]), lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
        listing.append({"fact": fact, "value": value, "file": f"value_probes/{name}",
                        "expect": expect, "note": note})
    (hidden / "value_probes.json").write_text(
        json.dumps({"generated_by": "hidden/make_value_probes.py", "probes": listing}, indent=2)
        + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
