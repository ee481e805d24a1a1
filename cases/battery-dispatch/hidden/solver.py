"""Reference solver of battery-dispatch: the cheapest schedule for tomorrow as an exact LP (HiGHS).

``python cases/battery-dispatch/hidden/solver.py`` writes ``hidden/reference.csv``;
``--ignore KEY`` solves the same LP while ignoring (or misreading) one clarification target and
writes ``hidden/counterfactuals/KEY.csv``; ``--all`` writes the reference and every
counterfactual. ``--params P --root ROOT`` does the same for a variant, reading ``ROOT/data/``
and ``ROOT/hidden/truth/`` and writing under ``ROOT/hidden/`` (docs/variants.md). The site data
is read with the evaluator's own loader, so both see one truth.

Per quarter-hour q the LP has AC charge c_q and discharge d_q (kW), the state of charge s_q
(kWh, end of the quarter-hour), grid import i_q and export x_q (fixed at 0 unless a misreading
allows feed-in, which it then nets at the import price, as a naive LP without the rule does).
One more column P is the month's peak after tomorrow:

    minimise  sum_q 0.25 * price_q * (i_q - x_q) + rate * P
    s.t.      i_q - x_q - c_q + d_q = load_q - pv_q                   (site balance)
              s_q - s_{q-1} - 0.25 * eta_c * c_q + 0.25 / eta_d * d_q = 0
              P - i_q >= 0,  P >= peak threshold
              soc_min <= s_q <= soc_max,  s_95 >= end level,  0 <= c, d <= rated power

Charging and discharging in one quarter-hour never pays (every import price, adder included, is
positive), and a negligible throughput cost keeps the optimum free of such no-op pairs.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path

import highspy
import numpy as np

HIDDEN_DIR = Path(__file__).resolve().parent
DATA_DIR = HIDDEN_DIR.parent / "data"
sys.path[:0] = [str(HIDDEN_DIR), str(HIDDEN_DIR.parents[2])]

from evaluator import SiteDay, load_site_day  # noqa: E402

QUARTER_H = 0.25
THROUGHPUT_TIEBREAK_EUR_PER_KWH = 1e-6
INF = highspy.kHighsInf


@dataclass(frozen=True)
class Plan:
    """The planner's understanding of the day: the truth, or the truth with one target missed."""

    starts: list[datetime]
    net_load_kw: np.ndarray
    spot: np.ndarray  # EUR/kWh per quarter-hour
    adder: float
    export_allowed: bool
    rate_eur_per_kw: float
    peak_threshold_kw: float
    power_kw: float
    capacity_kwh: float
    start_soc_kwh: float
    soc_min_kwh: float
    soc_max_kwh: float
    end_soc_min_kwh: float
    eta_charge: float
    eta_discharge: float


def true_plan(site: SiteDay) -> Plan:
    return Plan(
        starts=site.starts,
        net_load_kw=np.array(site.load_kw) - np.array(site.pv_kw),
        spot=np.array(site.spot_eur_per_kwh),
        adder=site.adder_eur_per_kwh,
        export_allowed=False,
        rate_eur_per_kw=site.demand_rate_eur_per_kw,
        peak_threshold_kw=site.peak_so_far_kw,
        power_kw=site.power_kw,
        capacity_kwh=site.capacity_kwh,
        start_soc_kwh=site.start_soc_kwh,
        soc_min_kwh=site.soc_min_kwh,
        soc_max_kwh=site.soc_max_kwh,
        end_soc_min_kwh=site.end_soc_min_kwh,
        eta_charge=site.eta_charge,
        eta_discharge=site.eta_discharge,
    )


def june_invoice_peak_kw(data_dir: Path) -> float:
    with (data_dir / "invoice_2025-06.csv").open(newline="", encoding="utf-8") as handle:
        return next(float(r["quantity"]) for r in csv.DictReader(handle) if r["unit"] == "kW")


def spot_read_as_local(data_dir: Path, starts: list[datetime]) -> np.ndarray:
    """Prices joined on the clock time as written, as if the file were in local time.

    The day's last two local hours have no row stamped with that date; a planner joining on the
    clock hour falls back to the rows of the same hours the day before (which are in fact the
    first two hours of the same local day).
    """
    with (data_dir / "day_ahead_prices.csv").open(newline="", encoding="utf-8") as handle:
        table = {
            datetime.fromisoformat(r["delivery_start"]): float(r["price_eur_per_mwh"]) / 1000.0
            for r in csv.DictReader(handle)
        }
    hours = [s.replace(minute=0) for s in starts]
    return np.array([table.get(h, table.get(h - timedelta(days=1))) for h in hours])


def misread(plan: Plan, key: str, data_dir: Path) -> Plan:
    """The plan of someone who never got (or misread) the answer to target ``key``."""
    if key == "efficiency_round_trip":
        spec = json.loads((data_dir / "battery_spec.json").read_text(encoding="utf-8"))
        one_way = float(spec["efficiency_pct"]) / 100.0  # the datasheet figure read as one way
        return replace(plan, eta_charge=one_way, eta_discharge=one_way)
    if key == "soc_warranty_window":
        return replace(plan, soc_min_kwh=0.0, soc_max_kwh=plan.capacity_kwh)
    if key == "no_export":
        return replace(plan, export_allowed=True)
    if key == "end_soc_handover":
        return replace(plan, end_soc_min_kwh=plan.soc_min_kwh)
    if key == "demand_charge_increment":
        return replace(plan, rate_eur_per_kw=0.0)
    if key == "peak_so_far_july":
        return replace(plan, peak_threshold_kw=june_invoice_peak_kw(data_dir))
    if key == "prices_in_utc":
        return replace(plan, spot=spot_read_as_local(data_dir, plan.starts))
    raise SystemExit(f"unknown target {key!r}; choose one of {', '.join(TARGETS)}")


