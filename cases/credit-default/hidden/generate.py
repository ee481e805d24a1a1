"""Rebuild the credit-default case data from a fixed seed (numpy and the standard library only).

Run from anywhere: ``python cases/credit-default/hidden/generate.py [--params P] [--out ROOT]``.
It writes ``ROOT/data/train.csv``, ``ROOT/data/test.csv`` and ``ROOT/hidden/truth/test_labels.csv``
from the parameters in ``P`` (default: this case's ``hidden/params.json``, written into the case
itself, which rebuilds the base variant byte for byte). Every number a rule depends on (seed,
sample sizes, the default threshold, the good-sampling rate, the income-form dates) comes from
the parameters, so a variant (docs/variants.md) changes only its ``params.json``.

The synthetic book is shaped so that each hidden rule in ``information.md`` matters:

- Default (the label) is ``default_dpd`` (90 in the base) or more days past due within 12
  months of origination, recorded only as ``max_dpd_12m``. ``status`` at the extract date is a different outcome: charge-offs happen
  at 180 dpd (many 90+ defaulters cure first, who cures depends on things other than the
  default risk), late defaults after month 12 are charged off too, and fraud write-offs
  (synthetic identities with good bureau scores) are booked as ``charged_off`` without ever
  being credit defaults. Training on ``status`` therefore ranks worse and is mis-scaled.
- ``collections_balance`` is filled only once an account has been referred to collections
  (60+ dpd at any time), i.e. after the outcome; at application time it is always empty.
- ``train.csv`` is a development sample: every default of the training period and a random
  share (``good_sampling_rate``, a half in the base) of the other applications, so its raw default rate overstates the book's.
- ``income`` is monthly, except for broker applications since 2023-12-01 and online ones since
  the form relaunch on 2024-01-08, which capture annual income (``income_period`` = "A").
  That is under 1% of the training rows but two thirds of the test rows (the test file is the
  next half-year), and debt-to-income, the strongest risk driver, is wrong by a factor of 12
  on them if computed from raw income. Debt service includes housing costs, so no monthly-
  income applicant has a DTI below 0.08: the booster never learns how risk varies there.
- Secured products (auto loans, mortgages) have their own, much lower risk; they are in both
  files but out of the unsecured model's scope.
"""

from __future__ import annotations

import argparse
import csv
import json
from datetime import date, timedelta
from pathlib import Path

import numpy as np

CASE_DIR = Path(__file__).resolve().parent.parent
BASE_PARAMS = CASE_DIR / "hidden" / "params.json"
TRAIN_START, TRAIN_END = date(2022, 7, 1), date(2023, 12, 31)
TEST_START, TEST_END = date(2024, 1, 1), date(2024, 6, 30)
EXTRACT_DATE = date(2025, 6, 30)  # when status and collections_balance were extracted
EPOCH = date(1970, 1, 1)  # dates are handled as day numbers from here

PRODUCTS = ("personal_loan", "credit_card", "overdraft", "auto_loan", "mortgage")
PRODUCT_SHARES = (0.31, 0.29, 0.15, 0.14, 0.11)
# Baseline log-odds of a 12-month default per product, before the applicant's risk drivers.
PRODUCT_BASE_LOGIT = {
    "personal_loan": -3.30,
    "credit_card": -3.10,
    "overdraft": -2.85,
    "auto_loan": -4.40,
    "mortgage": -5.40,
}
REGIONS = ("north", "south", "east", "west", "capital", "islands")
REGION_SHARES = (0.18, 0.20, 0.15, 0.17, 0.22, 0.08)
REGION_LOGIT = (0.10, -0.05, 0.15, 0.0, -0.15, 0.25)

