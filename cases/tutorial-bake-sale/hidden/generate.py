"""Build data/bakes.csv for the tutorial bake-sale case.

The six bakes are designed by hand so that every hidden rule changes the best plan (see
hidden/information.md); a seeded random draw only roughens the ingredient costs by a few pence,
the way a real shopping list looks. Run it from anywhere: `python hidden/generate.py`.
"""

import csv
import random
from pathlib import Path

SEED = 20250614
PACKAGE = Path(__file__).resolve().parents[1]
OUTPUT = PACKAGE / "data" / "bakes.csv"
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
# price board), ingredient cost per tray (pounds, before the seeded roughening), nuts?
CATALOGUE = (
    ("Chocolate brownies", 40, 16, 150, 6.00, False),
    ("Lemon drizzle cake", 50, 12, 175, 4.50, False),
    ("Flapjacks", 30, 20, 100, 3.50, False),
    ("Coffee and walnut cake", 45, 12, 250, 5.00, True),
    ("Cheese scones", 25, 12, 120, 2.40, False),
    ("Raspberry cheesecake", 60, 12, 300, 24.00, False),
)


def roughen(cost: float, rng: random.Random) -> float:
    """Move a cost by up to 15p either way, in whole pence."""
    return round(cost + rng.randint(-15, 15) / 100, 2)


def rows() -> list[tuple[object, ...]]:
    rng = random.Random(SEED)
    table = []
    for number, (name, minutes, portions, pence, cost, nuts) in enumerate(CATALOGUE, start=1):
        table.append(
            (
                f"B{number:02d}",
                name,
                minutes,
                portions,
                pence,
                f"{roughen(cost, rng):.2f}",
                "yes" if nuts else "no",
            )
        )
    return table


def main() -> None:
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    with OUTPUT.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(COLUMNS)
        writer.writerows(rows())


if __name__ == "__main__":
    main()
