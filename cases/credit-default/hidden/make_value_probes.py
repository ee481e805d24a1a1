"""Write the value probes of credit-default: the reference PDs at each calibration limit and past it.

``python cases/credit-default/hidden/make_value_probes.py`` writes ``hidden/value_probes/`` and
``hidden/value_probes.json`` (cases/README.md, "Value probes"). Validation accepts a file whose
average PD is within ``CALIBRATION_TOLERANCE`` (relative) of the realised default rate. Each
probe keeps the reference's ranking (so its AUC and KS) and moves only the PD level: scaled down
to sit on the lower limit, shifted up to sit on the upper one (scaling up would push the highest
PDs past 1), then a little further out for the pair's second file. The tolerance and its label
come from the evaluator's own constant, and every file is checked with the evaluator first.
"""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Callable
from pathlib import Path

HIDDEN_DIR = Path(__file__).resolve().parent
DATA_DIR = HIDDEN_DIR.parent / "data"
sys.path[:0] = [str(HIDDEN_DIR), str(HIDDEN_DIR.parents[2])]

from evaluator import CALIBRATION_TOLERANCE, _read_column, evaluate  # noqa: E402

from evaluators.api import Submission  # noqa: E402

RULE = "calibration_rule"
#: Inside the limit by rounding noise only; past it by half a percent of the rate (relative).
AT_MARGIN = 2e-6
PAST_MARGIN = 0.005
DECIMALS = 6

PDs = dict[str, float]


def read_reference() -> PDs:
    with (HIDDEN_DIR / "reference.csv").open(newline="", encoding="utf-8") as handle:
        return {row["applicant_id"]: float(row["probability"]) for row in csv.DictReader(handle)}


def realised_rate(ids: list[str]) -> float:
    truth = _read_column(HIDDEN_DIR / "truth" / "test_labels.csv", "default_12m")
    return sum(int(truth[a]) for a in ids) / len(ids)


def broken(pds: PDs) -> set[str]:
    rows = [{"applicant_id": a, "probability": p} for a, p in pds.items()]
    assessment = evaluate(Submission(format="csv", rows=rows), DATA_DIR, HIDDEN_DIR)
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
    reference = read_reference()
    rate = realised_rate(list(reference))
    mean = sum(reference.values()) / len(reference)

    def scaled(p: float, parameter: float) -> float:  # parameter -1..1: factor 0..2 of the level
        return p * (1 + parameter)

    def shifted(p: float, parameter: float) -> float:  # parameter -1..1: up to the level itself
        return p + parameter * mean

    label = f"{CALIBRATION_TOLERANCE:.0%}"
    sides = [
        ("low", scaled, 1 - CALIBRATION_TOLERANCE, -1.0, "scaled down"),
        ("high", shifted, 1 + CALIBRATION_TOLERANCE, 1.0, "shifted up"),
    ]
    probes = []
    (HIDDEN_DIR / "value_probes").mkdir(exist_ok=True)
    for name, move, limit, outward, how in sides:
        for suffix, ratio, expect in (
            ("at-limit", limit - outward * AT_MARGIN, "valid"),
            ("past-limit", limit + outward * PAST_MARGIN, RULE),
        ):
            pds = at_ratio(reference, rate, ratio, move)
            if not all(0 <= p <= 1 for p in pds.values()):
                raise SystemExit(f"{name} {suffix}: a probability leaves 0-1")
            got = broken(pds)
            if got != (set() if expect == "valid" else {RULE}):
                raise SystemExit(f"{name} {suffix}: the evaluator finds {got or 'nothing'}")
            file = f"value_probes/calibration-{name}-{suffix}.csv"
            with (HIDDEN_DIR / file).open("w", newline="", encoding="utf-8") as handle:
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
    (HIDDEN_DIR / "value_probes.json").write_text(
        json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()