TRAIN_COLUMNS = (
    "applicant_id",
    "application_date",
    "product",
    "loan_amount",
    "term_months",
    "channel",
    "region",
    "age",
    "employment_years",
    "home_ownership",
    "income",
    "income_period",
    "monthly_debt_payments",
    "bureau_score",
    "revolving_utilisation",
    "delinquencies_24m",
    "inquiries_6m",
    "open_accounts",
    "collections_balance",
    "status",
    "max_dpd_12m",
)
TEST_COLUMNS = TRAIN_COLUMNS[:-2]  # outcomes are not known at application time

Book = dict[str, np.ndarray]
Params = dict[str, object]


def load_params(path: Path) -> Params:
    """The variant's parameters (docs/variants.md): seed, sizes, thresholds, dates."""
    return json.loads(path.read_text(encoding="utf-8"))


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def draw_dates(rng: np.random.Generator, n: int, start: date, end: date) -> np.ndarray:
    """Application dates as day offsets from 1970, sorted so files read like an extract."""
    span = (end - start).days + 1
    offsets = np.sort(rng.integers(0, span, size=n))
    return offsets + (start - EPOCH).days


def as_date(day_number: int) -> date:
    return EPOCH + timedelta(days=int(day_number))


def draw_channel(rng: np.random.Generator, days: np.ndarray) -> np.ndarray:
    """Online grows steadily over the period; brokers stay a small, constant share."""
    t = (days - (TRAIN_START - EPOCH).days) / 730.0
    p_online = np.clip(0.28 + 0.32 * t, 0.0, 0.7)
    u = rng.random(days.size)
    return np.where(u < p_online, "online", np.where(u < p_online + 0.12, "broker", "branch"))


def draw_people(rng: np.random.Generator, n: int) -> Book:
    """Who applies: latent credit quality and the bureau-visible traces of it."""
    quality = rng.standard_normal(n)
    age = np.clip(np.round(21 + rng.gamma(3.0, 7.0, n)), 21, 78)
    tenure_cap = age - 18
    employment = np.minimum(tenure_cap, rng.exponential(2.0 + 0.17 * (age - 21), n))
    employment = np.round(employment, 1)
    p_own = np.clip((age - 25) / 70, 0.02, 0.6)
    p_mortgage = np.clip(0.15 + (age - 25) / 80, 0.1, 0.45)
    p_family = np.where(age < 27, 0.3, 0.03)
    u = rng.random(n)
    home = np.select(
        [u < p_family, u < p_family + p_own, u < p_family + p_own + p_mortgage],
        ["with_family", "own", "mortgage"],
        "rent",
    )
    bureau = 688 + 62 * (0.78 * quality + 0.63 * rng.standard_normal(n))
    bureau = np.clip(np.round(bureau), 300, 850)
    thin_file = rng.random(n) < np.where(age < 25, 0.09, 0.025)
    bureau = np.where(thin_file, np.nan, bureau)
    utilisation = sigmoid(-0.35 - 0.75 * quality + 0.85 * rng.standard_normal(n)) * 1.12
    return {
        "quality": quality,
        "age": age,
        "employment_years": employment,
        "home_ownership": home,
        "bureau_score": bureau,
        "revolving_utilisation": np.round(np.clip(utilisation, 0.0, 1.1), 3),
        "delinquencies_24m": rng.poisson(np.exp(-1.45 - 0.75 * quality)),
        "inquiries_6m": rng.poisson(np.exp(-0.25 - 0.3 * quality + 0.35 * (age < 30))),
        "open_accounts": 1 + rng.poisson(1.8 + 0.06 * (age - 21)),
    }


