"""Hidden evaluator of battery-dispatch: tomorrow's electricity bill under the site's true rules.

The battery is simulated quarter-hour by quarter-hour from the submitted AC power
(``battery_kw``: positive = discharging into the site, negative = charging) with the rules the
customer actually holds (``hidden/params.json``, and July's peak so far from
``hidden/truth/site_rules.json``):

- the datasheet's efficiency (90 % in the base variant) is a round-trip figure, split evenly:
  its square root on the way in and on the way out;
- the state of charge must stay inside the warranty window (10-90 % of nameplate in the base
  variant), narrower than the datasheet's 100 % depth of discharge;
- the site must never feed power into the grid (grid import >= 0 in every quarter-hour);
- the battery is handed over at midnight with at least the hand-over level (base: 50 %);
- the day-ahead price file is stamped in UTC, the site's files in local time (CEST, UTC+2).

The raw value is tomorrow's bill in EUR: imported energy at the hourly spot price plus the
contract's adder, plus the demand charge on the amount by which tomorrow's highest 15-minute
import raises July's peak so far. Tolerances sit at the resolution of the site's instruments
(1 kWh of SoC, 0.1 kW), so an LP schedule rounded to 0.1 kW is never flagged for rounding.
"""

from __future__ import annotations

import csv
import json
import math
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from evaluators.api import Assessment, Submission, ViolationCollector

QUARTER_H = 0.25
QUARTERS = 96
# Tolerances at the resolution of the site's instruments: the BMS reports SoC to 0.1 % (1 kWh),
# the meter and the EMS work in 0.1 kW. A schedule rounded to 0.1 kW must not fail on rounding,
# and nothing this small changes the bill by more than a few cents.
KWH_TOL = 1.0
KW_TOL = 0.1 + 1e-9


@dataclass(frozen=True)
class SiteDay:
    """Everything needed to price one day's schedule, aligned to local quarter-hours."""

    day: date
    utc_offset: timedelta
    starts: list[datetime]
    load_kw: list[float]
    pv_kw: list[float]
    spot_eur_per_kwh: list[float]
    adder_eur_per_kwh: float
    demand_rate_eur_per_kw: float
    peak_so_far_kw: float
    capacity_kwh: float
    power_kw: float
    start_soc_kwh: float
    soc_min_kwh: float
    soc_max_kwh: float
    end_soc_min_kwh: float
    eta_charge: float
    eta_discharge: float

    @property
    def import_price(self) -> list[float]:
        return [s + self.adder_eur_per_kwh for s in self.spot_eur_per_kwh]


def _read_json(path: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def _read_rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def local_spot_prices(data_dir: Path, starts: list[datetime], offset: timedelta) -> list[float]:
    """EUR/kWh per local quarter-hour from the UTC-stamped hourly price file."""
    by_utc_hour = {
        datetime.fromisoformat(row["delivery_start"]): float(row["price_eur_per_mwh"]) / 1000.0
        for row in _read_rows(data_dir / "day_ahead_prices.csv")
    }
    return [by_utc_hour[(s - offset).replace(minute=0)] for s in starts]


def load_site_day(
    data_dir: Path, hidden_dir: Path, params: dict[str, Any] | None = None
) -> SiteDay:
    """The day as the evaluator prices it: rules from ``params.json`` (the variant's parameters),
    the day, the clock offset and July's peak so far from ``truth/site_rules.json`` (derived by
    the generator from the meter data), everything else from the player's files."""
    params = params if params is not None else _read_json(hidden_dir / "params.json")
    rules = _read_json(hidden_dir / "truth" / "site_rules.json")
    spec = _read_json(data_dir / "battery_spec.json")
    status = _read_json(data_dir / "battery_status.json")
    tariff = _read_json(data_dir / "tariff.json")
    day = date.fromisoformat(rules["day"])
    offset = timedelta(hours=float(rules["utc_offset_hours"]))
    forecast = _read_rows(data_dir / f"forecast_{day.isoformat()}.csv")
    starts = [datetime.fromisoformat(row["interval_start"]) for row in forecast]
    capacity = float(spec["nameplate_energy_kwh"])
    efficiency = float(spec["efficiency_pct"]) / 100.0
    one_way = math.sqrt(efficiency) if params["efficiency_is_round_trip"] else efficiency
    return SiteDay(
        day=day,
        utc_offset=offset,
        starts=starts,
        load_kw=[float(row["load_forecast_kw"]) for row in forecast],
        pv_kw=[float(row["pv_forecast_kw"]) for row in forecast],
        spot_eur_per_kwh=local_spot_prices(data_dir, starts, offset),
        adder_eur_per_kwh=float(tariff["energy_adder_ct_per_kwh"]) / 100.0,
        demand_rate_eur_per_kw=float(tariff["demand_charge_eur_per_kw_month"]),
        peak_so_far_kw=float(rules["peak_so_far_kw"]),
        capacity_kwh=capacity,
        power_kw=float(spec["rated_power_kw"]),
        start_soc_kwh=capacity * float(status["soc_at_midnight_pct"]) / 100.0,
        soc_min_kwh=capacity * float(params["soc_min_pct"]) / 100.0,
        soc_max_kwh=capacity * float(params["soc_max_pct"]) / 100.0,
        end_soc_min_kwh=capacity * float(params["end_soc_min_pct"]) / 100.0,
        eta_charge=one_way,
        eta_discharge=one_way,
    )


def to_local(value: Any, offset: timedelta) -> datetime | None:
    """A submitted interval start as naive local time; zone-aware stamps are converted."""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.strip())
        except ValueError:
            return None
    if not isinstance(value, datetime):
        return None
    moment: datetime = value
    if moment.tzinfo is not None:
        moment = moment.astimezone(timezone(offset)).replace(tzinfo=None)
    return moment


