"""Rebuild the battery-dispatch case data from a fixed seed (numpy and the standard library only).

Run from anywhere: ``python cases/battery-dispatch/hidden/generate.py``. It writes the player's
files in ``data/`` and the true site rules in ``hidden/truth/site_rules.json`` from the base
variant's ``hidden/params.json``; ``--params P --out ROOT`` writes ``ROOT/data/`` and
``ROOT/hidden/truth/`` for a variant (docs/variants.md). The seed, the battery, the tariff, the
rules and any weather override come from the parameters, so a variant changes only them.

The site is a cold store near Bremen with a 600 kWp rooftop PV plant and a 1 MWh / 500 kW
battery. The data is shaped so that each hidden rule in ``information.md`` changes the best
schedule:

- The site's import peak is in the early morning (defrost, shift start, forklift charging,
  PV not yet up), not in the evening price peak, so shaving the demand charge needs energy
  kept back for the morning and is not a side effect of price arbitrage.
- 16 July is a tropical day and its unshaved morning peak beats both July's peak so far and
  June's invoiced peak (a June heatwave). June's figure is the one on the last invoice; the
  demand charge of July only grows above July's own peak so far, which is in the meter data.
- Day-ahead prices are stored in UTC (the supplier portal's export) while the site's files use
  local time (CEST, UTC+2). Read as local time, the evening price peak moves two hours early.
- Evening site load is below the battery's 500 kW rating, so the no-export rule binds when the
  battery discharges into the price peak.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
from collections.abc import Sequence
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

CASE_DIR = Path(__file__).resolve().parent.parent
PARAMS_FILE = CASE_DIR / "hidden" / "params.json"
DATA_DIR = CASE_DIR / "data"  # where the writers below write; generate() points them at ROOT
TRUTH_DIR = CASE_DIR / "hidden" / "truth"

HISTORY_START = date(2025, 6, 1)
METER_EXPORT = datetime(2025, 7, 15, 17, 0)  # Maren pulled the meter data at 17:00 on the 15th
TOMORROW = date(2025, 7, 16)
UTC_OFFSET = timedelta(hours=2)  # CEST all through June and July: no DST change in the data
QUARTERS = 96

PV_AC_MAX_KW = 480.0  # 600 kWp on an inverter fleet that clips at 480 kW AC

# Daily (max, min) temperature in degrees C. Hand-written episodes: a June heatwave that set the
# June invoice's peak, a moderate early July, and a heatwave starting on 15 July.
JUNE_TEMPS = [
    (21, 12),
    (23, 13),
    (22, 14),
    (19, 12),
    (20, 11),
    (24, 13),
    (26, 15),
    (27, 16),
    (25, 15),
    (22, 14),
    (21, 13),
    (23, 12),
    (25, 14),
    (28, 16),
    (29, 17),
    (26, 16),
    (24, 15),
    (27, 16),
    (30, 19),
    (32, 21),
    (33, 22),
    (31, 21),
    (28, 18),
    (25, 16),
    (23, 14),
    (22, 13),
    (24, 14),
    (26, 15),
    (27, 16),
    (25, 15),
]
JULY_TEMPS = [
    (24, 15),
    (26, 16),
    (28, 17),
    (29, 18),
    (27, 17),
    (24, 16),
    (22, 14),
    (23, 14),
    (25, 15),
    (27, 17),
    (29, 18),
    (30, 18),
    (28, 18),
    (27, 17),
    (30, 18),
    (35, 23),
]
# Share of clear-sky PV per day (1 = cloudless); tomorrow is forecast cloudless.
CLOUDY_DAYS = {3: 0.35, 4: 0.55, 9: 0.45, 10: 0.6, 16: 0.5, 23: 0.7, 24: 0.4, 35: 0.3, 36: 0.5}

# Day-ahead price shape of a summer weekday by local hour, EUR/MWh, before the day's level,
# solar depth and noise.
PRICE_SHAPE = [
    96, 89, 85, 83, 85, 93, 112, 131, 124, 97, 64, 37,
    19, 13, 15, 29, 58, 97, 134, 176, 224, 212, 158, 117,
]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--params", type=Path, default=PARAMS_FILE, help="the variant's params.json"
    )
    parser.add_argument(
        "--out", type=Path, default=CASE_DIR, help="writes OUT/data, OUT/hidden/truth"
    )
    args = parser.parse_args()
    generate(json.loads(args.params.read_text(encoding="utf-8")), args.out)


def daily_temps(days: list[date], params: dict[str, Any]) -> list[tuple[int, int]]:
    """The hand-written weather, with a variant's overrides (ISO day -> [max, min])."""
    overrides = params.get("temperature_overrides", {})
    temps = JUNE_TEMPS + JULY_TEMPS
    assert len(temps) == len(days)
    return [tuple(overrides.get(d.isoformat(), t)) for d, t in zip(days, temps, strict=True)]


