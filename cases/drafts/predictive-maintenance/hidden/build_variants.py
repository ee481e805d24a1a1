"""Rebuild the base variant and every further variant of the predictive-maintenance case.

``python hidden/build_variants.py`` writes, for the base (in place) and for each variant in
``VARIANTS`` (into ``hidden/variants/<id>/``): ``params.json``, ``values.json``, the generated
``data/`` (with the base's hand-written ``data_dictionary.md``) and ``hidden/truth/``, the
reference, the counterfactuals and the anchors (by running ``generate.py`` and
``solver.py --all`` on that root), the value probes
(``make_value_probes.py``), and the scoring values (the base's into ``case.toml``, a variant's
into its ``variant.toml``). Deterministic: running it twice changes nothing.

Each variant keeps the story, the people and the kinds of rules and alters the facts behind
them: the shift length and so the door gang's hours, the hours per class, the delay threshold
of a failure, the failure and overhaul costs, and the fleet's own history
(another seed, so a leaked list from one variant is worth little or breaks a rule on another).
"""

from __future__ import annotations

import csv
import json
import re
import shutil
import subprocess
import sys
from datetime import date
from pathlib import Path

HIDDEN = Path(__file__).resolve().parent
CASE_DIR = HIDDEN.parent
sys.path[:0] = [str(HIDDEN), str(CASE_DIR.parents[2])]  # the evaluator; the repository

VARIANTS = {
    "long-shifts": {
        "title": "Nine-hour door-gang shifts and quicker overhauls",
        "summary": "The door gang works 9-hour shifts (270 hours in the window); a new "
        "changeover kit takes a 417 to 6 hours and a 428 to 12; another fleet history (seed).",
        "params": {
            "seed": 20260303,
            "capacity_hours": 270,
            "overhaul_hours": {"417": 6, "428": 12},
        },
    },
    "five-minute-regime": {
        "title": "Five-minute failures and new failure costs",
        "summary": "The new performance regime counts a failure from 5 delay minutes; a failure "
        "costs EUR 6,000 on a 417 and EUR 27,000 on a 428; another fleet history (seed).",
        "params": {
            "seed": 20260304,
            "delay_threshold_min": 5,
            "failure_cost_eur": {"417": 6000, "428": 27000},
        },
    },
    "dear-parts": {
        "title": "Seven-hour shifts and a dearer parts contract",
        "summary": "The door gang works 7-hour shifts (210 hours); the new parts contract puts an "
        "overhaul at EUR 4,600 on a 417 and EUR 8,900 on a 428; another fleet history (seed).",
        "params": {
            "seed": 20260305,
            "capacity_hours": 210,
            "overhaul_cost_eur": {"417": 4600, "428": 8900},
        },
    },
}


def eur(amount: float) -> str:
    return f"EUR {amount:,.0f}"


def values_for(params: dict) -> dict[str, str]:
    """Display strings the answer texts need, for ``{{placeholder}}`` rendering."""
    cutoff = date.fromisoformat(params["c6_cutoff"])
    shift = params["capacity_hours"] / params["slots"]
    return {
        "delay_threshold": f"{params['delay_threshold_min']} minutes",
        "firmware_factor": f"{params['firmware_factor']:.2f}",
        "c6_cutoff": f"{cutoff.day} {cutoff:%B %Y}",
        "shift_hours": f"{shift:g}-hour",
        "capacity_hours": f"{params['capacity_hours']} hours",
        "hours_417": f"{params['overhaul_hours']['417']} hours",
        "hours_428": f"{params['overhaul_hours']['428']} hours",
        "cost_fail_417": eur(params["failure_cost_eur"]["417"]),
        "cost_fail_428": eur(params["failure_cost_eur"]["428"]),
        "cost_oh_417": eur(params["overhaul_cost_eur"]["417"]),
        "cost_oh_428": eur(params["overhaul_cost_eur"]["428"]),
        "effectiveness": f"{params['effectiveness']:.0%}",
    }


def build(root: Path, params: dict) -> tuple[float, float]:
    hidden = root / "hidden"
    hidden.mkdir(parents=True, exist_ok=True)
    for generated in ("anchors", "counterfactuals", "value_probes", "truth"):
        if (hidden / generated).is_dir():
            shutil.rmtree(hidden / generated)
    (hidden / "params.json").write_text(json.dumps(params, indent=2) + "\n", encoding="utf-8")
    (hidden / "values.json").write_text(
        json.dumps(values_for(params), indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    py = sys.executable
    steps = (
        ["generate.py", "--params", str(hidden / "params.json"), "--out", str(root)],
        ["solver.py", "--root", str(root), "--all"],
        ["make_value_probes.py", "--root", str(root)],
    )
    for script, *args in steps:
        subprocess.run([py, str(HIDDEN / script), *args], check=True)
    if root != CASE_DIR:  # the hand-written dictionary is the same for every variant
        shutil.copyfile(
            CASE_DIR / "data" / "data_dictionary.md", root / "data" / "data_dictionary.md"
        )
    return value_of(root, "reference.csv"), value_of(root, "anchors/baseline.csv")


def value_of(root: Path, relative: str) -> float:
    from evaluator import evaluate

    from evaluators.api import Submission

    with (root / "hidden" / relative).open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assessment = evaluate(Submission(format="csv", rows=rows), root / "data", root / "hidden")
    if assessment.value is None:
        raise SystemExit(
            f"{root}: {relative} is not valid: {assessment.violations or assessment.fatal}"
        )
    return float(assessment.value)


def main() -> None:
    base = json.loads((HIDDEN / "params.json").read_text(encoding="utf-8"))
    reference, baseline = build(CASE_DIR, base)
    toml = (CASE_DIR / "case.toml").read_text(encoding="utf-8")
    toml = re.sub(
        r"^reference_value = [0-9.eE+-]+", f"reference_value = {reference!r}", toml, flags=re.M
    )
    toml = re.sub(
        r"^baseline_value = [0-9.eE+-]+", f"baseline_value = {baseline!r}", toml, flags=re.M
    )
    (CASE_DIR / "case.toml").write_text(toml, encoding="utf-8")
    print(f"base: reference {reference:.2f}")
    for key, spec in VARIANTS.items():
        root = HIDDEN / "variants" / key
        reference, baseline = build(root, {**base, **spec["params"]})
        (root / "variant.toml").write_text(
            f"title = {json.dumps(spec['title'])}\nsummary = {json.dumps(spec['summary'])}\n\n"
            "[scoring]  # written by hidden/build_variants.py from the evaluator\n"
            f"reference_value = {reference!r}\nbaseline_value = {baseline!r}\n",
            encoding="utf-8",
        )
        print(f"{key}: reference {reference:.2f}")


if __name__ == "__main__":
    main()
