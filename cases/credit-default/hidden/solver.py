"""Reference solver of the credit-default case, its counterfactuals and its anchors.

``python cases/credit-default/hidden/solver.py`` writes ``hidden/reference.csv``;
``--ignore KEY`` writes ``hidden/counterfactuals/KEY.csv`` (the same pipeline with one
customer answer ignored); ``--anchors`` writes the admission anchors; ``--all`` does all three.
``--params P --root ROOT`` reads ``ROOT/data/`` and writes under ``ROOT/hidden/`` with the
parameters in ``P`` (docs/variants.md); without them it rebuilds the base variant in place.
The rules the pipeline follows (default threshold, scored products, good-sampling rate, the
model's seed) come from the parameters, never from constants here.

The reference follows every rule in ``information.md``: label = ``default_dpd``+ (90+ in the
base) dpd within 12 months from ``max_dpd_12m``; ``collections_balance`` and ``status`` dropped (known only after the outcome);
income put on a monthly basis before the debt-to-income ratio; only the scored products
(``scored_products``, the unsecured ones in the base) trained and scored; a gradient-boosting model fitted on four fifths of the development sample, then
Platt-calibrated on the last fifth with the sampled-down good accounts weighted back up, so the
mean PD matches the book's default rate rather than the sample's.

Each counterfactual changes exactly one ``Recipe`` field, the one a player would get wrong
without that target's answer: the ``status`` label, the leaking column fed in, raw income,
every product scored, no calibration step, calibration to the sample's rate, or 0/1 decisions
(what one sends when one believes the bank measures accuracy).
"""

from __future__ import annotations

import argparse
import csv
import json
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.linear_model import LogisticRegression

HIDDEN = Path(__file__).resolve().parent
CATEGORICAL = ("product", "channel", "region", "home_ownership", "income_period")
RAW_NUMERIC = (
    "loan_amount",
    "term_months",
    "age",
    "employment_years",
    "bureau_score",
    "revolving_utilisation",
    "delinquencies_24m",
    "inquiries_6m",
    "open_accounts",
)

Table = dict[str, np.ndarray]


@dataclass(frozen=True)
class Setting:
    """Where a variant's package lives and the rule parameters its deliverables follow."""

    root: Path
    default_dpd: int  # the label is max_dpd_12m >= this
    scored_products: tuple[str, ...]  # the products the model is trained on and scores
    good_sampling_rate: float  # share of the non-defaults kept in the development sample
    seed: int  # the booster's and the split's seed

    @classmethod
    def load(cls, params_path: Path, root: Path) -> Setting:
        params = json.loads(params_path.read_text(encoding="utf-8"))
        return cls(
            root=root,
            default_dpd=int(params["default_dpd"]),
            scored_products=tuple(params["scored_products"]),
            good_sampling_rate=float(params["good_sampling_rate"]),
            seed=int(params["solver_seed"]),
        )

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def hidden(self) -> Path:
        return self.root / "hidden"


@dataclass(frozen=True)
class Recipe:
    """How a deliverable is built; the reference and every variant differ in one field."""

    label: str = "dpd90"  # or "charged_off" (the status column)
    use_collections: bool = False  # feed collections_balance as a feature
    monthly_income: bool = True  # put annual incomes on a monthly basis
    unsecured_only: bool = True  # train and score only unsecured products
    calibrate: bool = True  # Platt scaling on a held-out fifth, to the book's default rate
    undo_sampling: bool = True  # weight the sampled-down good accounts back up when calibrating
    hard_labels: bool = False  # output 0/1 decisions, as for an accuracy metric


