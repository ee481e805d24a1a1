"""Rebuild line-scheduling's fact-altering variants into hidden/variants/<id>/.

Each variant keeps the plant, the people and the kinds of rules and alters the facts: another
order book (seed), which line is down for maintenance and when, the allergen clean's length,
the late-order and changeover costs, the despatch cut-off and the end of the working week.
Each variant's data, hidden files and variant.toml are written by build.py.
For each: its params (the base's with the variant's changes), then build.py, which builds
data, anchors, counterfactuals, reference, value probes, values.json and variant.toml (with the
reference and baseline values the evaluator measured) in a staging folder and replaces the
variant's files with them only when all of it has been built: a stopped or failed build
leaves the variant's last complete build in place, params.json included.

Usage: build_variants.py [ID ...]   (default: every variant)
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

VARIANTS = {
    "l1-overhaul": {
        "title": "L1 overhaul on Thursday, shorter allergen clean, cheaper late orders",
        "summary": "Another order book; L1 (not L2) is down on Thursday 9 October 06:00-22:00; the allergen clean takes 90 minutes, not 120; a late order costs 900 GBP, not 1,200.",
        "params": {"seed": 20251007,
                   "maintenance": [{"line": "L1", "start": "2025-10-09T06:00",
                                    "end": "2025-10-09T22:00"}],
                   "allergen_clean_min": 90, "late_order_gbp": 900},
    },
    "early-trunking": {
        "title": "Earlier despatch cut-off, short Friday, L3 maintenance",
        "summary": "Another order book (a smoothie-promotion week: more milk orders, due early); orders must be off the line by 06:00 the day before delivery (not 14:00); the week ends Friday 14:00 (no Friday late shift either); L3 is down on Wednesday 8 October 14:00-22:00; a late order costs 1,500 GBP and a changeover minute 12 GBP.",
        "params": {"seed": 20251014, "milk_share": 0.45,
                   "deadline": {"days_before": 1, "time": "06:00"},
                   "week_end": "2025-10-10T14:00",
                   "maintenance": [{"line": "L3", "start": "2025-10-08T14:00",
                                    "end": "2025-10-08T22:00"}],
                   "late_order_gbp": 1500, "changeover_gbp_per_min": 12},
    },
    "short-friday": {
        "title": "L3 overhaul on Monday, Friday ends at 18:00, longer allergen clean",
        "summary": "Another order book (a smoothie-promotion week: more milk orders, due early); L3 (the fast line) is down on Monday 6 October 06:00-14:00; the week ends Friday 18:00; the allergen clean takes 150 minutes; orders must be off the line by 12:00 the day before delivery; a late order costs 1,000 GBP and a changeover minute 8 GBP.",
        "params": {"seed": 20251009, "milk_share": 0.45,
                   "maintenance": [{"line": "L3", "start": "2025-10-06T06:00",
                                    "end": "2025-10-06T14:00"}],
                   "week_end": "2025-10-10T18:00",
                   "allergen_clean_min": 150,
                   "deadline": {"days_before": 1, "time": "12:00"},
                   "late_order_gbp": 1000, "changeover_gbp_per_min": 8},
    },
}


def main() -> None:
    chosen = sys.argv[1:] or list(VARIANTS)
    base = json.loads((HERE / "params.json").read_text(encoding="utf-8"))
    for vid in chosen:
        spec = VARIANTS[vid]
        root = HERE / "variants" / vid
        root.mkdir(parents=True, exist_ok=True)
        params = copy.deepcopy(base)
        params.update(copy.deepcopy(spec["params"]))
        with tempfile.TemporaryDirectory(prefix=f"line-scheduling-{vid}-") as tmp:
            ppath, head = Path(tmp) / "params.json", Path(tmp) / "variant-head.toml"
            ppath.write_text(json.dumps(params, indent=2) + "\n", encoding="utf-8")
            head.write_text(f'title = "{spec["title"]}"\nsummary = "{spec["summary"]}"\n\n',
                            encoding="utf-8")
            out = subprocess.run([sys.executable, str(HERE / "build.py"), "--params", str(ppath),
                                  "--root", str(root), "--toml-head", str(head)],
                                 capture_output=True, text=True)
        if out.returncode:
            sys.stderr.write(out.stderr)
            raise SystemExit(f"{vid}: build.py failed ({out.returncode}); its files are as before")
        report = json.loads(out.stdout)
        print(vid, json.dumps(report))


if __name__ == "__main__":
    main()