def draw_finances(rng: np.random.Generator, book: Book) -> None:
    """Income, existing debt service and the product applied for."""
    n = book["age"].size
    log_income = (
        np.log(2450)
        + 0.006 * (book["age"] - 40)
        + 0.015 * np.minimum(book["employment_years"], 20)
        + 0.08 * book["quality"]
        + 0.55 * rng.standard_normal(n)
    )
    monthly_income = np.round(np.exp(log_income), -1)
    product = rng.choice(PRODUCTS, size=n, p=PRODUCT_SHARES)
    # Mortgage applicants earn more than the typical consumer-credit applicant.
    monthly_income = np.where(
        product == "mortgage", np.round(monthly_income * 1.5, -1), monthly_income
    )
    # Debt service includes the housing cost (rent or mortgage), so nobody is near zero.
    dti = np.clip(0.1 + 0.85 * rng.beta(1.7, 3.6, n) - 0.03 * book["quality"], 0.08, 0.95)
    book["monthly_income"] = monthly_income
    book["dti"] = dti
    book["monthly_debt_payments"] = np.round(dti * monthly_income)
    book["product"] = product
    draw_loan_terms(rng, book)


def draw_loan_terms(rng: np.random.Generator, book: Book) -> None:
    """Amount and term per product; the instalment feeds the latent affordability stress."""
    product, income = book["product"], book["monthly_income"]
    n = product.size
    spec = {  # median multiple of monthly income, spread, rounding, term choices
        "personal_loan": (2.2, 0.55, 100, (12, 24, 36, 48, 60, 72, 84)),
        "credit_card": (0.9, 0.5, 250, ()),
        "overdraft": (0.35, 0.5, 50, ()),
        "auto_loan": (4.5, 0.4, 100, (24, 36, 48, 60, 72)),
        "mortgage": (55.0, 0.35, 1000, (180, 240, 300, 360)),
    }
    amount = np.zeros(n)
    term = np.full(n, np.nan)
    for name, (multiple, spread, step, terms) in spec.items():
        rows = product == name
        raw = income[rows] * multiple * np.exp(spread * rng.standard_normal(rows.sum()))
        amount[rows] = np.maximum(step, np.round(raw / step) * step)
        if terms:
            term[rows] = rng.choice(terms, size=rows.sum())
    # Revolving products have no term; assume a 3% minimum payment for the stress.
    instalment = np.where(np.isnan(term), 0.03 * amount, amount * 1.07 / np.nan_to_num(term, nan=1))
    book["loan_amount"] = amount
    book["term_months"] = term
    book["payment_to_income"] = instalment / income


def default_logit(rng: np.random.Generator, book: Book, region_idx: np.ndarray) -> np.ndarray:
    """Log-odds of 90+ dpd within 12 months; affordability (DTI) is a first-order driver."""
    base = np.vectorize(PRODUCT_BASE_LOGIT.get)(book["product"])
    dti = book["dti"]
    secured = np.isin(book["product"], ("auto_loan", "mortgage"))
    stress = 7.0 * (dti - 0.37) + 5.0 * np.maximum(dti - 0.5, 0.0)
    z = (
        base
        - 0.95 * book["quality"]
        + np.where(secured, 0.5, 1.0) * stress
        + 1.6 * np.minimum(book["payment_to_income"], 0.6)
        + 0.22 * np.minimum(book["inquiries_6m"], 5)
        + 0.35 * (book["age"] < 25)
        - 0.025 * np.minimum(book["employment_years"], 12)
        + np.asarray(REGION_LOGIT)[region_idx]
        + 0.12 * (book["channel"] == "online")
        + 0.9 * rng.standard_normal(book["age"].size)
    )
    return z


def months_on_book(days: np.ndarray) -> np.ndarray:
    extract = (EXTRACT_DATE - EPOCH).days
    return (extract - days) / 30.44