REFERENCE = Recipe()
COUNTERFACTUALS = {
    "default_definition": replace(REFERENCE, label="charged_off"),
    "collections_leakage": replace(REFERENCE, use_collections=True),
    "income_period": replace(REFERENCE, monthly_income=False),
    "secured_out_of_scope": replace(REFERENCE, unsecured_only=False),
    "calibration_rule": replace(REFERENCE, calibrate=False),
    "development_sample": replace(REFERENCE, undo_sampling=False),
    "metric_auc_ks": replace(REFERENCE, hard_labels=True),
}
LITERAL = Recipe(
    label="charged_off",
    use_collections=True,
    monthly_income=False,
    unsecured_only=False,
    calibrate=False,
)


def read_table(path: Path) -> Table:
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    return {name: np.array([row[name] for row in rows]) for name in rows[0]}


def numeric(values: np.ndarray) -> np.ndarray:
    return np.array([float(v) if v != "" else np.nan for v in values])


def select(table: Table, rows: np.ndarray) -> Table:
    return {name: column[rows] for name, column in table.items()}


def in_scope(table: Table, recipe: Recipe, setting: Setting) -> np.ndarray:
    if not recipe.unsecured_only:
        return np.ones(table["product"].size, dtype=bool)
    return np.isin(table["product"], setting.scored_products)


def labels(table: Table, recipe: Recipe, setting: Setting) -> np.ndarray:
    if recipe.label == "charged_off":
        return (table["status"] == "charged_off").astype(int)
    return (numeric(table["max_dpd_12m"]) >= setting.default_dpd).astype(int)


def features(table: Table, recipe: Recipe, categories: dict[str, list[str]]) -> np.ndarray:
    """Numeric matrix; categorical columns become codes the booster treats as categories."""
    income = numeric(table["income"])
    if recipe.monthly_income:
        income = np.where(table["income_period"] == "A", income / 12.0, income)
    columns = [numeric(table[name]) for name in RAW_NUMERIC]
    columns.append(income)
    columns.append(numeric(table["monthly_debt_payments"]) / income)
    columns.append(numeric(table["loan_amount"]) / (12.0 * income))
    if recipe.use_collections:
        columns.append(numeric(table["collections_balance"]))
    for name in CATEGORICAL:
        code = {value: i for i, value in enumerate(categories[name])}
        columns.append(np.array([code.get(v, np.nan) for v in table[name]], dtype=float))
    return np.column_stack(columns)


def categorical_mask(recipe: Recipe) -> np.ndarray:
    numeric_count = len(RAW_NUMERIC) + 3 + int(recipe.use_collections)
    return np.array([False] * numeric_count + [True] * len(CATEGORICAL))


def fit_and_score(train: Table, test: Table, recipe: Recipe, setting: Setting) -> np.ndarray:
    """Probabilities for ``test`` from a model fitted on ``train`` as the recipe says."""
    categories = {name: sorted(set(train[name])) for name in CATEGORICAL}
    x, y = features(train, recipe, categories), labels(train, recipe, setting)
    fit_rows, calibration_rows = split(y.size, setting.seed)
    model = HistGradientBoostingClassifier(
        max_iter=250,
        learning_rate=0.05,
        max_leaf_nodes=15,
        min_samples_leaf=40,
        l2_regularization=1.0,
        categorical_features=categorical_mask(recipe),
        random_state=setting.seed,
    )
    model.fit(x[fit_rows], y[fit_rows])
    x_test = features(test, recipe, categories)
    raw = model.predict_proba(x_test)[:, 1]
    if not recipe.calibrate:
        return raw
    held_out = y[calibration_rows]
    weight = book_weights(held_out, setting) if recipe.undo_sampling else np.ones(held_out.size)
    platt = LogisticRegression(C=1e6)
    platt.fit(logit(model.predict_proba(x[calibration_rows])[:, 1]), held_out, sample_weight=weight)
    return platt.predict_proba(logit(raw))[:, 1]


def book_weights(default: np.ndarray, setting: Setting) -> np.ndarray:
    """Each good account in the development sample stands for 1/good_sampling_rate in the book."""
    return np.where(default == 1, 1.0, 1.0 / setting.good_sampling_rate)