def order_schedule(submission: Submission, site: SiteDay) -> tuple[list[int], str | None]:
    """Row index per local quarter-hour of the day, or a business-worded reason it cannot be."""
    expected = {start: q for q, start in enumerate(site.starts)}
    row_of: dict[int, int] = {}
    foreign: list[str] = []
    for i, row in enumerate(submission.rows):
        start = to_local(row.get("interval_start"), site.utc_offset)
        q = expected.get(start) if start is not None else None
        if q is None:
            foreign.append(f"line {submission.line_of(i)} ({row.get('interval_start')})")
        elif q in row_of:
            return [], f"the quarter-hour {site.starts[q]:%H:%M} appears twice."
        else:
            row_of[q] = i
    missing = [f"{site.starts[q]:%H:%M}" for q in range(QUARTERS) if q not in row_of]
    if not foreign and not missing:
        return [row_of[q] for q in range(QUARTERS)], None
    problems = []
    if foreign:
        problems.append(f"{len(foreign)} rows are not quarter-hours of that day, e.g. {foreign[0]}")
    if missing:
        problems.append(f"{len(missing)} quarter-hours have no row, e.g. {', '.join(missing[:3])}")
    return [], "; ".join(problems) + "."


def _example(submission: Submission, row: int, start: datetime, **extra: float) -> dict[str, Any]:
    rounded = {key: round(value, 3) for key, value in extra.items()}
    return {"line": submission.line_of(row), "interval_start": f"{start:%Y-%m-%d %H:%M}", **rounded}


def evaluate(submission: Submission, data_dir: Path, hidden_dir: Path) -> Assessment:
    site = load_site_day(data_dir, hidden_dir)
    rows, problem = order_schedule(submission, site)
    if problem is not None:
        return Assessment(
            fatal=(
                f"The schedule must cover {site.day:%A %d %B %Y} in site time, 00:00 to 23:45, "
                f"one row per quarter-hour (96 rows): {problem}"
            )
        )
    power = [float(submission.rows[i]["battery_kw"]) for i in rows]
    if not all(math.isfinite(p) for p in power):
        return Assessment(fatal="Every battery_kw value must be a finite number of kW.")
    violations = ViolationCollector()
    soc = simulate(site, power, rows, submission, violations)
    grid = [site.load_kw[q] - site.pv_kw[q] - power[q] for q in range(QUARTERS)]
    check_grid(site, grid, rows, submission, violations)
    if soc[-1] < site.end_soc_min_kwh - KWH_TOL:
        violations.add(
            "end_soc_handover",
            "At midnight the battery is handed over below the level the site needs for the "
            "next day.",
            _example(submission, rows[-1], site.starts[-1], soc_pct=pct(site, soc[-1])),
        )
    if violations:
        return Assessment(violations=violations.violations())
    return bill(site, grid, power, soc)


def pct(site: SiteDay, soc_kwh: float) -> float:
    return 100.0 * soc_kwh / site.capacity_kwh


def simulate(
    site: SiteDay,
    power: list[float],
    rows: list[int],
    submission: Submission,
    violations: ViolationCollector,
) -> list[float]:
    """State of charge (kWh) after every quarter-hour; flags power and warranty-window breaches."""
    soc = site.start_soc_kwh
    trajectory = []
    for q, p in enumerate(power):
        if abs(p) > site.power_kw + KW_TOL:
            violations.add(
                "power_limit",
                f"The battery inverter is rated {site.power_kw:.0f} kW; the schedule asks for more "
                "power.",
                _example(submission, rows[q], site.starts[q], battery_kw=p),
            )
        if p >= 0:
            soc -= p * QUARTER_H / site.eta_discharge
        else:
            soc -= p * QUARTER_H * site.eta_charge
        if soc < site.soc_min_kwh - KWH_TOL or soc > site.soc_max_kwh + KWH_TOL:
            violations.add(
                "soc_warranty_window",
                "The battery's state of charge leaves the operating window its warranty allows.",
                _example(submission, rows[q], site.starts[q], battery_kw=p, soc_pct=pct(site, soc)),
            )
        trajectory.append(soc)
    return trajectory


def check_grid(
    site: SiteDay,
    grid: list[float],
    rows: list[int],
    submission: Submission,
    violations: ViolationCollector,
) -> None:
    for q, g in enumerate(grid):
        if g < -KW_TOL:
            violations.add(
                "no_export",
                "The battery would push power into the grid; the site's connection agreement "
                "forbids any feed-in.",
                _example(submission, rows[q], site.starts[q], grid_import_kw=g),
            )


def bill(site: SiteDay, grid: list[float], power: list[float], soc: list[float]) -> Assessment:
    grid_import = [max(g, 0.0) for g in grid]
    energy = sum(g * QUARTER_H * p for g, p in zip(grid_import, site.import_price, strict=True))
    peak = max(grid_import)
    demand = site.demand_rate_eur_per_kw * max(0.0, peak - site.peak_so_far_kw)
    return Assessment(
        value=round(energy + demand, 6),
        details={
            "energy_cost_eur": round(energy, 2),
            "demand_charge_eur": round(demand, 2),
            "peak_import_kw": round(peak, 1),
            "grid_import_kwh": round(sum(grid_import) * QUARTER_H, 1),
            "battery_discharged_kwh": round(sum(max(p, 0.0) for p in power) * QUARTER_H, 1),
            "end_soc_pct": round(pct(site, soc[-1]), 2),
        },
    )
