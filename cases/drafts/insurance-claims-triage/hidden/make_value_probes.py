"""Write the value probes of insurance-claims-triage: the reference at each hours limit and past it.

``python hidden/make_value_probes.py [--root ROOT]`` writes ``ROOT/hidden/value_probes/`` and
``ROOT/hidden/value_probes.json`` (cases/README.md, "Value probes"); ROOT is this case (the
base variant) unless given, e.g. a variant folder. The limits and their labels come from the
evaluator's own ``params.json`` and ``values.json`` of that root, and every file is checked
with ``evaluate()`` before it is written.

- The unit's hours (fact ``siu_capacity_hours``): the reference topped up with one-hour glass
  checks until its hours are exactly the capacity (valid), then one glass check more (one hour
  past: only ``capacity_in_hours`` breaks).
- The injury investigator's hours (fact ``injury_investigator``): the reference with exactly
  the injury hours allowed (valid), then one injury claim more, with other referrals dropped
  so the unit's total still fits (only ``injury_cap`` breaks). One claim is the smallest step
  past the limit a list can take.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

HIDDEN_DIR = Path(__file__).resolve().parent
REPO = next((p for p in HIDDEN_DIR.parents if (p / "evaluators").is_dir()), Path.cwd())
sys.path[:0] = [str(HIDDEN_DIR), str(REPO)]  # the evaluator, and the repository's evaluators.api

from evaluator import evaluate  # noqa: E402

from evaluators.api import Submission  # noqa: E402


def read_ids(path: Path) -> list[str]:
    with path.open(newline="", encoding="utf-8") as handle:
        return [row["claim_id"] for row in csv.DictReader(handle)]


def broken(ids: list[str], root: Path) -> set[str]:
    rows = [{"claim_id": i} for i in ids]
    assessment = evaluate(Submission(format="csv", rows=rows), root / "data", root / "hidden")
    assert not assessment.fatal, assessment.fatal
    return {violation.rule for violation in assessment.violations}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=HIDDEN_DIR.parent, help="package root")
    root = parser.parse_args().root
    hidden = root / "hidden"
    params = json.loads((hidden / "params.json").read_text(encoding="utf-8"))
    values = json.loads((hidden / "values.json").read_text(encoding="utf-8"))
    with (root / "data" / "claims_open.csv").open(newline="", encoding="utf-8") as handle:
        claims = {row["claim_id"]: row for row in csv.DictReader(handle)}
    hours_of = params["hours_per_claim"]

    def hours(ids: list[str], kind: str | None = None) -> float:
        return sum(hours_of[claims[i]["claim_type"]] for i in ids
                   if kind is None or claims[i]["claim_type"] == kind)

    reference = read_ids(hidden / "reference.csv")
    ours = [i for i, c in claims.items() if c["handled_by"] != params["tpa_handler"]]
    spare = {kind: [i for i in ours if i not in reference and claims[i]["claim_type"] == kind]
             for kind in hours_of}
    capacity, injury_cap = params["capacity_hours"], params["injury_cap_hours"]

    # The unit's hours: top up with one-hour desk checks to exactly the capacity, then one more.
    at_capacity = list(reference)
    glass = iter(spare["glass"])
    while hours(at_capacity) < capacity:
        at_capacity.append(next(glass))
    past_capacity = [*at_capacity, next(glass)]

    # The injury investigator: exactly the injury hours, then one injury claim more.
    injuries = iter(spare["injury"])
    at_injury = list(reference)
    while hours(at_injury, "injury") < injury_cap:
        at_injury.append(next(injuries))
    past_injury = [*at_injury, next(injuries)]
    for probe in (at_injury, past_injury):
        while hours(probe) > capacity:  # drop the last non-injury referrals to fit the week
            drop = next(i for i in reversed(probe) if claims[i]["claim_type"] != "injury")
            probe.remove(drop)

    plan = [
        ("siu_capacity_hours", values["capacity_hours"], "capacity-at-limit", at_capacity, "valid",
         "capacity_in_hours"),
        ("siu_capacity_hours", values["capacity_hours"], "capacity-past-limit", past_capacity,
         "capacity_in_hours", "capacity_in_hours"),
        ("injury_investigator", values["injury_cap_hours"], "injury-at-limit", at_injury, "valid",
         "injury_cap"),
        ("injury_investigator", values["injury_cap_hours"], "injury-past-limit", past_injury,
         "injury_cap", "injury_cap"),
    ]
    (hidden / "value_probes").mkdir(exist_ok=True)
    probes = []
    for fact, label, name, ids, expect, rule in plan:
        got = broken(ids, root)
        if got != (set() if expect == "valid" else {rule}):
            raise SystemExit(f"{name}: the evaluator finds {got or 'nothing'}")
        file = f"value_probes/{name}.csv"
        with (hidden / file).open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle, lineterminator="\n")
            writer.writerow(["claim_id"])
            writer.writerows([i] for i in ids)
        note = (f"{len(ids)} referrals, {hours(ids):g} investigator hours, "
                f"{hours(ids, 'injury'):g} of them injury")
        probes.append({"fact": fact, "value": label, "file": file, "expect": expect, "note": note})
    document = {"generated_by": "hidden/make_value_probes.py", "probes": probes}
    (hidden / "value_probes.json").write_text(
        json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()
