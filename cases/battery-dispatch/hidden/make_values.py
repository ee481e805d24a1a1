"""Write ``hidden/values.json``: the figures the answer texts quote, for one variant.

``python cases/battery-dispatch/hidden/make_values.py`` writes the base variant's file;
``--params P --root ROOT`` a variant's (``ROOT/hidden/values.json``). The customer's answers,
the targets' requirements, information.md and matching.json write these figures as ``{{name}}``
placeholders (docs/variants.md), so every variant states its own rules and bill.

Every value is computed, never typed: the rules from ``params.json``, July's peak from
``truth/site_rules.json``, the bills from the evaluator's own verdict on the variant's
baseline, reference and counterfactuals. Run it after the solver and the anchors. The base's
values reproduce the texts as they were written before the placeholders (build_variants.py
checks that the rendered base equals them).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
from pathlib import Path
from typing import Any

HIDDEN_DIR = Path(__file__).resolve().parent
sys.path[:0] = [str(HIDDEN_DIR), str(HIDDEN_DIR.parents[2])]

from evaluator import evaluate  # noqa: E402

from evaluators.api import Assessment, Submission  # noqa: E402


def assess(root: Path, relative: str) -> Assessment:
    """The evaluator's verdict on a deliverable of the variant at ``root``."""
    with (root / "hidden" / relative).open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    return evaluate(Submission(format="csv", rows=rows), root / "data", root / "hidden")


def bill(assessment: Assessment) -> float:
    if assessment.value is None:
        raise SystemExit(f"expected a valid deliverable, got {assessment.violations}")
    return float(assessment.value)


def near(kw: float) -> str:
    """A peak in round words: "near 1 MW" close to a megawatt, else to the nearest 10 kW."""
    return "near 1 MW" if abs(kw - 1000.0) <= 50.0 else f"near {round(kw, -1):.0f} kW"


def values(params: dict[str, Any], root: Path) -> dict[str, str]:
    rules = json.loads((root / "hidden" / "truth" / "site_rules.json").read_text(encoding="utf-8"))
    capacity, eff = float(params["battery_kwh"]), float(params["efficiency_pct"]) / 100.0
    one_way = math.sqrt(eff)
    july = float(rules["peak_so_far_kw"])
    baseline = assess(root, "anchors/baseline.csv")
    reference = bill(assess(root, "reference.csv"))
    invoice_plan = assess(root, "counterfactuals/peak_so_far_july.csv")
    utc_plan = bill(assess(root, "counterfactuals/prices_in_utc.csv"))
    price_only = assess(root, "counterfactuals/demand_charge_increment.csv")
    unshaved = float(baseline.details["peak_import_kw"])
    return {
        "demand_rate": f"{params['demand_rate_eur_per_kw_month']:.2f}",
        "july_peak_kw": f"{july:.1f}",
        "efficiency_pct": f"{params['efficiency_pct']:g}",
        "efficiency_fraction": f"{eff:g}",
        "one_way_pct": f"{100 * one_way:.1f}",
        "one_way_pct_2dp": f"{100 * one_way:.2f}",
        "one_way_fraction": f"{one_way:.4f}",
        "one_way_misread_pct": f"{100 * eff * eff:.0f}",
        "soc_min_pct": f"{params['soc_min_pct']:g}",
        "soc_max_pct": f"{params['soc_max_pct']:g}",
        "soc_min_kwh": f"{capacity * params['soc_min_pct'] / 100:g}",
        "soc_max_kwh": f"{capacity * params['soc_max_pct'] / 100:g}",
        "start_soc_pct": f"{params['start_soc_pct']:g}",
        "end_soc_pct": f"{params['end_soc_min_pct']:g}",
        "baseline_bill": f"{bill(baseline):,.0f}",
        "baseline_demand": f"{baseline.details['demand_charge_eur']:,.0f}",
        "unshaved_peak_kw": f"{unshaved:.1f}",
        "unshaved_increase_kw": f"{unshaved - july:.1f}",
        "reference_bill": f"{reference:,.1f}",
        "invoice_plan_demand": f"{round(invoice_plan.details['demand_charge_eur'], -1):,.0f}",
        "utc_plan_loss": f"{round(utc_plan - reference, -1):,.0f}",
        "price_only_peak": near(float(price_only.details["peak_import_kw"])),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--params", type=Path, default=HIDDEN_DIR / "params.json")
    parser.add_argument("--root", type=Path, default=HIDDEN_DIR.parent, help="the variant's root")
    args = parser.parse_args()
    params = json.loads(args.params.read_text(encoding="utf-8"))
    out = args.root / "hidden" / "values.json"
    out.write_text(json.dumps(values(params, args.root), indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
