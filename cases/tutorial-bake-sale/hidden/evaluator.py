"""Evaluator of the tutorial bake-sale case.

Hard rules (violations): no bake containing nuts (the school is nut-free) and at most the oven
minutes of ``hidden/params.json`` in total (base: 300; the small oven is broken, so 5 hours,
not the 6 of the request). Value: the sale's profit in pounds - portions sold (at most
``sells_at_most`` of any one bake, base 30) times the price, which the file gives in pence,
minus the ingredient cost (in pounds) of every tray baked. The limits are the variant's
parameters (docs/variants.md), read from ``hidden_dir / "params.json"``.
"""

import csv
import json
from pathlib import Path

from evaluators.api import Assessment, Submission, ViolationCollector


def read_limits(hidden_dir: Path) -> tuple[int, int]:
    """(oven minutes, portions of one bake that sell) from the variant's parameters."""
    params = json.loads((hidden_dir / "params.json").read_text(encoding="utf-8"))
    return int(params["oven_minutes"]), int(params["sells_at_most"])


def read_catalogue(data_dir: Path) -> dict[str, dict[str, int | bool]]:
    """bake_id -> figures in whole minutes, portions and pence."""
    catalogue: dict[str, dict[str, int | bool]] = {}
    with (data_dir / "bakes.csv").open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            catalogue[row["bake_id"]] = {
                "minutes": int(row["oven_minutes_per_tray"]),
                "portions": int(row["portions_per_tray"]),
                "price_pence": int(row["price_per_portion"]),
                "cost_pence": round(float(row["ingredient_cost_per_tray"]) * 100),
                "nuts": row["contains_nuts"].strip().lower() == "yes",
            }
    return catalogue


def evaluate(submission: Submission, data_dir: Path, hidden_dir: Path) -> Assessment:
    catalogue = read_catalogue(data_dir)
    oven_minutes, sells_at_most = read_limits(hidden_dir)
    strangers = sorted({row["bake_id"] for row in submission.rows} - set(catalogue))
    if strangers:
        return Assessment(fatal=f"We don't have a recipe for {', '.join(strangers)}.")
    broken = ViolationCollector()
    minutes = takings = ingredients = sold_total = left_over = 0
    for index, row in enumerate(submission.rows):
        bake, trays = catalogue[row["bake_id"]], int(row["trays"])
        if trays == 0:
            continue
        if bake["nuts"]:
            broken.add(
                "nut_free_school",
                "The school is nut-free: nothing containing nuts may be sold at the sale.",
                {"line": Submission.line_of(index), "bake_id": row["bake_id"], "trays": trays},
            )
        made = int(bake["portions"]) * trays
        sold = min(made, sells_at_most)
        minutes += int(bake["minutes"]) * trays
        takings += sold * int(bake["price_pence"])
        ingredients += int(bake["cost_pence"]) * trays
        sold_total += sold
        left_over += made - sold
    if minutes > oven_minutes:
        broken.add(
            "oven_five_hours",
            f"The plan needs {minutes} oven minutes; with the small oven broken we have "
            f"{oven_minutes} ({oven_minutes / 60:g} hours).",
            {"oven_minutes": minutes},
        )
    if broken:
        return Assessment(violations=broken.violations())
    profit = (takings - ingredients) / 100
    return Assessment(
        value=profit,
        details={
            "profit_gbp": profit,
            "takings_gbp": takings / 100,
            "ingredients_gbp": ingredients / 100,
            "portions_sold": sold_total,
            "portions_left_over": left_over,
            "oven_minutes": minutes,
        },
    )
