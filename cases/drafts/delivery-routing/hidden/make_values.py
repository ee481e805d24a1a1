"""Write ``hidden/values.json`` of delivery-routing: the figures the texts quote, from the
parameters and the data, so every variant's answers say what its evaluator enforces.

``python cases/drafts/delivery-routing/hidden/make_values.py`` for the base;
``--params P --root ROOT`` for a variant.
"""

from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path

HIDDEN_DIR = Path(__file__).resolve().parent


def values(params: dict, data_dir: Path) -> dict[str, str]:
    with (data_dir / "stops.csv").open(newline="", encoding="utf-8") as handle:
        stops = {row["stop_id"]: row for row in csv.DictReader(handle)}
    with (data_dir / "vans.csv").open(newline="", encoding="utf-8") as handle:
        vans = {row["van_id"]: row for row in csv.DictReader(handle)}
    fridge_ok = [v for v, row in sorted(vans.items()) if row["body"] == "refrigerated"
                 and v not in (params["fridge_down_van"], params["hire_van"])]
    near = stops[params["moved_next_to"]]
    street, number = near["address"].split(",")[0].rsplit(" ", 1)
    return {
        "receive_lead_min": str(params["receive_lead_min"]),
        "lez_van": params["lez_van"],
        "fridge_down_van": params["fridge_down_van"],
        "fridge_ok_van": " and ".join(fridge_ok),
        "moved_stop": params["moved_stop"],
        "moved_name": stops[params["moved_stop"]]["customer"],
        "moved_next_to": params["moved_next_to"],
        "moved_next_to_name": near["customer"],
        "moved_new_address": f"{street} {int(number) + 2}",
        "moved_extra_km": f"{params['moved_extra_km']:g}",
        "moved_extra_min": str(params["moved_extra_min"]),
        "drop_fixed_min": str(params["drop_fixed_min"]),
        "drop_per_crate": f"{params['drop_per_crate_min']:g}",
        "hire_fee": f"{params['hire_fee_eur']:g}",
        "loading_min": str(params["loading_min"]),
        "min_paid_h": f"{params['min_paid_h']:g}",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--params", type=Path, default=HIDDEN_DIR / "params.json")
    parser.add_argument("--root", type=Path, default=HIDDEN_DIR.parent)
    args = parser.parse_args()
    params = json.loads(args.params.read_text(encoding="utf-8"))
    out = args.root / "hidden" / "values.json"
    out.write_text(json.dumps(values(params, args.root / "data"), indent=2, ensure_ascii=False) + "\n",
                   encoding="utf-8")


if __name__ == "__main__":
    main()
