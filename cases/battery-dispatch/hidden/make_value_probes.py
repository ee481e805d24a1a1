"""Write the value probes of battery-dispatch: the reference pinned at each limit and just past it.

``python cases/battery-dispatch/hidden/make_value_probes.py`` writes ``hidden/value_probes/``
and ``hidden/value_probes.json`` (cases/README.md, "Value probes"); ``--params P --root ROOT``
writes them under ``ROOT/hidden/`` for a variant (whose ``ROOT/hidden/params.json`` is ``P``). Each pair changes one or two
quarter-hours of the reference: the first puts the battery exactly on a limit (it must stay
valid), the second puts it just past the limit (it must break that rule and nothing else). The
quarter after the change puts the energy back, so the rest of the day is the reference's.

The limits and their labels come from the files the evaluator reads (``params.json``,
``data/battery_spec.json``), so a changed rule regenerates probes with the new figure, which
admission then compares with the customer's answers. Every probe is checked here with the
evaluator itself before it is written, and the script fails if no quarter gives a clean pair.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections.abc import Callable
from pathlib import Path

HIDDEN_DIR = Path(__file__).resolve().parent
DATA_DIR = HIDDEN_DIR.parent / "data"
sys.path[:0] = [str(HIDDEN_DIR), str(HIDDEN_DIR.parents[2])]

from evaluator import KW_TOL, KWH_TOL, QUARTER_H, SiteDay, evaluate, load_site_day  # noqa: E402

from evaluators.api import Submission  # noqa: E402

OUT_DIR = HIDDEN_DIR / "value_probes"
#: How far past a limit the second probe of a pair goes: well outside the evaluator's
#: tolerances (1 kWh, 0.1 kW), well inside any other figure an answer could plausibly state.
SOC_STEP_KWH = 5.0 * KWH_TOL
KW_STEP = 10 * KW_TOL

Power = list[float]


def cell_energy(site: SiteDay, kw: float) -> float:
    """kWh leaving the cells in one quarter-hour at ``kw`` (negative when charging)."""
    return kw * QUARTER_H / site.eta_discharge if kw >= 0 else kw * QUARTER_H * site.eta_charge


def power_for(site: SiteDay, kwh: float) -> float:
    """The inverse of ``cell_energy``."""
    return kwh * site.eta_discharge / QUARTER_H if kwh >= 0 else kwh / (QUARTER_H * site.eta_charge)


def trajectory(site: SiteDay, power: Power) -> list[float]:
    soc, after = site.start_soc_kwh, []
    for kw in power:
        soc -= cell_energy(site, kw)
        after.append(soc)
    return after


def restored(site: SiteDay, reference: Power, power: Power, q: int) -> Power | None:
    """``power`` with quarter q+1 changed so the state of charge after it is the reference's."""
    if q + 1 >= len(power):
        return None
    before, wanted = trajectory(site, power)[q], trajectory(site, reference)[q + 1]
    changed = list(power)
    changed[q + 1] = power_for(site, before - wanted)
    return changed


def soc_at(site: SiteDay, reference: Power, q: int, level: float) -> Power | None:
    """The reference with the state of charge after quarter q at ``level``, then restored."""
    soc = trajectory(site, reference)
    start = soc[q - 1] if q else site.start_soc_kwh
    changed = list(reference)
    changed[q] = power_for(site, start - level)
    return restored(site, reference, changed, q)


def power_at(site: SiteDay, reference: Power, q: int, kw: float) -> Power | None:
    changed = list(reference)
    changed[q] = kw
    return restored(site, reference, changed, q)


def end_at(site: SiteDay, reference: Power, level: float) -> Power:
    """The reference with its last quarter-hour changed so the day ends at ``level``."""
    soc = trajectory(site, reference)
    changed = list(reference)
    changed[-1] = power_for(site, soc[-2] - level)
    return changed


def broken(site: SiteDay, power: Power) -> set[str] | None:
    """The rules the evaluator finds broken (empty: valid), None if it cannot assess the file."""
    rows = [
        {"interval_start": s, "battery_kw": round(kw, 6)}
        for s, kw in zip(site.starts, power, strict=True)
    ]
    assessment = evaluate(Submission(format="csv", rows=rows), DATA_DIR, HIDDEN_DIR)
    if assessment.fatal:
        return None
    return {violation.rule for violation in assessment.violations}


