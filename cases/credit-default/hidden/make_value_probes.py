"""Write the value probes of credit-default: the reference PDs at each calibration limit and past it.

``python cases/credit-default/hidden/make_value_probes.py [--root ROOT]`` writes
``ROOT/hidden/value_probes/`` and ``ROOT/hidden/value_probes.json`` (cases/README.md, "Value
probes"); ROOT is this case (the base variant) unless given, e.g. a materialised variant.
Validation accepts a file whose average PD is within ``calibration_tolerance`` (relative, from
the evaluator's own ``params.json``) of the realised default rate. Each
probe keeps the reference's ranking (so its AUC and KS) and moves only the PD level: scaled down
to sit on the lower limit, shifted up to sit on the upper one (scaling up would push the highest
PDs past 1), then a little further out for the pair's second file. The tolerance and its label
come from the evaluator's own parameters, and every file is checked with the evaluator first.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections.abc import Callable
from pathlib import Path

HIDDEN_DIR = Path(__file__).resolve().parent
sys.path[:0] = [str(HIDDEN_DIR), str(HIDDEN_DIR.parents[2])]

from evaluator import _read_column, evaluate, rule_parameters  # noqa: E402

from evaluators.api import Submission  # noqa: E402

RULE = "calibration_rule"
#: Inside the limit by rounding noise only; past it by half a percent of the rate (relative).
AT_MARGIN = 2e-6
PAST_MARGIN = 0.005
DECIMALS = 6

PDs = dict[str, float]


def read_reference(hidden: Path) -> PDs:
    with (hidden / "reference.csv").open(newline="", encoding="utf-8") as handle:
        return {row["applicant_id"]: float(row["probability"]) for row in csv.DictReader(handle)}


def realised_rate(hidden: Path, ids: list[str]) -> float:
    truth = _read_column(hidden / "truth" / "test_labels.csv", "default_12m")
    return sum(int(truth[a]) for a in ids) / len(ids)


def broken(pds: PDs, root: Path) -> set[str]:
    rows = [{"applicant_id": a, "probability": p} for a, p in pds.items()]
    assessment = evaluate(Submission(format="csv", rows=rows), root / "data", root / "hidden")
    assert not assessment.fatal, assessment.fatal
    return {violation.rule for violation in assessment.violations}


def at_ratio(
    reference: PDs, rate: float, ratio: float, move: Callable[[float, float], float]
) -> PDs:
    """The reference moved by ``move(p, parameter)`` until mean/rate is ``ratio`` after rounding.

    ``move`` is increasing in its parameter, so the mean is found by bisection.
    """
    low, high = -1.0, 1.0

    def moved(parameter: float) -> PDs:
        return {a: round(move(p, parameter), DECIMALS) for a, p in reference.items()}

    for _ in range(80):
        middle = (low + high) / 2
        values = moved(middle).values()
        if sum(values) / len(values) / rate < ratio:
            low = middle
        else:
            high = middle
    return moved(low if ratio > 1 else high)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=HIDDEN_DIR.parent, help="package root")
    root = parser.parse_args().root
    hidden = root / "hidden"
    _, tolerance = rule_parameters(hidden)
    reference = read_reference(hidden)
    rate = realised_rate(hidden, list(reference))
    mean = sum(reference.values()) / len(reference)

    def scaled(p: float, parameter: float) -> float:  # parameter -1..1: factor 0..2 of the level
        return p * (1 + parameter)

    def shifted(p: float, parameter: float) -> float:  # parameter -1..1: up to the level itself
        return p + parameter * mean

    label = f"{tolerance:.0%}"
    sides = [
        ("low", scaled, 1 - tolerance, -1.0, "scaled down"),
        ("high", shifted, 1 + tolerance, 1.0, "shifted up"),
    ]
    probes = []
    (hidden / "value_probes").mkdir(exist_ok=True)
    for name, move, limit, outward, how in sides:
        for suffix, ratio, expect in (
            ("at-limit", limit - outward * AT_MARGIN, "valid"),
            ("past-limit", limit + outward * PAST_MARGIN, RULE),
        ):
            pds = at_ratio(reference, rate, ratio, move)
            if not all(0 <= p <= 1 for p in pds.values()):
                raise SystemExit(f"{name} {suffix}: a probability leaves 0-1")
            got = broken(pds, root)
            if got != (set() if expect == "valid" else {RULE}):
                raise SystemExit(f"{name} {suffix}: the evaluator finds {got or 'nothing'}")
            file = f"value_probes/calibration-{name}-{suffix}.csv"
            with (hidden / file).open("w", newline="", encoding="utf-8") as handle:
                writer = csv.writer(handle, lineterminator="\n")
                writer.writerow(["applicant_id", "probability"])
                writer.writerows((a, f"{p:.{DECIMALS}f}") for a, p in pds.items())
            shown = sum(pds.values()) / len(pds) / rate
            note = f"reference PDs {how}: average PD {shown:.4f} x the realised default rate"
            probes.append(
                {"fact": "calibration_rule", "value": label, "file": file, "expect": expect,
                 "note": note}
            )  # fmt: skip
    document = {"generated_by": "hidden/make_value_probes.py", "probes": probes}
    (hidden / "value_probes.json").write_text(
        json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()