def generate(params: dict[str, Any], root: Path) -> None:
    """Write ROOT/data/ and ROOT/hidden/truth/ for one variant's parameters."""
    global DATA_DIR, TRUTH_DIR
    DATA_DIR, TRUTH_DIR = root / "data", root / "hidden" / "truth"
    rng = np.random.default_rng(params["seed"])
    days = [HISTORY_START + timedelta(days=i) for i in range((TOMORROW - HISTORY_START).days + 1)]
    temps = daily_temps(days, params)
    load = np.concatenate([day_load(d, t, rng) for d, t in zip(days, temps, strict=True)])
    pv = np.concatenate([day_pv(i, d, rng) for i, d in enumerate(days)])
    prices = np.concatenate([day_prices(i, d, temps, rng) for i, d in enumerate(days)])
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    TRUTH_DIR.mkdir(parents=True, exist_ok=True)
    history = len(days) - 1
    metered = (METER_EXPORT - datetime.combine(HISTORY_START, datetime.min.time())) // timedelta(
        minutes=15
    )
    write_meter_history(days[:history], load[:metered], pv[:metered])
    write_forecast(load[history * QUARTERS :], pv[history * QUARTERS :])
    write_prices(days, prices)
    write_battery_files(params)
    june_peak = write_tariff_and_invoice(days, load, pv, prices, params)
    write_site_rules(days[:history], load[:metered], pv[:metered], june_peak, params)


def quarter_starts(day: date) -> list[datetime]:
    midnight = datetime(day.year, day.month, day.day)
    return [midnight + timedelta(minutes=15 * q) for q in range(QUARTERS)]


def hours_of_day() -> np.ndarray:
    """Mid-point of each quarter-hour in local hours, so blocks like 06:00-06:45 are exact."""
    return (np.arange(QUARTERS) + 0.5) / 4.0


def block(hours: np.ndarray, start: float, end: float) -> np.ndarray:
    return ((hours >= start) & (hours < end)).astype(float)


