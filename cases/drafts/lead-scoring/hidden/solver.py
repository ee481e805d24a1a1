"""Reference solver of the lead-scoring case, its counterfactuals and its anchors.

``python hidden/solver.py [--params P] [--root ROOT]`` writes ``ROOT/hidden/reference.csv``;
``--ignore KEY`` writes ``ROOT/hidden/counterfactuals/KEY.csv`` (the same pipeline with one
customer answer ignored); ``--anchors`` writes the admission anchors; ``--all`` does all three.
Without arguments: the base variant, in place.

The reference follows every rule in ``information.md``:

1. The label is a deal closed won within ``win_window_days`` of the lead's creation
   (``stage = closed_won`` and ``closed_won_date`` in time), not marketing's ``converted``.
2. A gradient-boosted classifier (scikit-learn) on what is known when a lead arrives; not
   ``activities_logged``, which on old leads records the whole sales cycle.
3. Each lead's worth is its estimated probability times the first-year ACV of its plan.
4. Leads of companies that are already customers are left out (account management's).
5. A company is one deal: its best-scoring lead stands for it, the others are not listed.
6. Each territory takes its own AEs' capacity (``leads_per_ae`` each), with ``moved_ae``'s
   territory one AE short of the roster; within a territory the most valuable companies are
   taken. With unit weights per territory and no other coupling this greedy pick is exact.

Each counterfactual changes one ``Recipe`` field.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
from collections import Counter
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")  # deterministic and quick on a busy machine

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier

CASE_DIR = Path(__file__).resolve().parent.parent
SEED = 7
NUMERIC = ("employees", "pages_viewed_7d", "emails_opened_30d", "trial_days_active", "mql_score")
CATEGORICAL = ("industry", "territory", "plan_interest", "account_status", "lead_source",
               "contact_role")
Table = list[dict[str, str]]


@dataclass(frozen=True)
class Recipe:
    """How a list is built; the reference and every counterfactual differ in one field."""

    label: str = "won_in_window"  # or "converted" (marketing) or "won_ever"
    leak: bool = False  # train on activities_logged too
    rank: str = "value"  # "value" (p x plan ACV), "probability" or "mql_score"
    exclude_customers: bool = True
    one_per_company: bool = True
    capacity: str = "territory"  # "territory", "roster" (as listed) or "global"
    roster_total: bool = False  # for capacity "global": count the moved AE too


REFERENCE = Recipe()
COUNTERFACTUALS = {
    "won_within_window": replace(REFERENCE, label="converted"),
    "activities_leak": replace(REFERENCE, leak=True),
    "value_by_plan": replace(REFERENCE, rank="probability"),
    "existing_customers_excluded": replace(REFERENCE, exclude_customers=False),
    "one_deal_per_company": replace(REFERENCE, one_per_company=False),
    "territory_capacity": replace(REFERENCE, capacity="global"),
    "roster_change": replace(REFERENCE, capacity="roster"),
}
# "Rank the leads most likely to convert", 15 per AE on the roster: marketing's label, every
# column, no exclusions, the whole team's capacity in one ranking.
LITERAL = Recipe(label="converted", leak=True, rank="probability", exclude_customers=False,
                 one_per_company=False, capacity="global", roster_total=True)
SHORTCUTS = {
    # Every rule kept, but the list ranked by marketing's lead score instead of a model.
    "shortcut-mql-score": replace(REFERENCE, rank="mql_score"),
    # The usual first model, inside the hard rules: any closed-won deal as the label, every
    # column as a feature, leads ranked by their probability, each lead taken on its own.
    "shortcut-first-model": replace(REFERENCE, label="won_ever", leak=True, rank="probability",
                                    one_per_company=False),
}


def read_table(path: Path) -> Table:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def labels(history: Table, params: dict, recipe: Recipe) -> np.ndarray:
    if recipe.label == "converted":
        return np.array([int(r["converted"]) for r in history])
    won = []
    for r in history:
        ok = r["stage"] == "closed_won"
        if ok and recipe.label == "won_in_window":
            days = (date.fromisoformat(r["closed_won_date"]) - date.fromisoformat(r["created_date"])).days
            ok = days <= params["win_window_days"]
        won.append(int(ok))
    return np.array(won)


def features(table: Table, categories: dict[str, list[str]], recipe: Recipe) -> np.ndarray:
    columns = [np.array([float(r[name]) for r in table]) for name in NUMERIC]
    if recipe.leak:
        columns.append(np.array([float(r["activities_logged"]) for r in table]))
    for name in CATEGORICAL:
        values = np.array([r[name] for r in table])
        columns.extend((values == v).astype(float) for v in categories[name])
    return np.column_stack(columns)


def probabilities(root: Path, params: dict, recipe: Recipe) -> tuple[Table, np.ndarray]:
    history = read_table(root / "data" / "leads_history.csv")
    queue = read_table(root / "data" / "lead_queue.csv")
    categories = {name: sorted({r[name] for r in history}) for name in CATEGORICAL}
    model = HistGradientBoostingClassifier(
        max_iter=150, learning_rate=0.05, max_leaf_nodes=15, min_samples_leaf=30,
        l2_regularization=1.0, random_state=SEED,
    )
    model.fit(features(history, categories, recipe), labels(history, params, recipe))
    return queue, model.predict_proba(features(queue, categories, recipe))[:, 1]


def capacities(root: Path, params: dict, recipe: Recipe) -> dict[str, int]:
    listed = Counter(r["territory"] for r in read_table(root / "data" / "sales_team.csv"))
    if recipe.capacity != "roster":
        listed[params["moved_territory"]] -= 1
    return {t: n * params["leads_per_ae"] for t, n in listed.items()}


def build(root: Path, params: dict, recipe: Recipe) -> list[str]:
    """The lead ids the recipe hands to the AEs, most valuable first."""
    queue, p = probabilities(root, params, recipe)
    if recipe.rank == "mql_score":
        worth = np.array([float(r["mql_score"]) for r in queue])
    elif recipe.rank == "probability":
        worth = p
    else:
        worth = p * np.array([params["acv_usd"][r["plan_interest"]] for r in queue])
    order = np.lexsort((np.arange(len(queue)), -worth))  # best first, ties by position
    candidates, seen = [], set()
    for i in order:
        lead = queue[i]
        if recipe.exclude_customers and lead["account_status"] == "active_customer":
            continue
        if recipe.one_per_company:
            if lead["company_domain"] in seen:
                continue
            seen.add(lead["company_domain"])
        candidates.append(i)
    caps = capacities(root, params, recipe)
    chosen: list[int] = []
    if recipe.capacity == "global":
        total = sum(caps.values())  # the real head count, in one ranking
        if recipe.roster_total:  # the roster as listed, the moved AE counted too
            total += params["leads_per_ae"]
        chosen = candidates[:total]
    else:
        used: Counter[str] = Counter()
        for i in candidates:
            territory = queue[i]["territory"]
            if used[territory] < caps.get(territory, 0):
                used[territory] += 1
                chosen.append(i)
    return [queue[i]["lead_id"] for i in chosen]


def write_list(path: Path, ids: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(("lead_id",))
        writer.writerows([i] for i in ids)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--params", type=Path, default=None)
    parser.add_argument("--root", type=Path, default=CASE_DIR)
    parser.add_argument("--ignore", choices=sorted(COUNTERFACTUALS))
    parser.add_argument("--anchors", action="store_true")
    parser.add_argument("--all", action="store_true")
    args = parser.parse_args()
    root = args.root
    params = json.loads((args.params or root / "hidden" / "params.json").read_text(encoding="utf-8"))
    hidden = root / "hidden"
    if args.all or not (args.ignore or args.anchors):
        write_list(hidden / "reference.csv", build(root, params, REFERENCE))
    if args.ignore:
        write_list(hidden / "counterfactuals" / f"{args.ignore}.csv",
                   build(root, params, COUNTERFACTUALS[args.ignore]))
    if args.all:
        for key, recipe in COUNTERFACTUALS.items():
            write_list(hidden / "counterfactuals" / f"{key}.csv", build(root, params, recipe))
    if args.all or args.anchors:
        write_list(hidden / "anchors" / "baseline.csv", [])
        write_list(hidden / "anchors" / "literal.csv", build(root, params, LITERAL))
        for name, recipe in SHORTCUTS.items():
            write_list(hidden / "anchors" / f"{name}.csv", build(root, params, recipe))


if __name__ == "__main__":
    main()
