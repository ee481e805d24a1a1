"""Exact reference solver of the tutorial bake-sale case.

The plan is a whole number of trays per bake. Each bake's contribution depends only on its own
tray count, and the bakes share one budget of oven minutes, so a dynamic programme over
(bakes considered, oven minutes used) finds the optimum exactly.

    python hidden/solver.py                 writes hidden/reference.csv and hidden/anchors/
    python hidden/solver.py --ignore KEY    writes hidden/counterfactuals/KEY.csv: the best plan
                                            of someone who never learnt target KEY's answer
    python hidden/solver.py --all           both of the above, for every target

`--params P --root ROOT` does the same for a variant (docs/variants.md): it reads
`ROOT/data/bakes.csv` and writes under `ROOT/hidden/`. The oven minutes and the portions that
sell come from the parameters; which bakes contain nuts from the data.
"""

from __future__ import annotations

import argparse
import csv
import json
from dataclasses import dataclass, replace
from pathlib import Path

HIDDEN = Path(__file__).resolve().parent
BAKES_CSV = HIDDEN.parent / "data" / "bakes.csv"
#: The request's "6 hours of oven time", which every variant's Priya writes.
REQUEST_OVEN_MINUTES = 360


@dataclass(frozen=True)
class Bake:
    bake_id: str
    minutes: int
    portions: int
    price: float  # as written in the file (pence)
    cost: float  # pounds per tray
    nuts: bool


@dataclass(frozen=True)
class Understanding:
    """What the planner believes about the sale; the defaults are the truth."""

    oven_minutes: int = 300  # 5 hours in the big oven; the request says 6
    nuts_allowed: bool = False  # the school is nut-free
    profit: bool = True  # "most money" is takings minus ingredient costs
    price_to_pounds: float = 0.01  # price_per_portion is in pence
    portions_that_sell: int | None = 30  # per bake; extra portions earn nothing


TRUTH = Understanding()  # the base variant's; main() replaces it from the parameters
# Priya's request word for word: 6 hours, "most money" as takings, every bake, all of it sold.
LITERAL = Understanding(
    oven_minutes=REQUEST_OVEN_MINUTES,
    nuts_allowed=True,
    profit=False,
    price_to_pounds=0.01,
    portions_that_sell=None,
)


def truth_of(params: dict[str, object]) -> Understanding:
    return replace(
        Understanding(),
        oven_minutes=int(params["oven_minutes"]),  # type: ignore[call-overload]
        portions_that_sell=int(params["sells_at_most"]),  # type: ignore[call-overload]
    )


def misreadings(truth: Understanding) -> dict[str, Understanding]:
    """The plan of someone who never learnt each target's answer."""
    return {
        "oven_five_hours": replace(truth, oven_minutes=REQUEST_OVEN_MINUTES),
        "nut_free_school": replace(truth, nuts_allowed=True),
        "money_is_profit": replace(truth, profit=False),
        "price_in_pence": replace(truth, price_to_pounds=1.0),
        "thirty_portions_sell": replace(truth, portions_that_sell=None),
    }


TARGETS = sorted(misreadings(TRUTH))


def read_bakes(path: Path = BAKES_CSV) -> list[Bake]:
    with path.open(encoding="utf-8", newline="") as handle:
        return [
            Bake(
                bake_id=row["bake_id"],
                minutes=int(row["oven_minutes_per_tray"]),
                portions=int(row["portions_per_tray"]),
                price=float(row["price_per_portion"]),
                cost=float(row["ingredient_cost_per_tray"]),
                nuts=row["contains_nuts"].strip().lower() == "yes",
            )
            for row in csv.DictReader(handle)
        ]


def worth(bake: Bake, trays: int, view: Understanding) -> float:
    """What `trays` trays of `bake` bring in, as the planner with `view` sees it."""
    made = bake.portions * trays
    sold = made if view.portions_that_sell is None else min(made, view.portions_that_sell)
    takings = sold * bake.price * view.price_to_pounds
    return takings - bake.cost * trays if view.profit else takings


