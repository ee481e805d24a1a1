"""battery-dispatch: every hard rule of the site, fired by changing one or two reference quarters.

The reference is valid, so each test changes as little as it can: where a change would ripple
through the rest of the day (a state-of-charge change lasts until the battery is used again),
the next quarter puts the energy back, so exactly one quarter-hour breaks exactly one rule.
The quarters are chosen from the reference's own state of charge, simulated here with the rules
the customer gives (hidden/gt.json), so the tests follow a regenerated reference.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from evaluators.runtime import Result, score_file
from tests.cases.deliverables import (
    assert_schema_error_names_the_column,
    case_dir,
    fatal_message,
    only_rule_broken,
    read_rows,
    score_rows,
)

CASE = case_dir("battery-dispatch")
COLUMNS = ["interval_start", "battery_kw"]
REFERENCE = read_rows(CASE / "hidden" / "reference.csv")
QUARTERS = 96
# The site's rules as the customer states them once asked.
ONE_WAY = math.sqrt(0.9)  # the datasheet's 90 % is round trip
CAPACITY_KWH = 1000.0
SOC_MIN_KWH, SOC_MAX_KWH, END_MIN_KWH, START_KWH = 100.0, 900.0, 500.0, 500.0
RATED_KW = 500.0


def _net_load() -> list[float]:
    with (CASE / "data" / "forecast_2025-07-16.csv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    return [float(r["load_forecast_kw"]) - float(r["pv_forecast_kw"]) for r in rows]


def _state_of_charge(power: list[float]) -> list[float]:
    """kWh after each quarter: discharging costs p/eta, charging stores p*eta."""
    soc, after = START_KWH, []
    for p in power:
        soc -= p * 0.25 / ONE_WAY if p >= 0 else p * 0.25 * ONE_WAY
        after.append(soc)
    return after


POWER = [float(row["battery_kw"]) for row in REFERENCE]
SOC = _state_of_charge(POWER)
NET_LOAD = _net_load()


def first_quarter(test: Callable[[int], bool]) -> int:
    return next(q for q in range(QUARTERS - 1) if test(q))


def score_power(tmp_path: Path, changes: dict[int, float]) -> Result:
    """The reference with ``battery_kw`` of some quarters replaced."""
    rows = [
        {**row, "battery_kw": f"{changes.get(q, POWER[q]):.6f}"} for q, row in enumerate(REFERENCE)
    ]
    return score_rows(CASE, rows, COLUMNS, tmp_path)


def score_stamps(tmp_path: Path, stamp: Callable[[datetime], str]) -> Result:
    """The reference schedule with every interval_start rewritten by ``stamp``."""
    rows = [
        {**row, "interval_start": stamp(datetime.fromisoformat(row["interval_start"]))}
        for row in REFERENCE
    ]
    return score_rows(CASE, rows, COLUMNS, tmp_path)


def assert_flags_one_quarter(violation: dict[str, Any], q: int) -> dict[str, Any]:
    assert violation["count"] == 1
    (example,) = violation["examples"]
    assert example["line"] == q + 2
    assert example["interval_start"] == REFERENCE[q]["interval_start"].replace("T", " ")
    return dict(example)


def assert_no_numbers(message: str) -> None:
    """The hidden limits (10-90 %, 50 % at midnight) stay for the player to ask about."""
    assert not any(ch.isdigit() for ch in message), message


# --- anchors and format -------------------------------------------------------------------


def test_the_reference_scores_one_and_an_idle_battery_scores_zero_uplift() -> None:
    reference = score_file(CASE, CASE / "hidden" / "reference.csv")
    idle = score_file(CASE, CASE / "hidden" / "anchors" / "baseline.csv")
    assert (reference.valid, reference.score, reference.uplift) == (True, 1.0, 1.0)
    assert reference.raw_value == 1284.506579
    assert (idle.valid, idle.uplift) == (True, 0.0)
    assert idle.raw_value == 1842.938415
    # FDE-Bench Quality is the ratio R/x of a minimised bill, not the uplift.
    assert idle.score == pytest.approx(1284.506579 / 1842.938415)


def test_a_misspelt_column_is_a_format_error_on_line_one(tmp_path: Path) -> None:
    rows = [
        {"interval_start": r["interval_start"], "battery_kwh": r["battery_kw"]} for r in REFERENCE
    ]
    result = score_rows(CASE, rows, ["interval_start", "battery_kwh"], tmp_path)
    assert_schema_error_names_the_column(result, wrong="battery_kwh", right="battery_kw")


def test_a_schedule_rounded_to_a_tenth_of_a_kw_is_not_flagged(tmp_path: Path) -> None:
    result = score_power(tmp_path, {q: round(p, 1) for q, p in enumerate(POWER)})
    assert (result.valid, result.violations) == (True, [])
    assert abs(result.score - 1.0) < 0.001


# --- the day: fatal when the schedule does not cover 16 July in site time ------------------


def test_a_schedule_stamped_in_utc_with_its_offset_is_read_as_site_time(tmp_path: Path) -> None:
    result = score_stamps(tmp_path, lambda t: (t - timedelta(hours=2)).isoformat() + "+00:00")
    assert (result.valid, result.score) == (True, 1.0)


def test_a_schedule_in_utc_without_an_offset_cannot_be_assessed(tmp_path: Path) -> None:
    result = score_stamps(tmp_path, lambda t: (t - timedelta(hours=2)).isoformat())
    message = fatal_message(result)
    assert "Wednesday 16 July 2025 in site time" in message
    assert "8 rows are not quarter-hours of that day, e.g. line 2 (2025-07-15" in message
    assert "8 quarter-hours have no row, e.g. 22:00, 22:15, 22:30" in message


def test_a_schedule_for_the_wrong_day_cannot_be_assessed(tmp_path: Path) -> None:
    result = score_stamps(tmp_path, lambda t: (t + timedelta(days=1)).isoformat())
    message = fatal_message(result)
    assert "96 rows are not quarter-hours of that day" in message
    assert "96 quarter-hours have no row, e.g. 00:00, 00:15, 00:30" in message


def test_a_missing_quarter_hour_cannot_be_assessed(tmp_path: Path) -> None:
    rows = [row for row in REFERENCE if not row["interval_start"].endswith("T13:00")]
    message = fatal_message(score_rows(CASE, rows, COLUMNS, tmp_path))
    assert message.endswith("1 quarter-hours have no row, e.g. 13:00.")


# --- power_limit --------------------------------------------------------------------------


def test_asking_more_than_the_inverter_rating_is_a_violation(tmp_path: Path) -> None:
    # Two charging quarters: the first charges at 501 kW, the second by as much less, so the
    # energy stored by the end of the pair is the reference's.
    q = first_quarter(lambda q: POWER[q] + POWER[q + 1] <= -(RATED_KW + 1) and POWER[q + 1] < 0)
    over = -(RATED_KW + 1)
    result = score_power(tmp_path, {q: over, q + 1: POWER[q] + POWER[q + 1] - over})
    violation = only_rule_broken(result, "power_limit")
    assert assert_flags_one_quarter(violation, q)["battery_kw"] == over
    assert "rated 500 kW" in violation["message"]  # the datasheet figure the player has


# --- soc_warranty_window ------------------------------------------------------------------


def test_charging_above_the_warranty_window_is_a_violation(tmp_path: Path) -> None:
    # The quarter that tops the battery up to 90 % charges 40 kW more; the idle quarter after
    # it gives that energy back, so only one quarter-hour sits above the window.
    q = first_quarter(lambda q: SOC[q] > SOC_MAX_KWH - 0.5 and POWER[q] < 0 and POWER[q + 1] == 0)
    result = score_power(tmp_path, {q: POWER[q] - 40, q + 1: 40 * ONE_WAY**2})
    violation = only_rule_broken(result, "soc_warranty_window")
    assert assert_flags_one_quarter(violation, q)["soc_pct"] > 90
    assert_no_numbers(violation["message"])


def test_discharging_below_the_warranty_window_is_a_violation(tmp_path: Path) -> None:
    # The battery idles at 10 % (the datasheet's 100 % depth of discharge would allow going
    # lower): discharge 40 kW for one quarter and charge it back in the next.
    q = first_quarter(lambda q: SOC[q] < SOC_MIN_KWH + 0.5 and POWER[q] == POWER[q + 1] == 0)
    result = score_power(tmp_path, {q: 40.0, q + 1: -40 / ONE_WAY**2})
    violation = only_rule_broken(result, "soc_warranty_window")
    assert assert_flags_one_quarter(violation, q)["soc_pct"] < 10
    assert_no_numbers(violation["message"])


# --- no_export ----------------------------------------------------------------------------


def test_discharging_more_than_the_site_uses_is_a_forbidden_export(tmp_path: Path) -> None:
    # A quarter where the reference discharges exactly the site's net load: 20 kW more goes
    # into the grid; the next discharging quarter gives up the same 20 kW.
    q = first_quarter(
        lambda q: POWER[q] > 0 and abs(NET_LOAD[q] - POWER[q]) < 0.5 and POWER[q + 1] > 20
    )
    result = score_power(tmp_path, {q: POWER[q] + 20, q + 1: POWER[q + 1] - 20})
    violation = only_rule_broken(result, "no_export")
    assert abs(assert_flags_one_quarter(violation, q)["grid_import_kw"] + 20) < 0.5
    assert_no_numbers(violation["message"])


# --- end_soc_handover ---------------------------------------------------------------------


def test_handing_the_battery_over_below_half_charge_at_midnight_is_a_violation(
    tmp_path: Path,
) -> None:
    assert abs(SOC[-1] - END_MIN_KWH) < 0.5  # the reference hands over at exactly 50 %
    last = QUARTERS - 1
    result = score_power(tmp_path, {last: POWER[last] + 15})  # 15 kW less charging at 23:45
    violation = only_rule_broken(result, "end_soc_handover")
    assert 49 < assert_flags_one_quarter(violation, last)["soc_pct"] < 50
    assert_no_numbers(violation["message"])
