"""Write ``hidden/values.json``: the figures the bake sale's answers quote, for one variant.

``python cases/tutorial-bake-sale/hidden/make_values.py`` writes the base variant's file;
``--params P --root ROOT`` a variant's. The answers, the targets, information.md and
matching.json write these as ``{{name}}`` placeholders (docs/variants.md), so each variant's
Tom and Priya state its own sales cap and nut bakes. Everything is computed from the
parameters, the variant's ``data/bakes.csv`` and its reference and counterfactuals as the
evaluator scores them: run it after solver.py.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

HIDDEN_DIR = Path(__file__).resolve().parent
sys.path[:0] = [str(HIDDEN_DIR), str(HIDDEN_DIR.parents[2])]

from evaluator import evaluate  # noqa: E402

from evaluators.api import Submission  # noqa: E402

#: Families at the sale per portion of one bake that sells: the base's 150 families, 30 portions.
FAMILIES_PER_PORTION = 5


def read_plan(path: Path) -> dict[str, int]:
    with path.open(newline="", encoding="utf-8") as handle:
        return {row["bake_id"]: int(row["trays"]) for row in csv.DictReader(handle)}


def described(plan: dict[str, int]) -> str:
    return ", ".join(f"{bake} x{trays}" for bake, trays in sorted(plan.items()))


def joined(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def values(params: dict[str, object], root: Path) -> dict[str, str]:
    with (root / "data" / "bakes.csv").open(newline="", encoding="utf-8") as handle:
        bakes = {row["bake_id"]: row for row in csv.DictReader(handle)}
    nut = [b for b, row in sorted(bakes.items()) if row["contains_nuts"] == "yes"]

    def scored(relative: str) -> tuple[dict[str, int], dict[str, object] | None]:
        plan = read_plan(root / "hidden" / relative)
        rows = [{"bake_id": b, "trays": t} for b, t in plan.items()]
        result = evaluate(Submission(format="csv", rows=rows), root / "data", root / "hidden")
        return plan, (result.details if result.value is not None else None)

    reference, ref = scored("reference.csv")
    profit_plan, profit = scored("counterfactuals/money_is_profit.csv")
    cap_plan, cap = scored("counterfactuals/thirty_portions_sell.csv")
    oven_plan = read_plan(root / "hidden" / "counterfactuals" / "oven_five_hours.csv")
    nuts_plan = read_plan(root / "hidden" / "counterfactuals" / "nut_free_school.csv")
    assert ref is not None and profit is not None and cap is not None
    cap_value = float(cap["profit_gbp"])  # type: ignore[arg-type]
    # information.md words these plans ("adds a tray of cheesecake", "two trays of coffee and
    # walnut cake", "two trays of cheesecake", "ten trays of flapjacks"): hold it to them.
    assert oven_plan == {**reference, "B06": reference.get("B06", 0) + 1}, oven_plan
    assert nuts_plan.get("B04") == 2 and profit_plan.get("B06") == 2, (nuts_plan, profit_plan)
    assert cap_plan == {"B03": 10}, cap_plan
    oven_minutes = sum(int(bakes[b]["oven_minutes_per_tray"]) * t for b, t in oven_plan.items())
    return {
        "portion_cap": str(params["sells_at_most"]),
        "families": str(FAMILIES_PER_PORTION * int(str(params["sells_at_most"]))),
        "nut_bakes": joined([f"the {bakes[b]['name'].lower()}" for b in nut]),
        "nut_pronoun": "it" if len(nut) == 1 else "them",
        "nut_bake_ids": "; ".join(f"{b}, {bakes[b]['name'].lower()}" for b in nut),
        "reference_plan": described(reference),
        "reference_profit": f"{ref['profit_gbp']:.2f}",
        "reference_minutes": str(ref["oven_minutes"]),
        "oven_plan_minutes": str(oven_minutes),
        "profit_plan_value": f"{profit['profit_gbp']:.2f}",
        "cap_plan_result": f"a loss of GBP {-cap_value:.2f}"
        if cap_value < 0
        else f"GBP {cap_value:.2f} profit",
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
