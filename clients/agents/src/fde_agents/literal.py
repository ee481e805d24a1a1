"""Literal compliance: the request read word for word, built from the visible data only.

A literal reading needs the request's words, so it is a small recipe per case, each written
from that case's ``instruction.md`` and ``data/`` alone (never from its hidden files): the
generic-asker uses the recipe of the case it plays, and a case without one gets the
do-nothing deliverable, said so in the agent's log. Recipes are deliberately naive: they are
what "doing what was asked and nothing else" produces, the FDE-Gym literal anchor's idea.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path

from fde_agents.visible import data_tables, do_nothing, write_csv


def tiny_knapsack(workspace: Path) -> str:
    """ "The van takes 15 kg ... earn as much as possible": the lines with the highest total
    price whose listed weights sum to at most 15 kg (every subset is tried; there are 12)."""
    items = data_tables(workspace)["items.csv"]
    best: tuple[float, tuple[int, ...]] = (0.0, ())
    for size in range(len(items) + 1):
        for chosen in itertools.combinations(range(len(items)), size):
            weight = sum(float(items[i]["weight_kg"]) for i in chosen)
            price = sum(float(items[i]["price_eur"]) for i in chosen)
            if weight <= 15 and price > best[0]:
                best = (price, chosen)
    return write_csv(["item_id"], [{"item_id": items[i]["item_id"]} for i in best[1]])


def credit_default(workspace: Path) -> str:
    """ "Score the applicants in the test file": every applicant of test.csv at the default
    rate of the history (status charged_off, as the data dictionary defines a default)."""
    tables = data_tables(workspace)
    history = tables["train.csv"]
    rate = sum(row["status"] == "charged_off" for row in history) / max(len(history), 1)
    rows = [{"applicant_id": r["applicant_id"], "probability": f"{rate:.6f}"}
            for r in tables["test.csv"]]  # fmt: skip
    return write_csv(["applicant_id", "probability"], rows)


RECIPES: dict[str, Callable[[Path], str]] = {
    "tiny-knapsack": tiny_knapsack,
    "credit-default": credit_default,
}


def literal_deliverable(workspace: Path, case: str) -> tuple[str, str]:
    """(content, how it was built) for the case played in ``workspace``."""
    recipe = RECIPES.get(case)
    if recipe is None:
        _, content = do_nothing(workspace)
        return content, f"no literal recipe for {case}; the do-nothing deliverable instead"
    return recipe(workspace), f"the literal reading of the request ({recipe.__name__})"