def day_load(day: date, temps: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """Site consumption in kW: refrigeration driven by outdoor heat plus the warehouse's routine.

    Refrigeration follows the outdoor temperature with a lag (the building's thermal mass), so a
    tropical night keeps the compressors busy into the morning shift start.
    """
    t_max, t_min = temps
    h = hours_of_day()
    diurnal = (1 - np.cos(2 * np.pi * (h - 5.0) / 24.0)) / 2  # coolest at 05:00, warmest 17:00
    outdoor = t_min + (t_max - t_min) * diurnal
    refrigeration = 255.0 + 8.6 * np.maximum(outdoor - 9.0, 0.0)
    defrost = 72.0 * (
        block(h, 0, 0.5) + block(h, 6, 6.75) + block(h, 12, 12.5) + block(h, 18, 18.5)
    )
    weekday = day.weekday()
    if weekday < 5:
        operations = 118.0 * block(h, 5.5, 14) + 68.0 * block(h, 14, 22) + 24.0 * block(h, 22, 24)
        operations += 24.0 * block(h, 0, 5.5)
        forklifts = 62.0 * block(h, 5.75, 7.75) + 48.0 * block(h, 14, 15.5)
        forklifts += 55.0 * block(h, 22, 23.5)
    elif weekday == 5:
        operations = 58.0 * block(h, 6, 12) + 15.0
        forklifts = 30.0 * block(h, 12, 13.5)
    else:
        operations = np.full(QUARTERS, 14.0)
        forklifts = np.zeros(QUARTERS)
    noise = ar1_noise(rng, QUARTERS, sigma=7.0, rho=0.7)
    load: np.ndarray = np.round(refrigeration + defrost + operations + forklifts + noise, 1)
    return load


def ar1_noise(rng: np.random.Generator, n: int, *, sigma: float, rho: float) -> np.ndarray:
    shocks = rng.normal(0.0, sigma * math.sqrt(1 - rho**2), n)
    out = np.empty(n)
    out[0] = rng.normal(0.0, sigma)
    for i in range(1, n):
        out[i] = rho * out[i - 1] + shocks[i]
    return out


def clear_sky_shape(day: date) -> np.ndarray:
    """Relative PV output for a cloudless day in Bremen, in local summer time."""
    days_from_solstice = abs((day - date(2025, 6, 21)).days)
    sunrise = 4.95 + 0.012 * days_from_solstice
    sunset = 21.95 - 0.011 * days_from_solstice
    h = hours_of_day()
    phase = np.clip((h - sunrise) / (sunset - sunrise), 0.0, 1.0)
    shape: np.ndarray = np.sin(np.pi * phase) ** 1.35
    return shape


def day_pv(index: int, day: date, rng: np.random.Generator) -> np.ndarray:
    if day == TOMORROW:
        # The forecast is a smooth clear-sky curve: that is what the PV portal delivers.
        return np.round(np.minimum(PV_AC_MAX_KW, 505.0 * clear_sky_shape(day)), 1)
    cloud = CLOUDY_DAYS.get(index, float(rng.uniform(0.85, 1.0)))
    flicker = np.clip(1.0 + ar1_noise(rng, QUARTERS, sigma=0.25 * (1.0 - cloud) + 0.02, rho=0.8),
                      0.05, 1.1)  # fmt: skip
    return np.round(np.minimum(PV_AC_MAX_KW, 505.0 * clear_sky_shape(day) * cloud * flicker), 1)


def day_prices(
    index: int, day: date, temps: list[tuple[int, int]], rng: np.random.Generator
) -> np.ndarray:
    """Hourly day-ahead prices for the local day, EUR/MWh.

    Sunny days deepen the midday trough (solar cannibalisation, negative on sunny Sundays), hot
    days lift the evening peak (air conditioning, little wind).
    """
    shape = np.array(PRICE_SHAPE, dtype=float)
    level = 1.0 + 0.06 * math.sin(index / 5.0) + float(rng.normal(0.0, 0.04))
    sunny = 1.0 - CLOUDY_DAYS.get(index, 0.92)
    midday = np.zeros(24)
    midday[10:17] = [-8, -14, -20, -22, -20, -14, -6]
    prices = shape * level + midday * (1.0 - 2.5 * sunny)
    if day.weekday() >= 5:
        prices = prices * 0.82 - np.where((np.arange(24) >= 11) & (np.arange(24) < 16), 25.0, 0.0)
    t_max = temps[index][0]
    prices[18:23] += max(0, t_max - 27) * np.array([2.5, 4.0, 5.0, 4.5, 2.0])
    if day == TOMORROW:
        return np.round(prices, 2)
    return np.round(prices + rng.normal(0.0, 6.0, 24), 2)


def write_csv(path: Path, header: list[str], rows: Sequence[Sequence[object]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M")


def write_meter_history(days: list[date], load: np.ndarray, pv: np.ndarray) -> None:
    """15-minute meter data as the BMS exports it: local wall-clock time, PV after the limiter."""
    starts = [s for d in days for s in quarter_starts(d)][: len(load)]
    used_pv = np.minimum(pv, load)  # the export limiter throttles PV to the site's own use
    rows: list[list[object]] = [
        [stamp(s), f"{lo:.1f}", f"{p:.1f}", f"{lo - p:.1f}"]
        for s, lo, p in zip(starts, load, used_pv, strict=True)
    ]
    write_csv(
        DATA_DIR / "site_meter_history.csv",
        ["timestamp", "site_load_kw", "pv_generation_kw", "grid_import_kw"],
        rows,
    )


def write_forecast(load: np.ndarray, pv: np.ndarray) -> None:
    rows: list[list[object]] = [
        [stamp(s), f"{lo:.1f}", f"{p:.1f}"]
        for s, lo, p in zip(quarter_starts(TOMORROW), load, pv, strict=True)
    ]
    write_csv(
        DATA_DIR / "forecast_2025-07-16.csv",
        ["interval_start", "load_forecast_kw", "pv_forecast_kw"],
        rows,
    )


def write_prices(days: list[date], prices: np.ndarray) -> None:
    """The supplier portal's export: one row per delivery hour, stamped in UTC without a zone."""
    rows: list[list[object]] = []
    for i, day in enumerate(days):
        for hour in range(24):
            utc = datetime(day.year, day.month, day.day, hour) - UTC_OFFSET
            rows.append([stamp(utc), f"{prices[i * 24 + hour]:.2f}"])
    write_csv(DATA_DIR / "day_ahead_prices.csv", ["delivery_start", "price_eur_per_mwh"], rows)


def write_json(path: Path, payload: object) -> None:
    path.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def write_battery_files(params: dict[str, Any]) -> None:
    write_json(
        DATA_DIR / "battery_spec.json",
        {
            "source": "VoltStack VS-1000/500 datasheet, rev. C (transcribed by facilities)",
            "model": "VoltStack VS-1000/500",
            "chemistry": "LFP",
            "nameplate_energy_kwh": params["battery_kwh"],
            "usable_energy_kwh": params["battery_kwh"],
            "depth_of_discharge_pct": 100,
            "rated_power_kw": params["battery_kw"],
            "rated_power_note": "AC, charge and discharge",
            "efficiency_pct": params["efficiency_pct"],
            "response_time_ms": 200,
            "cycle_life": "6000 cycles (25 degC, 0.5C)",
            "warranty": "10 years, conditions see warranty terms",
            "commissioned": "2025-07-08",
        },
    )
    write_json(
        DATA_DIR / "battery_status.json",
        {
            "source": "EMS export",
            "exported_at": "2025-07-15 17:05",
            "mode": "standby",
            "soc_now_pct": 61.8,
            "soc_at_midnight_pct": params["start_soc_pct"],
            "schedule_input": "CSV, one value per quarter-hour, battery power in kW",
        },
    )


def write_tariff_and_invoice(
    days: list[date], load: np.ndarray, pv: np.ndarray, prices: np.ndarray, params: dict[str, Any]
) -> float:
    """The contract summary and June's invoice; returns June's invoiced peak (kW)."""
    june = [i for i, d in enumerate(days) if d.month == 6]
    june_q = np.concatenate([np.arange(i * QUARTERS, (i + 1) * QUARTERS) for i in june])
    june_import = np.maximum(load[june_q] - pv[june_q], 0.0)
    peak_index = int(june_q[int(np.argmax(june_import))])
    june_peak = round(float(june_import.max()), 1)
    peak_day = days[peak_index // QUARTERS]
    peak_time = quarter_starts(peak_day)[peak_index % QUARTERS]
    hourly_price = np.repeat(prices[: len(june) * 24], 4) / 1000.0
    energy_kwh = float(june_import.sum() * 0.25)
    spot_eur = float((june_import * hourly_price).sum() * 0.25)
    adder_ct, rate = params["energy_adder_ct_per_kwh"], params["demand_rate_eur_per_kw_month"]
    adder_eur = energy_kwh * adder_ct / 100.0
    demand_eur = june_peak * rate
    write_json(
        DATA_DIR / "tariff.json",
        {
            "supplier": "Hanse Strom Direkt GmbH",
            "contract": "RLM spot-indexed supply, medium voltage",
            "energy_price": "EPEX day-ahead DE-LU hourly price + adder",
            "energy_adder_ct_per_kwh": adder_ct,
            "energy_adder_covers": "grid energy charge, levies, electricity tax",
            "demand_charge_eur_per_kw_month": rate,
            "demand_charge_basis": "highest 15-minute average import in the billing period",
            "feed_in": "see grid connection agreement",
        },
    )
    lines = [
        ["energy", "spot energy", f"{energy_kwh:.0f}", "kWh", f"{spot_eur:.2f}"],
        ["energy", f"adder {adder_ct:.2f} ct/kWh", f"{energy_kwh:.0f}", "kWh", f"{adder_eur:.2f}"],
        ["demand", f"peak {stamp(peak_time)}", f"{june_peak:.1f}", "kW", f"{demand_eur:.2f}"],
        ["fixed", "metering and service", "1", "month", "182.40"],
    ]
    write_csv(
        DATA_DIR / "invoice_2025-06.csv",
        ["category", "item", "quantity", "unit", "amount_eur"],
        lines,
    )
    return june_peak


def write_site_rules(
    history: list[date], load: np.ndarray, pv: np.ndarray, june: float, params: dict[str, Any]
) -> None:
    """The rules the customer holds in their heads, for the evaluator and the solver."""
    first_july = next(i for i, d in enumerate(history) if d.month == 7) * QUARTERS
    july_import = np.maximum(load[first_july:] - pv[first_july:], 0.0)  # metered part of July
    july_peak = round(float(july_import.max()), 1)
    write_json(
        TRUTH_DIR / "site_rules.json",
        {
            "day": TOMORROW.isoformat(),
            "utc_offset_hours": UTC_OFFSET.total_seconds() / 3600,
            "efficiency_is_round_trip": params["efficiency_is_round_trip"],
            "soc_min_pct": params["soc_min_pct"],
            "soc_max_pct": params["soc_max_pct"],
            "end_soc_min_pct": params["end_soc_min_pct"],
            "no_export": params["no_export"],
            "peak_so_far_kw": july_peak,
            "june_invoice_peak_kw": june,
        },
    )


if __name__ == "__main__":
    main()
