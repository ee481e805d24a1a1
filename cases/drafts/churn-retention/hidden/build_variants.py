"""Rebuild the base variant and every further variant of the churn-retention case.

``python hidden/build_variants.py`` writes, for the base (in place) and for each variant in
``VARIANTS`` (into ``hidden/variants/<id>/``): ``params.json``, ``values.json``, the generated
``data/`` and ``hidden/truth/``, the reference, the counterfactuals and the anchors (by running
``generate.py`` and ``solver.py --all`` on that root), and the variant's ``variant.toml`` with
its reference value (the base's goes into ``case.toml``). Deterministic: running it twice
changes nothing.

Each variant keeps the story, the people and the kinds of rules and alters the facts behind
them: the billing window, the discount, the plan margins, how long finance values a kept
line, and the customers themselves (another seed, so a leaked list from one variant is worth
nothing on another).
"""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
from datetime import date
from pathlib import Path

HIDDEN = Path(__file__).resolve().parent
CASE_DIR = HIDDEN.parent
sys.path.insert(0, str(CASE_DIR.parents[2]))  # the repository, for evaluators.api

VARIANTS = {
    "summer-window": {
        "title": "Wider billing window, smaller discount, new Unlimited margin",
        "summary": "Billing re-contracts lines ending within three months (by 31 July 2025); the "
        "discount is 15% for 12 months; a new network deal lifts Unlimited's margin to EUR 16.00; "
        "other customers (seed).",
        "params": {"seed": 20250512, "contract_window_months": 3, "discount_pct": 15,
                   "plan_margin_eur": {"LUMO10": 9.0, "LUMO50": 15.5, "UNL": 16.0, "UNLMAX": 19.0}},
    },
    "lean-margin": {
        "title": "One-month window, smaller discount, thinner margins, 18-month horizon",
        "summary": "Billing re-contracts only lines ending by 31 May 2025; the discount is 10% for "
        "12 months; margins are lower after a wholesale price rise and finance values a kept line "
        "at 18 months; other customers (seed).",
        "params": {"seed": 20250519, "contract_window_months": 1, "discount_pct": 10,
                   "value_months": 18,
                   "plan_margin_eur": {"LUMO10": 8.0, "LUMO50": 14.0, "UNL": 11.0, "UNLMAX": 17.0}},
    },
}
PLAN_NAMES = {"LUMO10": "Lumo 10GB", "LUMO50": "Lumo 50GB", "UNL": "Lumo Unlimited",
              "UNLMAX": "Lumo Unlimited Max"}
PLAN_FEES = {"LUMO10": 15.0, "LUMO50": 25.0, "UNL": 35.0, "UNLMAX": 45.0}


def values_for(params: dict) -> dict[str, str]:
    """Display strings an answer text needs, for ``{{placeholder}}`` rendering."""
    sys.path.insert(0, str(HIDDEN))
    from generate import window_end  # noqa: PLC0415

    last = window_end(date.fromisoformat(params["offer_date"]), params["contract_window_months"])
    values = {
        "budget": f"EUR {params['budget_eur']:,}",
        "discount": f"{params['discount_pct']}%",
        "discount_months": f"{params['discount_months']} months",
        "value_months": f"{params['value_months']} months",
        "window_end": f"{last.day} {last:%B %Y}",
    }
    for code, margin in params["plan_margin_eur"].items():
        values[f"margin_{code.lower()}"] = f"EUR {margin:.2f}"
        commit = PLAN_FEES[code] * params["discount_pct"] / 100 * params["discount_months"]
        values[f"commit_{code.lower()}"] = f"EUR {commit:g}"
    return values


def build(root: Path, params: dict) -> float:
    hidden = root / "hidden"
    hidden.mkdir(parents=True, exist_ok=True)
    (hidden / "params.json").write_text(json.dumps(params, indent=2) + "\n", encoding="utf-8")
    (hidden / "values.json").write_text(json.dumps(values_for(params), indent=2) + "\n", encoding="utf-8")
    py = sys.executable
    subprocess.run([py, str(HIDDEN / "generate.py"), "--params", str(hidden / "params.json"),
                    "--out", str(root)], check=True)
    subprocess.run([py, str(HIDDEN / "solver.py"), "--root", str(root), "--all"], check=True)
    return reference_value(root, hidden)


def reference_value(root: Path, hidden: Path) -> float:
    import importlib.util  # noqa: PLC0415

    from evaluators.api import Submission  # noqa: PLC0415

    spec = importlib.util.spec_from_file_location("churn_retention_evaluator", HIDDEN / "evaluator.py")
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
    for key, spec in VARIANTS.items():
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
