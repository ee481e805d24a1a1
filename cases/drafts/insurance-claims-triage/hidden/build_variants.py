"""Rebuild the base variant and every further variant of the insurance-claims-triage case.

``python hidden/build_variants.py`` writes, for the base (in place) and for each variant in
``VARIANTS`` (into ``hidden/variants/<id>/``): ``params.json``, ``values.json``, the generated
``data/`` and ``hidden/truth/``, the reference, the counterfactuals and the anchors (by running
``generate.py`` and ``solver.py --all`` on that root), the value probes
(``make_value_probes.py``) and the variant's ``variant.toml`` with its reference value (the
base's goes into ``case.toml``). Deterministic: running it twice changes nothing.

Each variant keeps the story, the people and the kinds of rules and alters the facts behind
them: the unit's hours, the injury investigator's hours, SIU's hours per claim type, the
costs finance puts on a referral, and the claims themselves (another seed, so a leaked list
from one variant is worth little on another).
"""

from __future__ import annotations

import csv
import importlib.util
import json
import re
import subprocess
import sys
from datetime import date
from pathlib import Path

HIDDEN = Path(__file__).resolve().parent
CASE_DIR = HIDDEN.parent
REPO = next((p for p in HIDDEN.parents if (p / "evaluators").is_dir()), Path.cwd())
sys.path.insert(0, str(REPO))  # the repository, for evaluators.api

VARIANTS = {
    "short-week": {
        "title": "Short-staffed week",
        "summary": "An investigator is on leave: the unit has 110 hours for new referrals and "
        "the injury investigator 12 (one injury claim); other claims (seed).",
        "params": {"seed": 20250623, "capacity_hours": 110, "injury_cap_hours": 12},
    },
    "dearer-delays": {
        "title": "Dearer genuine referrals",
        "summary": "Finance's review puts a genuine claimant referred at GBP 650 and a hire car "
        "at GBP 2,400 more, and investigator time at GBP 70 an hour; other claims (seed).",
        "params": {"seed": 20250630, "friction_gbp": 650, "hire_car_gbp": 2400,
                   "cost_per_hour_gbp": 70},
    },
    "desk-tools": {
        "title": "New desk tools, new planning table",
        "summary": "Desk-based tools cut SIU's hours (theft and fire 8, collision 3, vandalism "
        "and storm 3, injury 10); the unit has 140 hours and the injury investigator 30 "
        "(three injury claims); other claims (seed).",
        "params": {"seed": 20250707, "capacity_hours": 140, "injury_cap_hours": 30,
                   "hours_per_claim": {"collision": 3, "theft": 8, "fire": 8, "injury": 10,
                                       "glass": 1, "vandalism": 3, "storm": 3}},
    },
}
NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def hours_text(hours: float) -> str:
    return f"{hours:g} hour" + ("" if hours == 1 else "s")


def values_for(params: dict) -> dict[str, str]:
    """Display strings an answer text needs, for ``{{placeholder}}`` rendering."""
    widened = date.fromisoformat(params["flag_widened_on"])
    values = {
        "capacity_hours": f"{params['capacity_hours']:g} investigator hours",
        "injury_cap_hours": hours_text(params["injury_cap_hours"]),
        "injury_cap_claims": NUMBER_WORDS[int(params["injury_cap_hours"] // params["hours_per_claim"]["injury"])],
        "cost_per_hour": f"£{params['cost_per_hour_gbp']:,}",
        "friction": f"£{params['friction_gbp']:,}",
        "hire_car": f"£{params['hire_car_gbp']:,}",
        "flag_widened": f"{widened.day} {widened:%B %Y}",
    }
    for kind, hours in params["hours_per_claim"].items():
        values[f"h_{kind}"] = hours_text(hours)
    return values


def build(root: Path, params: dict) -> float:
    hidden = root / "hidden"
    hidden.mkdir(parents=True, exist_ok=True)
    (hidden / "params.json").write_text(json.dumps(params, indent=2) + "\n", encoding="utf-8")
    (hidden / "values.json").write_text(
        json.dumps(values_for(params), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    py = sys.executable
    subprocess.run([py, str(HIDDEN / "generate.py"), "--params", str(hidden / "params.json"),
                    "--out", str(root)], check=True)
    subprocess.run([py, str(HIDDEN / "solver.py"), "--root", str(root), "--all"], check=True)
    subprocess.run([py, str(HIDDEN / "make_value_probes.py"), "--root", str(root)], check=True)
    return reference_value(root, hidden)


def reference_value(root: Path, hidden: Path) -> float:
    from evaluators.api import Submission

    spec = importlib.util.spec_from_file_location("claims_triage_evaluator", HIDDEN / "evaluator.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with (hidden / "reference.csv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assessment = module.evaluate(Submission(format="csv", rows=rows), root / "data", hidden)
    assert assessment.value is not None, assessment
    return assessment.value


def main() -> None:
    base = json.loads((HIDDEN / "params.json").read_text(encoding="utf-8"))
    value = build(CASE_DIR, base)
    toml = (CASE_DIR / "case.toml").read_text(encoding="utf-8")
    toml = re.sub(r"^reference_value = [0-9.eE+-]+", f"reference_value = {value!r}", toml, flags=re.M)
    (CASE_DIR / "case.toml").write_text(toml, encoding="utf-8")
    print(f"base: reference {value:.1f}")
    only = set(sys.argv[1:])
    for key, spec in VARIANTS.items():
        if only and key not in only:
            continue
        root = HIDDEN / "variants" / key
        value = build(root, {**base, **spec["params"]})
        (root / "variant.toml").write_text(
            f'title = "{spec["title"]}"\nsummary = "{spec["summary"]}"\n\n[scoring]\n'
            f"reference_value = {value!r}\nbaseline_value = 0.0\n",
            encoding="utf-8",
        )
        print(f"{key}: reference {value:.1f}")


if __name__ == "__main__":
    main()