def draw_outcomes(rng: np.random.Generator, book: Book, z: np.ndarray, params: Params) -> None:
    """12-month arrears (the real label) and the extract-date status (a different outcome).

    Serious arrears (90+ dpd) and milder ones (3-89 dpd) are drawn the same way in every
    variant; how common and how deep the mild ones are is ``arrears_logit_shift`` and
    ``mild_dpd_decay_days``. The label is ``max_dpd_12m >= default_dpd``, so a lower threshold
    also counts the deeper mild arrears. Fraud accounts are closed before they reach the
    threshold, so they are never credit defaults. With the base threshold of 90 the label is
    exactly the serious arrears.
    """
    n = z.size
    threshold = int(params["default_dpd"])
    default = rng.random(n) < sigmoid(z)
    dpd_default = np.minimum(365, 90 + np.round(rng.exponential(75, n)))
    arrears = rng.random(n) < sigmoid(z + float(params["arrears_logit_shift"]))
    weights = _mild_dpd_weights(float(params["mild_dpd_decay_days"]))
    dpd_mild = rng.choice(np.arange(3, 90), size=n, p=weights)
    dpd = np.where(default, dpd_default, np.where(arrears, dpd_mild, 0))

    fraud = _draw_fraud(rng, book)
    dpd = np.where(fraud, rng.integers(31, min(89, threshold - 1), n), dpd)
    default &= ~fraud  # fraud losses sit with the fraud team, not in the credit definition

    late_window = np.clip((months_on_book(book["days"]) - 12) / 24, 0, 1)
    late_default = ~default & ~fraud & (rng.random(n) < 0.6 * sigmoid(z) * late_window)
    rolls = rng.random(n) < _roll_to_charge_off(rng, book)
    charged_off = (default & rolls) | (late_default & (rng.random(n) < 0.6)) | fraud

    book["default_12m"] = (dpd >= threshold).astype(int)
    book["max_dpd_12m"] = dpd.astype(int)
    book["status"] = _status(rng, book, default | (dpd >= 30), charged_off)
    referred = (dpd >= 60) & ~fraud | late_default
    balance = book["loan_amount"] * rng.uniform(0.25, 0.95, n)
    book["collections_balance"] = np.where(referred, np.round(balance, 2), np.nan)


def _mild_dpd_weights(decay_days: float) -> np.ndarray:
    days = np.arange(3, 90)
    weights = np.exp(-days / decay_days)
    return weights / weights.sum()


def _draw_fraud(rng: np.random.Generator, book: Book) -> np.ndarray:
    """Synthetic identities: remote channels, young files, suspiciously good bureau scores."""
    remote = book["channel"] != "branch"
    good_score = np.nan_to_num(book["bureau_score"], nan=650) > 720
    p = np.where(remote, 0.04, 0.005) * np.where(good_score, 2.2, 0.7)
    unsecured = ~np.isin(book["product"], ("auto_loan", "mortgage"))
    return unsecured & (rng.random(book["age"].size) < p)


def _roll_to_charge_off(rng: np.random.Generator, book: Book) -> np.ndarray:
    """Who of the 90+ defaulters is written off rather than cured or restructured.

    Cure depends on home ownership, product and loan size far more than on the risk drivers
    of the default itself, which is why ``charged_off`` is a poor stand-in for default.
    """
    z = (
        -1.1
        + 1.1 * (book["home_ownership"] == "rent")
        + 0.8 * (book["product"] == "credit_card")
        - 0.9 * (book["product"] == "overdraft")
        + 0.9 * np.minimum(book["loan_amount"] / (12 * book["monthly_income"]), 2.0)
        - 0.05 * np.minimum(book["employment_years"], 15)
        + 0.8 * rng.standard_normal(book["age"].size)
    )
    return sigmoid(z)


def _status(
    rng: np.random.Generator, book: Book, troubled: np.ndarray, charged_off: np.ndarray
) -> np.ndarray:
    """Account status at the extract date; accounts that were in real trouble (30+ dpd) and
    were not written off are often on a payment plan ("restructured")."""
    n = troubled.size
    elapsed = months_on_book(book["days"]) >= np.nan_to_num(book["term_months"], nan=1e9)
    paid = elapsed | (rng.random(n) < 0.12)
    status = np.where(paid, "paid_off", "current")
    on_plan = troubled & (rng.random(n) < 0.5)
    status = np.where(on_plan, "restructured", status)
    return np.where(charged_off, "charged_off", status)


