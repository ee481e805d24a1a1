"""Write the value probes of delivery-routing: the reference pinned at a limit and just past it.

``python cases/drafts/delivery-routing/hidden/make_value_probes.py`` writes
``hidden/value_probes/`` and ``hidden/value_probes.json`` (cases/README.md, "Value probes");
``--params P --root ROOT`` does it for a variant.

One pair pins two answers at once. In one round of the reference, the drop at customer a is
re-timed so that, with the drop time the answer states (a fixed number of minutes plus
a minute or so per crate) and the matrix, the van reaches the next customer b exactly at
b's opening time, where the receiving window closes: that file must stay valid. The second
file starts the drop at a one minute later, so the van reaches b one minute after opening:
it must break ``receiving_window`` and nothing else. An evaluator with a longer drop time, or a
window that closes before the opening time, refuses the first; one with a shorter drop time
or a later window accepts the second. Both files are checked with the evaluator itself before
they are written, and the script fails if no pair of drops gives a clean pair.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

HIDDEN_DIR = Path(__file__).resolve().parent
sys.path[:0] = [str(HIDDEN_DIR), str(HIDDEN_DIR.parents[3])]

from evaluator import evaluate  # noqa: E402
from rounds import Rules, hhmm, load_day, minutes_of  # noqa: E402

from evaluators.api import Submission  # noqa: E402

Row = dict[str, object]


def read_rows(path: Path) -> list[Row]:
    with path.open(newline="", encoding="utf-8") as handle:
        return [{"van_id": r["van_id"], "seq": int(r["seq"]), "stop_id": r["stop_id"],
                 "planned_arrival": r["planned_arrival"]} for r in csv.DictReader(handle)]


def verdict(rows: list[Row], root: Path) -> set[str] | None:
    assessment = evaluate(Submission(format="csv", rows=rows), root / "data", root / "hidden")
    if assessment.fatal:
        return None
    return {violation.rule for violation in assessment.violations}


def write(path: Path, rows: list[Row]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["van_id", "seq", "stop_id", "planned_arrival"])
        for row in rows:
            writer.writerow([row["van_id"], row["seq"], row["stop_id"], row["planned_arrival"]])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--params", type=Path, default=HIDDEN_DIR / "params.json")
    parser.add_argument("--root", type=Path, default=HIDDEN_DIR.parent)
    args = parser.parse_args()
    params = json.loads(args.params.read_text(encoding="utf-8"))
    values = json.loads((args.root / "hidden" / "values.json").read_text(encoding="utf-8"))
    day = load_day(args.root / "data", Rules.truth(params))
    reference = read_rows(args.root / "hidden" / "reference.csv")
    found = None
    for i in range(len(reference) - 1):
        a, b = reference[i], reference[i + 1]
        if a["van_id"] != b["van_id"]:
            continue
        a_id, b_id = str(a["stop_id"]), str(b["stop_id"])
        start = minutes_of(str(day.stops[b_id]["opens"])) - day.drop(a_id) - day.minutes[(a_id, b_id)]
        window_a = day.window(a_id)
        if not window_a[0] <= start < window_a[1]:
            continue
        at, past = [dict(r) for r in reference], [dict(r) for r in reference]
        for rows, shift in ((at, 0), (past, 1)):
            rows[i]["planned_arrival"] = hhmm(start + shift)
            opens_b = minutes_of(str(day.stops[b_id]["opens"]))
            rows[i + 1]["planned_arrival"] = hhmm(min(minutes_of(str(b["planned_arrival"])), opens_b))
        if verdict(at, args.root) == set() and verdict(past, args.root) == {"receiving_window"}:
            found = (a_id, b_id, start, at, past)
            break
    if found is None:
        raise SystemExit("no pair of drops gives a clean value probe pair")
    a_id, b_id, start, at, past = found
    out = args.root / "hidden" / "value_probes"
    write(out / "window-at-opening.csv", at)
    write(out / "window-past-opening.csv", past)
    opens_b = day.stops[b_id]["opens"]
    crates = day.crates(a_id)
    note_at = (f"drop at {a_id} ({crates} crates) from {hhmm(start)}, reaching {b_id} at {opens_b}, "
               f"its opening time; the reference elsewhere")
    note_past = (f"drop at {a_id} ({crates} crates) from {hhmm(start + 1)}, reaching {b_id} one "
                 f"minute after its {opens_b} opening; the reference elsewhere")
    probes = []
    for fact, value in (("receiving_window", "opening time"),
                        ("drop_time", f"{values['drop_fixed_min']} minutes"),
                        ("drop_time", f"{values['drop_per_crate']} minute per crate")):
        probes.append({"fact": fact, "value": value, "file": "value_probes/window-at-opening.csv",
                       "expect": "valid", "note": note_at})
        probes.append({"fact": fact, "value": value, "file": "value_probes/window-past-opening.csv",
                       "expect": "receiving_window", "note": note_past})
    document = {"generated_by": "hidden/make_value_probes.py", "probes": probes}
    (args.root / "hidden" / "value_probes.json").write_text(
        json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
