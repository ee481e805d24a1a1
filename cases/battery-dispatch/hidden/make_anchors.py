"""Write the admission anchors of battery-dispatch into ``hidden/anchors/``.

``python cases/battery-dispatch/hidden/make_anchors.py`` writes (``--params P --root ROOT``: into
``ROOT/hidden/anchors/`` from ``ROOT/data/``, for a variant):

- ``baseline.csv``: the battery stays idle all day (the do-nothing deliverable, uplift 0).
- ``literal.csv``: the request taken word for word with the datasheet at face value: charge at
  full power in the four cheapest hours, discharge at full power in the four dearest ones, over
  the full 0-100 % nameplate range with the datasheet's efficiency per direction, prices joined
  on the clock hour as written. It breaks the warranty window, the no-feed-in rule and the midnight hand-over.
- ``shortcut-solar-soak.csv``: a cautious rule of thumb that is feasible everywhere: soak up
  100 kW of cheap midday power from 11:00 to 15:00 and give it back at 100 kW times the
  datasheet's efficiency (90 kW in the base variant) from 19:00 to 23:00, which ends the day
  where it started. It ignores the demand charge and most of the price spread.
- ``shortcut-peak-shave.csv``: classic peak shaving and nothing else: discharge whatever import
  would exceed July's peak so far, then top the battery back up to its starting level from
  11:00. It earns the demand charge but leaves the price spread on the table.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

HIDDEN_DIR = Path(__file__).resolve().parent
sys.path[:0] = [str(HIDDEN_DIR), str(HIDDEN_DIR.parents[2])]

from evaluator import SiteDay, load_site_day  # noqa: E402
from solver import QUARTER_H, spot_read_as_local, write_schedule  # noqa: E402


def literal(site: SiteDay, data_dir: Path) -> np.ndarray:
    """Nameplate arbitrage: the four cheapest hours charge, the four dearest discharge."""
    spec = json.loads((data_dir / "battery_spec.json").read_text(encoding="utf-8"))
    eta = float(spec["efficiency_pct"]) / 100.0  # the datasheet figure taken as each way's
    hourly = spot_read_as_local(data_dir, site.starts)[::4]
    order = np.argsort(hourly, kind="stable")
    cheap, dear = set(order[:4].tolist()), set(order[-4:].tolist())
    soc, power = site.start_soc_kwh, np.zeros(len(site.starts))
    for q in range(len(site.starts)):
        if q // 4 in cheap:
            kw = min(site.power_kw, (site.capacity_kwh - soc) / (QUARTER_H * eta))
            power[q], soc = -kw, soc + kw * QUARTER_H * eta
        elif q // 4 in dear:
            kw = min(site.power_kw, soc * eta / QUARTER_H)
            power[q], soc = kw, soc - kw * QUARTER_H / eta
    return power


def solar_soak(site: SiteDay) -> np.ndarray:
    hours = np.arange(len(site.starts)) / 4.0
    power = np.zeros(len(site.starts))
    power[(hours >= 11) & (hours < 15)] = -100.0
    power[(hours >= 19) & (hours < 23)] = 100.0 * site.eta_charge * site.eta_discharge
    return power


def peak_shave(site: SiteDay) -> np.ndarray:
    """Shave import above July's peak so far, then recharge to the starting level after 11:00."""
    net = np.array(site.load_kw) - np.array(site.pv_kw)
    soc, power = site.start_soc_kwh, np.zeros(len(site.starts))
    for q, start in enumerate(site.starts):
        excess = net[q] - site.peak_so_far_kw
        if excess > 0:
            room = (soc - site.soc_min_kwh) * site.eta_discharge / QUARTER_H
            power[q] = min(excess, site.power_kw, room)
            soc -= power[q] * QUARTER_H / site.eta_discharge
        elif start.hour >= 11 and soc < site.start_soc_kwh:
            needed = (site.start_soc_kwh - soc) / (QUARTER_H * site.eta_charge)
            kw = min(needed, site.power_kw, -excess)
            power[q] = -kw
            soc += kw * QUARTER_H * site.eta_charge
    return power


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--params", type=Path, default=HIDDEN_DIR / "params.json")
    parser.add_argument("--root", type=Path, default=HIDDEN_DIR.parent, help="the variant's root")
    args = parser.parse_args()
    data_dir = args.root / "data"
    params = json.loads(args.params.read_text(encoding="utf-8"))
    site = load_site_day(data_dir, args.root / "hidden", params)
    anchors = {
        "baseline.csv": np.zeros(len(site.starts)),
        "literal.csv": literal(site, data_dir),
        "shortcut-solar-soak.csv": solar_soak(site),
        "shortcut-peak-shave.csv": peak_shave(site),
    }
    for name, power in anchors.items():
        write_schedule(args.root / "hidden" / "anchors" / name, site.starts, power)


if __name__ == "__main__":
    main()
