"""Write the value probes of the bake sale: the reference plan at the oven limit and just past it.

``python cases/tutorial-bake-sale/hidden/make_value_probes.py`` writes ``hidden/value_probes/``
and ``hidden/value_probes.json`` (cases/README.md, "Value probes"). The first plan changes as
few trays of the reference as it can so the oven is booked for exactly ``oven_minutes`` (it
must stay valid); the second books the fewest minutes past it that a small change can reach (it
must break the oven rule and nothing else). The limit and its label come from what the
evaluator reads (``params.json``), and each plan is checked with the evaluator before it is
written. ``--params P --root ROOT`` writes a variant's under ``ROOT/hidden/``.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import sys
from pathlib import Path

HIDDEN_DIR = Path(__file__).resolve().parent
DATA_DIR = HIDDEN_DIR.parent / "data"
sys.path[:0] = [str(HIDDEN_DIR), str(HIDDEN_DIR.parents[2])]

from evaluator import evaluate, read_catalogue  # noqa: E402

from evaluators.api import Submission  # noqa: E402

RULE = "oven_five_hours"
Plan = dict[str, int]


def read_reference() -> Plan:
    with (HIDDEN_DIR / "reference.csv").open(newline="", encoding="utf-8") as handle:
        return {row["bake_id"]: int(row["trays"]) for row in csv.DictReader(handle)}


def broken(plan: Plan) -> set[str]:
    rows = [{"bake_id": bake, "trays": trays} for bake, trays in plan.items()]
    assessment = evaluate(Submission(format="csv", rows=rows), DATA_DIR, HIDDEN_DIR)
    assert not assessment.fatal, assessment.fatal
    return {violation.rule for violation in assessment.violations}


def nearby(reference: Plan, bakes: list[str]) -> list[Plan]:
    """Plans that change at most two bakes of the reference by at most two trays each."""
    plans = []
    steps = [-2, -1, 1, 2]
    for count in (1, 2):
        for chosen in itertools.combinations(bakes, count):
            for deltas in itertools.product(steps, repeat=count):
                plan = dict(reference)
                for bake, delta in zip(chosen, deltas, strict=True):
                    plan[bake] = plan.get(bake, 0) + delta
                if all(trays >= 0 for trays in plan.values()):
                    plans.append({bake: trays for bake, trays in plan.items() if trays})
    return plans


def main() -> None:
    global DATA_DIR, HIDDEN_DIR
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--params", type=Path, default=HIDDEN_DIR / "params.json")
    parser.add_argument("--root", type=Path, default=HIDDEN_DIR.parent, help="the variant's root")
    args = parser.parse_args()
    DATA_DIR, HIDDEN_DIR = args.root / "data", args.root / "hidden"
    oven_minutes = int(json.loads(args.params.read_text(encoding="utf-8"))["oven_minutes"])
    catalogue = read_catalogue(DATA_DIR)
    reference = read_reference()
    allowed = sorted(bake for bake, figures in catalogue.items() if not figures["nuts"])

    def minutes(plan: Plan) -> int:
        return sum(int(catalogue[bake]["minutes"]) * trays for bake, trays in plan.items())

    def change(plan: Plan) -> int:
        return sum(abs(plan.get(b, 0) - reference.get(b, 0)) for b in set(plan) | set(reference))

    candidates = sorted(nearby(reference, allowed), key=lambda p: (change(p), sorted(p.items())))
    at = next(p for p in candidates if minutes(p) == oven_minutes and broken(p) == set())
    over = [p for p in candidates if minutes(p) > oven_minutes and broken(p) == {RULE}]
    past = min(over, key=lambda p: (minutes(p), change(p)))
    probes = []
    (HIDDEN_DIR / "value_probes").mkdir(exist_ok=True)
    for suffix, plan, expect in (("at-limit", at, "valid"), ("past-limit", past, RULE)):
        file = f"value_probes/oven-minutes-{suffix}.csv"
        with (HIDDEN_DIR / file).open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle, lineterminator="\n")
            writer.writerow(["bake_id", "trays"])
            writer.writerows(sorted(plan.items()))
        note = f"{minutes(plan)} oven minutes in all, a few trays away from the reference"
        probes.append(
            {"fact": "oven_time", "value": str(oven_minutes), "file": file, "expect": expect,
             "note": note}
        )  # fmt: skip
    document = {"generated_by": "hidden/make_value_probes.py", "probes": probes}
    (HIDDEN_DIR / "value_probes.json").write_text(
        json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()
