"""Build data/bakes.csv for the tutorial bake-sale case.

The six bakes are designed by hand so that every hidden rule changes the best plan (see
hidden/information.md); a seeded random draw only roughens the ingredient costs by a few pence,
the way a real shopping list looks. Run it from anywhere: `python hidden/generate.py` rebuilds
the base from `hidden/params.json`; `--params P --out ROOT` writes `ROOT/data/bakes.csv` for a
variant (docs/variants.md). The seed, which bakes contain nuts and any renamed bake come from
the parameters.
"""

import argparse
import csv
import json
import random
from pathlib import Path
from typing import Any

PACKAGE = Path(__file__).resolve().parents[1]
COLUMNS = (
    "bake_id",
    "name",
    "oven_minutes_per_tray",
    "portions_per_tray",
    "price_per_portion",
    "ingredient_cost_per_tray",
    "contains_nuts",
)

# name, oven minutes per tray, portions per tray, price per portion (pence, as on the café's
# price board), ingredient cost per tray (pounds, before the seeded roughening). Which bakes
# contain nuts is a parameter (`nut_bakes`), as is a renamed bake (`names`).
CATALOGUE = (
    ("Chocolate brownies", 40, 16, 150, 6.00),
    ("Lemon drizzle cake", 50, 12, 175, 4.50),
    ("Flapjacks", 30, 20, 100, 3.50),
    ("Coffee and walnut cake", 45, 12, 250, 5.00),
    ("Cheese scones", 25, 12, 120, 2.40),
    ("Raspberry cheesecake", 60, 12, 300, 24.00),
)


def roughen(cost: float, rng: random.Random) -> float:
    """Move a cost by up to 15p either way, in whole pence."""
    return round(cost + rng.randint(-15, 15) / 100, 2)


def rows(params: dict[str, Any]) -> list[tuple[object, ...]]:
    rng = random.Random(params["seed"])
    table = []
    for number, (name, minutes, portions, pence, cost) in enumerate(CATALOGUE, start=1):
        bake_id = f"B{number:02d}"
        nuts = bake_id in params["nut_bakes"]
        table.append(
            (
                bake_id,
                params.get("names", {}).get(bake_id, name),
                minutes,
                portions,
                pence,
                f"{roughen(cost, rng):.2f}",
                "yes" if nuts else "no",
            )
        )
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--params", type=Path, default=PACKAGE / "hidden" / "params.json")
    parser.add_argument("--out", type=Path, default=PACKAGE, help="writes OUT/data/bakes.csv")
    args = parser.parse_args()
    params = json.loads(args.params.read_text(encoding="utf-8"))
    output = args.out / "data" / "bakes.csv"
    output.parent.mkdir(parents=True, exist_ok=True)
    with output.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(COLUMNS)
        writer.writerows(rows(params))


if __name__ == "__main__":
    main()