TARGETS = (
    "efficiency_round_trip",
    "soc_warranty_window",
    "no_export",
    "end_soc_handover",
    "demand_charge_increment",
    "peak_so_far_july",
    "prices_in_utc",
)


def solve(plan: Plan) -> np.ndarray:
    """Optimal battery_kw per quarter-hour (positive = discharge) for the planner's view."""
    n = len(plan.starts)
    # Column blocks: c, d, s, i, x, then P.
    c, d, s, i, x, peak = 0, n, 2 * n, 3 * n, 4 * n, 5 * n
    tiebreak = np.full(n, THROUGHPUT_TIEBREAK_EUR_PER_KWH * QUARTER_H)
    cost = np.concatenate(
        [tiebreak, tiebreak, np.zeros(n), QUARTER_H * (plan.spot + plan.adder),
         -QUARTER_H * (plan.spot + plan.adder), [plan.rate_eur_per_kw]]
    )  # fmt: skip
    soc_upper = np.full(n, plan.soc_max_kwh)
    soc_lower = np.full(n, plan.soc_min_kwh)
    soc_lower[-1] = max(plan.soc_min_kwh, plan.end_soc_min_kwh)
    export_upper = INF if plan.export_allowed else 0.0
    lower = np.concatenate([np.zeros(2 * n), soc_lower, np.zeros(2 * n), [plan.peak_threshold_kw]])
    upper = np.concatenate(
        [np.full(2 * n, plan.power_kw), soc_upper, np.full(n, INF), np.full(n, export_upper), [INF]]
    )
    rows: list[tuple[dict[int, float], float, float]] = []
    for q in range(n):
        balance = {i + q: 1.0, x + q: -1.0, c + q: -1.0, d + q: 1.0}
        rows.append((balance, plan.net_load_kw[q], plan.net_load_kw[q]))
        soc_row = {
            s + q: 1.0,
            c + q: -QUARTER_H * plan.eta_charge,
            d + q: QUARTER_H / plan.eta_discharge,
        }
        start = plan.start_soc_kwh if q == 0 else 0.0
        if q > 0:
            soc_row[s + q - 1] = -1.0
        rows.append((soc_row, start, start))
        rows.append(({peak: 1.0, i + q: -1.0}, 0.0, INF))
    solution = run_highs(cost, lower, upper, rows)
    battery_kw: np.ndarray = solution[d : d + n] - solution[c : c + n]
    return battery_kw


def run_highs(
    cost: np.ndarray,
    lower: np.ndarray,
    upper: np.ndarray,
    rows: list[tuple[dict[int, float], float, float]],
) -> np.ndarray:
    highs = highspy.Highs()  # type: ignore[no-untyped-call]
    highs.setOptionValue("output_flag", False)
    highs.addCols(len(cost), cost, lower, upper, 0, np.array([], dtype=np.int32),
                  np.array([], dtype=np.int32), np.array([]))  # fmt: skip
    for coefficients, row_lower, row_upper in rows:
        index = np.array(list(coefficients), dtype=np.int32)
        value = np.array(list(coefficients.values()), dtype=float)
        highs.addRow(row_lower, row_upper, len(index), index, value)
    highs.run()
    if highs.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        raise SystemExit(
            f"LP not solved to optimality: {highs.modelStatusToString(highs.getModelStatus())}"
        )
    return np.array(highs.getSolution().col_value)


def write_schedule(path: Path, starts: list[datetime], battery_kw: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["interval_start", "battery_kw"])
        for start, kw in zip(starts, battery_kw, strict=True):
            writer.writerow([start.strftime("%Y-%m-%dT%H:%M"), f"{round(float(kw), 6) + 0.0:.6f}"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--ignore", choices=TARGETS, help="solve while ignoring this target")
    group.add_argument("--all", action="store_true", help="reference and every counterfactual")
    parser.add_argument("--params", type=Path, default=HIDDEN_DIR / "params.json")
    parser.add_argument("--root", type=Path, default=HIDDEN_DIR.parent, help="the variant's root")
    args = parser.parse_args()
    data_dir, hidden_dir = args.root / "data", args.root / "hidden"
    params = json.loads(args.params.read_text(encoding="utf-8"))
    truth = true_plan(load_site_day(data_dir, hidden_dir, params))
    keys = list(TARGETS) if args.all else [args.ignore] if args.ignore else []
    if args.ignore is None:
        write_schedule(hidden_dir / "reference.csv", truth.starts, solve(truth))
    for key in keys:
        plan = misread(truth, key, data_dir)
        write_schedule(hidden_dir / "counterfactuals" / f"{key}.csv", plan.starts, solve(plan))


if __name__ == "__main__":
    main()