def pair(
    site: SiteDay, rule: str, build: Callable[[int, bool], Power | None], order: list[int]
) -> tuple[Power, Power, int]:
    """The first quarter (in ``order``) where the at-limit file is valid and the past-limit one
    breaks exactly ``rule``."""
    for q in order:
        at, beyond = build(q, False), build(q, True)
        if at is None or beyond is None:
            continue
        if broken(site, at) == set() and broken(site, beyond) == {rule}:
            return at, beyond, q
    raise SystemExit(f"no quarter-hour gives a clean value probe pair for {rule}")


def write(path: Path, site: SiteDay, power: Power) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["interval_start", "battery_kw"])
        for start, kw in zip(site.starts, power, strict=True):
            writer.writerow([start.strftime("%Y-%m-%dT%H:%M"), f"{round(kw, 6) + 0.0:.6f}"])


def read_reference() -> Power:
    with (HIDDEN_DIR / "reference.csv").open(newline="", encoding="utf-8") as handle:
        return [float(row["battery_kw"]) for row in csv.DictReader(handle)]


def main() -> None:
    global DATA_DIR, HIDDEN_DIR, OUT_DIR
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--params", type=Path, default=HIDDEN_DIR / "params.json")
    parser.add_argument("--root", type=Path, default=HIDDEN_DIR.parent, help="the variant's root")
    args = parser.parse_args()
    DATA_DIR, HIDDEN_DIR = args.root / "data", args.root / "hidden"
    OUT_DIR = HIDDEN_DIR / "value_probes"
    rules = json.loads(args.params.read_text(encoding="utf-8"))
    site = load_site_day(DATA_DIR, HIDDEN_DIR, rules)
    reference = read_reference()
    soc = trajectory(site, reference)
    net = [load - pv for load, pv in zip(site.load_kw, site.pv_kw, strict=True)]
    quarters = range(len(reference) - 1)

    def nearest(values: list[float], level: float) -> list[int]:
        return sorted(quarters, key=lambda q: (abs(values[q] - level), q))

    low, high = site.soc_min_kwh, site.soc_max_kwh
    specs = [
        ("soc_warranty_window", "soc-min", f"{rules['soc_min_pct']:g} %",
         "soc_warranty_window", "lowest state of charge (kWh)", low, -SOC_STEP_KWH,
         lambda q, past: soc_at(site, reference, q, low - SOC_STEP_KWH * past), nearest(soc, low)),
        ("soc_warranty_window", "soc-max", f"{rules['soc_max_pct']:g} %",
         "soc_warranty_window", "highest state of charge (kWh)", high, SOC_STEP_KWH,
         lambda q, past: soc_at(site, reference, q, high + SOC_STEP_KWH * past), nearest(soc, high)),
        ("end_soc_handover", "end-soc", f"{rules['end_soc_min_pct']:g} % or more",
         "end_soc_handover", "state of charge at midnight (kWh)", site.end_soc_min_kwh, -SOC_STEP_KWH,
         lambda q, past: end_at(site, reference, site.end_soc_min_kwh - SOC_STEP_KWH * past),
         [len(reference) - 1]),
        ("no_export", "grid-import", "never discharge more than what the site uses after solar",
         "no_export", "grid import (kW)", 0.0, -KW_STEP,
         lambda q, past: power_at(site, reference, q, net[q] + KW_STEP * past),
         [q for q in nearest([n - p for n, p in zip(net, reference, strict=True)], 0.0) if net[q] > 0]),
        ("power_rating", "charge-power", f"{site.power_kw:g} kW",
         "power_limit", "battery_kw", -site.power_kw, -KW_STEP,
         lambda q, past: power_at(site, reference, q, -site.power_kw - KW_STEP * past),
         nearest(reference, -site.power_kw)),
    ]  # fmt: skip
    probes = []
    for fact, name, value, rule, measure, limit, step, build, order in specs:
        at, beyond, q = pair(site, rule, build, order)
        when = f"{site.starts[q]:%H:%M}"
        for suffix, power, expect, shown in (
            ("at-limit", at, "valid", limit),
            ("past-limit", beyond, rule, limit + step),
        ):
            file = f"value_probes/{name}-{suffix}.csv"
            write(HIDDEN_DIR / file, site, power)
            note = f"{measure} {shown:g} in the quarter-hour from {when}; the reference elsewhere"
            probes.append(
                {"fact": fact, "value": value, "file": file, "expect": expect, "note": note}
            )
    document = {"generated_by": "hidden/make_value_probes.py", "probes": probes}
    (HIDDEN_DIR / "value_probes.json").write_text(
        json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()