def _annual_income_form(channel: np.ndarray, days: np.ndarray, params: Params) -> np.ndarray:
    """Which applications came through the new form that asks for annual income: the broker
    feed from ``broker_pilot``, the online form from its relaunch on ``form_relaunch``."""
    broker_pilot = date.fromisoformat(str(params["broker_pilot"]))
    form_relaunch = date.fromisoformat(str(params["form_relaunch"]))
    pilot = (channel == "broker") & (days >= (broker_pilot - EPOCH).days)
    relaunch = (channel == "online") & (days >= (form_relaunch - EPOCH).days)
    return pilot | relaunch


def build_book(rng: np.random.Generator, n: int, start: date, end: date, params: Params) -> Book:
    days = draw_dates(rng, n, start, end)
    book = draw_people(rng, n)
    book["days"] = days
    book["channel"] = draw_channel(rng, days)
    region_idx = rng.choice(len(REGIONS), size=n, p=REGION_SHARES)
    book["region"] = np.asarray(REGIONS)[region_idx]
    draw_finances(rng, book)
    annual = _annual_income_form(book["channel"], days, params)
    book["income_period"] = np.where(annual, "A", "M")
    book["income"] = np.where(
        annual, np.round(book["monthly_income"] * 12, -2), book["monthly_income"]
    )
    draw_outcomes(rng, book, default_logit(rng, book, region_idx), params)
    return book


DECIMALS = {"employment_years": 1, "revolving_utilisation": 3, "collections_balance": 2}


def cell(column: str, value: object) -> str:
    """Format one cell the way the bank's extract tool writes it (empty for missing)."""
    if isinstance(value, float | np.floating):
        return "" if np.isnan(value) else f"{value:.{DECIMALS.get(column, 0)}f}"
    return str(value)


def write_book(path: Path, book: Book, ids: np.ndarray, columns: tuple[str, ...]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(columns)
        for i in range(ids.size):
            row = []
            for column in columns:
                if column == "applicant_id":
                    row.append(ids[i])
                elif column == "application_date":
                    row.append(as_date(book["days"][i]).isoformat())
                else:
                    row.append(cell(column, book[column][i]))
            writer.writerow(row)


def write_labels(path: Path, book: Book, ids: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(("applicant_id", "default_12m"))
        writer.writerows(zip(ids, book["default_12m"], strict=True))


def development_sample(rng: np.random.Generator, book: Book, good_rate: float) -> np.ndarray:
    """Rows kept in the model-development extract: every default, a random share of the rest."""
    keep = (book["default_12m"] == 1) | (rng.random(book["default_12m"].size) < good_rate)
    return np.flatnonzero(keep)


def generate(params: Params, root: Path) -> None:
    """Write ``root/data/{train,test}.csv`` and ``root/hidden/truth/test_labels.csv``."""
    n_book, n_test = int(params["n_book"]), int(params["n_test"])
    rng = np.random.default_rng(int(params["seed"]))
    numbers = rng.choice(900_000, size=n_book + n_test, replace=False) + 100_000
    ids = np.array([f"A{k:06d}" for k in numbers])
    book = build_book(rng, n_book, TRAIN_START, TRAIN_END, params)
    kept = development_sample(rng, book, float(params["good_sampling_rate"]))
    train = {name: column[kept] for name, column in book.items()}
    test = build_book(rng, n_test, TEST_START, TEST_END, params)
    test["collections_balance"] = np.full(n_test, np.nan)  # nothing is in collections yet
    write_book(root / "data" / "train.csv", train, ids[kept], TRAIN_COLUMNS)
    write_book(root / "data" / "test.csv", test, ids[n_book:], TEST_COLUMNS)
    write_labels(root / "hidden" / "truth" / "test_labels.csv", test, ids[n_book:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--params", type=Path, default=BASE_PARAMS, help="params.json to use")
    parser.add_argument("--out", type=Path, default=CASE_DIR, help="package root to write into")
    args = parser.parse_args()
    generate(load_params(args.params), args.out)


if __name__ == "__main__":
    main()