def best_plan(bakes: list[Bake], view: Understanding) -> dict[str, int]:
    """Trays per bake maximising `worth` within the oven minutes; ties go to fewer trays."""
    usable = [bake for bake in bakes if view.nuts_allowed or not bake.nuts]
    # states: minutes used -> (value, -trays, plan as tuple of (bake_id, trays))
    states: dict[int, tuple[float, int, tuple[tuple[str, int], ...]]] = {0: (0.0, 0, ())}
    for bake in usable:
        grown: dict[int, tuple[float, int, tuple[tuple[str, int], ...]]] = {}
        for used, (value, negative_trays, plan) in states.items():
            for trays in range((view.oven_minutes - used) // bake.minutes + 1):
                key = used + trays * bake.minutes
                candidate = (
                    round(value + worth(bake, trays, view), 6),
                    negative_trays - trays,
                    (*plan, (bake.bake_id, trays)),
                )
                if key not in grown or candidate[:2] > grown[key][:2]:
                    grown[key] = candidate
        states = grown
    _, _, plan = max(states.values(), key=lambda state: state[:2])
    return {bake_id: trays for bake_id, trays in plan if trays > 0}


def profit_of(bakes: list[Bake], plan: dict[str, int]) -> float:
    by_id = {bake.bake_id: bake for bake in bakes}
    return round(sum(worth(by_id[key], trays, TRUTH) for key, trays in plan.items()), 2)


def write_plan(path: Path, plan: dict[str, int]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["bake_id", "trays"])
        writer.writerows(sorted(plan.items()))


def one_of_each(bakes: list[Bake]) -> dict[str, int]:
    """Shortcut: a tray of every bake the school allows, "a bit of everything"."""
    return {bake.bake_id: 1 for bake in bakes if not bake.nuts}


def fill_with_best_tray(bakes: list[Bake]) -> dict[str, int]:
    """Shortcut: every rule but the sales cap, and the whole oven given to the bake whose
    single tray makes the most profit ("brownies are our best earner")."""
    allowed = [bake for bake in bakes if not bake.nuts]
    best = max(allowed, key=lambda bake: worth(bake, 1, TRUTH))
    return {best.bake_id: TRUTH.oven_minutes // best.minutes}


def main() -> None:
    global TRUTH
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--ignore", choices=TARGETS, help="target to ignore")
    group.add_argument("--all", action="store_true", help="reference, anchors, every target")
    parser.add_argument("--params", type=Path, default=HIDDEN / "params.json")
    parser.add_argument("--root", type=Path, default=HIDDEN.parent, help="the variant's root")
    args = parser.parse_args()
    TRUTH = truth_of(json.loads(args.params.read_text(encoding="utf-8")))
    hidden = args.root / "hidden"
    bakes = read_bakes(args.root / "data" / "bakes.csv")
    for key in TARGETS if args.all else [args.ignore] if args.ignore else []:
        plan = best_plan(bakes, misreadings(TRUTH)[key])
        write_plan(hidden / "counterfactuals" / f"{key}.csv", plan)
        print(f"{key}: {plan} -> true profit {profit_of(bakes, plan):.2f} GBP")
    if args.ignore:
        return
    reference = best_plan(bakes, TRUTH)
    write_plan(hidden / "reference.csv", reference)
    write_plan(hidden / "anchors" / "baseline.csv", {})
    write_plan(hidden / "anchors" / "literal.csv", best_plan(bakes, LITERAL))
    write_plan(hidden / "anchors" / "shortcut-one-of-each.csv", one_of_each(bakes))
    write_plan(hidden / "anchors" / "shortcut-fill-best-tray.csv", fill_with_best_tray(bakes))
    print(f"reference: {reference} -> profit {profit_of(bakes, reference):.2f} GBP")


if __name__ == "__main__":
    main()
