"""Write ``hidden/values.json``: the figures the answer texts quote, for one variant.

The customer's answers, the targets' requirements, information.md and matching.json write
``{{name}}`` where a figure goes (docs/variants.md); this script fills in each name from what
the variant really is, so no figure is typed by hand: the rule figures from ``params.json``,
the floor's figures from ``data/`` and the accepted plan's from the reference, scored with the
case's own evaluator.

``python cases/warehouse-restack/hidden/make_values.py`` writes the base's values in place;
``--root ROOT`` those of a variant folder (``ROOT/data/``, ``ROOT/hidden/``).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

SCRIPT_DIR = Path(__file__).resolve().parent
sys.path[:0] = [str(SCRIPT_DIR), str(SCRIPT_DIR.parents[2])]

from evaluator import evaluate  # noqa: E402

from evaluators.api import Submission  # noqa: E402

WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
ORDINALS = {2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth"}
# The worked example of the gross-weight rule: a water pallet on a blue CHEP base.
EXAMPLE_BASE = "CHEP"


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def score(root: Path, moves: list[dict[str, str]]) -> dict[str, float]:
    """The evaluator's verdict on a move list: its value and details (it must be valid)."""
    submission = Submission(format="csv", rows=[{**row, "step": int(row["step"])} for row in moves])
    assessment = evaluate(submission, root / "data", root / "hidden")
    assert assessment.value is not None and not assessment.violations, assessment
    return {"value": assessment.value, **assessment.details}


def heavy_example(params: dict) -> dict[str, str]:
    """The lightest round figure (10 lb steps) that makes a CHEP pallet heavy: the answer's
    "1,700 lb of goods on a CHEP base is 771 + 30 = 801 kg" for an 800 kg limit."""
    base = params["pallet_base_kg"][EXAMPLE_BASE]
    pounds = 10
    while pounds / params["lb_per_kg"] + base <= params["heavy_gross_kg"]:
        pounds += 10
    net = pounds / params["lb_per_kg"]
    return {
        "heavy_example_lb": f"{pounds:,}",
        "heavy_example_net_kg": f"{net:.0f}",
        "heavy_example_gross_kg": f"{net + base:.0f}",
    }


def floor_figures(root: Path) -> dict[str, str]:
    """What the export morning looked like: pallets, empty positions, ambient stock in the
    chillers (the May-peak overflow)."""
    lanes = {row["lane_id"]: row["zone"] for row in rows(root / "data" / "lanes.csv")}
    stacks = rows(root / "data" / "stacks.csv")
    pallets = rows(root / "data" / "pallets.csv")
    ambient = {
        r["sku"] for r in rows(root / "data" / "sku_master.csv") if r["storage_class"] == "AMB"
    }
    used = {row["stack_id"] for row in pallets}
    in_chillers = [
        row for row in pallets if lanes[row["stack_id"][:3]] == "COLD" and row["sku"] in ambient
    ]
    return {
        "pallets_on_floor": f"{round(len(pallets), -2):,}",
        "empty_positions": str(sum(row["stack_id"] not in used for row in stacks)),
        "ambient_in_chillers": str(len(in_chillers)),
    }


def where_mixed(reference: dict[str, float]) -> str:
    """Where the accepted plan's mixed stacks are: the chillers are called the tightest part
    of the floor only on a variant where most of them are there."""
    cold = int(reference["mixed_stacks_cold"])
    if 2 * cold > reference["mixed_stacks"]:
        return f"{cold} in the chillers, which are the tightest part of the floor"
    return f"{cold} in the chillers, the rest in the ambient lanes"


def values(root: Path) -> dict[str, str]:
    params = json.loads((root / "hidden" / "params.json").read_text(encoding="utf-8"))
    baseline = score(root, [])
    reference = score(root, rows(root / "hidden" / "reference.csv"))
    cold, recorded = params["cold_tiers"], params["recorded_cold_tiers"]
    return {
        "cold_tiers": str(cold),
        "cold_tiers_word": WORDS[cold],
        "cold_tiers_word_cap": WORDS[cold].capitalize(),
        "cold_next_ordinal": ORDINALS[cold + 1],  # the pallet that no longer fits
        "recorded_cold_tiers": str(recorded),
        "recorded_cold_tiers_word": WORDS[recorded],
        "heavy_kg": f"{params['heavy_gross_kg']:g}",
        **heavy_example(params),
        **floor_figures(root),
        "mixed_before": str(int(baseline["mixed_stacks"])),
        "baseline_points": f"{baseline['value']:,.0f}",
        "reference_mixed": str(int(reference["mixed_stacks"])),
        "reference_mixed_cold": str(int(reference["mixed_stacks_cold"])),
        "reference_mixed_where": where_mixed(reference),
        "reference_moves": str(int(reference["moves"])),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=SCRIPT_DIR.parent, help="package or variant")
    root = parser.parse_args(argv).root
    document = values(root)
    path = root / "hidden" / "values.json"
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