def split(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A fixed 80/20 split: boosting learns on four fifths, calibration on the rest."""
    order = np.random.default_rng(seed).permutation(n)
    cut = int(0.8 * n)
    return np.sort(order[:cut]), np.sort(order[cut:])


def logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return np.log(p / (1 - p)).reshape(-1, 1)


def build(recipe: Recipe, setting: Setting) -> tuple[np.ndarray, np.ndarray]:
    """Applicant ids and probabilities of the deliverable the recipe produces."""
    train, test = read_table(setting.data / "train.csv"), read_table(setting.data / "test.csv")
    train = select(train, in_scope(train, recipe, setting))
    test = select(test, in_scope(test, recipe, setting))
    probability = fit_and_score(train, test, recipe, setting)
    if recipe.hard_labels:
        probability = (probability >= 0.5).astype(float)
    return test["applicant_id"], probability


def write_deliverable(path: Path, ids: np.ndarray, probability: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(("applicant_id", "probability"))
        writer.writerows((a, f"{p:.6f}") for a, p in zip(ids, probability, strict=True))


def portfolio_rate(setting: Setting) -> float:
    """Realised 12-month default rate of the scored training book (the baseline PD)."""
    train = read_table(setting.data / "train.csv")
    train = select(train, in_scope(train, REFERENCE, setting))
    default = labels(train, REFERENCE, setting)
    return float(np.average(default, weights=book_weights(default, setting)))


def write_anchors(setting: Setting) -> None:
    test = read_table(setting.data / "test.csv")
    scored = select(test, in_scope(test, REFERENCE, setting))
    ids = scored["applicant_id"]
    anchors = setting.hidden / "anchors"
    write_deliverable(anchors / "baseline.csv", ids, np.full(ids.size, portfolio_rate(setting)))
    write_deliverable(anchors / "literal.csv", *build(LITERAL, setting))
    write_deliverable(anchors / "shortcut-bureau-score.csv", ids, bureau_only(scored, setting))


def bureau_only(test: Table, setting: Setting) -> np.ndarray:
    """The 'just use the bureau score' shortcut, calibrated on the scored training book."""
    train = read_table(setting.data / "train.csv")
    train = select(train, in_scope(train, REFERENCE, setting))
    fill = float(np.nanmedian(numeric(train["bureau_score"])))
    x_train = np.nan_to_num(numeric(train["bureau_score"]), nan=fill).reshape(-1, 1)
    x_test = np.nan_to_num(numeric(test["bureau_score"]), nan=fill).reshape(-1, 1)
    default = labels(train, REFERENCE, setting)
    model = LogisticRegression().fit(
        (x_train - 680) / 60, default, sample_weight=book_weights(default, setting)
    )
    return model.predict_proba((x_test - 680) / 60)[:, 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ignore", choices=sorted(COUNTERFACTUALS), help="target to ignore")
    parser.add_argument("--anchors", action="store_true", help="write the admission anchors")
    parser.add_argument("--all", action="store_true", help="reference, counterfactuals, anchors")
    parser.add_argument(
        "--params", type=Path, help="params.json (default: ROOT/hidden/params.json)"
    )
    parser.add_argument("--root", type=Path, default=HIDDEN.parent, help="package root")
    args = parser.parse_args()
    setting = Setting.load(args.params or args.root / "hidden" / "params.json", args.root)
    out = setting.hidden
    if args.all or not (args.ignore or args.anchors):
        write_deliverable(out / "reference.csv", *build(REFERENCE, setting))
    if args.ignore:
        recipe = COUNTERFACTUALS[args.ignore]
        write_deliverable(out / "counterfactuals" / f"{args.ignore}.csv", *build(recipe, setting))
    if args.all:
        for key, recipe in COUNTERFACTUALS.items():
            write_deliverable(out / "counterfactuals" / f"{key}.csv", *build(recipe, setting))
    if args.all or args.anchors:
        write_anchors(setting)


if __name__ == "__main__":
    main()
