"""Rebuild the base variant and every further variant of the lead-scoring case.

``python hidden/build_variants.py`` writes, for the base (in place) and for each variant in
``VARIANTS`` (into ``hidden/variants/<id>/``): ``params.json``, ``values.json``, the generated
``data/`` and ``hidden/truth/``, the reference, the counterfactuals and the anchors (by running
``generate.py`` and ``solver.py --all`` on that root), the value probes, and the variant's
``variant.toml`` with its reference value (the base's goes into ``case.toml``).
Deterministic: running it twice changes nothing.

Each variant keeps the story, the people and the kinds of rules and alters the facts behind
them: which AE has moved to account management (so which territory is short), the plans'
ACVs, the sales window, and the leads themselves (another seed, so a leaked list from one
variant is worth little or breaks the rules on another). ``emea-leave`` keeps the base's leads,
so its cross scores show the facts alone change the answer.
"""

from __future__ import annotations

import csv
import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

HIDDEN = Path(__file__).resolve().parent
CASE_DIR = HIDDEN.parent
sys.path.insert(0, str(CASE_DIR.parents[2]))  # the repository, for evaluators.api

VARIANTS = {
    "emea-leave": {
        "title": "An EMEA AE moves, Enterprise repriced",
        "summary": "Oliver Grant (EMEA) moved to account management, so EMEA has two AEs for June; "
        "Enterprise's first-year ACV is USD 72,000 after the new price book; the same leads as the base.",
        "params": {"moved_ae": "Oliver Grant", "moved_territory": "EMEA",
                   "acv_usd": {"Starter": 6000, "Growth": 24000, "Enterprise": 72000}},
    },
    "sixty-day": {
        "title": "60-day window, an APAC AE moves, Growth repriced",
        "summary": "Sales counts a conversion as closed won within 60 days; Anjali Das (APAC) moved "
        "to account management, so APAC has one AE; Growth's ACV is USD 30,000; other leads (seed).",
        "params": {"seed": 20250615, "win_window_days": 60, "moved_ae": "Anjali Das",
                   "moved_territory": "APAC",
                   "acv_usd": {"Starter": 6000, "Growth": 30000, "Enterprise": 84000}},
    },
    "east-rebalance": {
        "title": "An NA-East AE moves, cheaper Starter and Growth",
        "summary": "Greg Novak (NA-East) moved to account management, so NA-East has three AEs; "
        "Starter is USD 4,800 and Growth USD 26,400; other leads (seed).",
        "params": {"seed": 20250622, "moved_ae": "Greg Novak", "moved_territory": "NA-East",
                   "acv_usd": {"Starter": 4800, "Growth": 26400, "Enterprise": 84000}},
    },
}
NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}
TERRITORY_ORDER = ("NA-East", "NA-West", "EMEA", "APAC")


def values_for(params: dict) -> dict[str, str]:
    """Display strings the answer texts need, for ``{{placeholder}}`` rendering."""
    listed = params["territory_aes"][params["moved_territory"]]
    real = listed - 1
    cap = params["leads_per_ae"]
    others = [f"{t} {params['territory_aes'][t] * cap}" for t in TERRITORY_ORDER
              if t != params["moved_territory"]]
    return {
        "win_window": f"{params['win_window_days']} days",
        "leads_per_ae": f"{cap} leads",
        "acv_starter": f"USD {params['acv_usd']['Starter']:,}",
        "acv_growth": f"USD {params['acv_usd']['Growth']:,}",
        "acv_enterprise": f"USD {params['acv_usd']['Enterprise']:,}",
        "moved_ae": params["moved_ae"],
        "moved_ae_first": params["moved_ae"].split()[0],
        "moved_territory": params["moved_territory"],
        "moved_territory_aes": f"{NUMBER_WORDS[real]} AE" + ("s" if real != 1 else ""),
        "moved_listed_aes": NUMBER_WORDS[listed],
        "moved_cap": f"{real * cap} leads",
        "territory_caps": ", ".join(others[:-1]) + f" and {others[-1]} leads",
    }


def build(root: Path, params: dict) -> float:
    hidden = root / "hidden"
    hidden.mkdir(parents=True, exist_ok=True)
    (hidden / "params.json").write_text(json.dumps(params, indent=2) + "\n", encoding="utf-8")
    (hidden / "values.json").write_text(json.dumps(values_for(params), indent=2) + "\n",
                                        encoding="utf-8")
    py = sys.executable
    subprocess.run([py, str(HIDDEN / "generate.py"), "--params", str(hidden / "params.json"),
                    "--out", str(root)], check=True)
    subprocess.run([py, str(HIDDEN / "solver.py"), "--root", str(root), "--all"], check=True)
    subprocess.run([py, str(HIDDEN / "make_value_probes.py"), "--root", str(root)], check=True)
    return reference_value(root, hidden)


def reference_value(root: Path, hidden: Path) -> float:
    from evaluators.api import Submission

    spec = importlib.util.spec_from_file_location("lead_scoring_evaluator", HIDDEN / "evaluator.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with (hidden / "reference.csv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assessment = module.evaluate(Submission(format="csv", rows=rows), root / "data", hidden)
    assert assessment.value is not None, assessment
    return assessment.value


def main() -> None:
    base = json.loads((HIDDEN / "params.json").read_text(encoding="utf-8"))
    only = set(sys.argv[1:])
    if not only or "base" in only:
        value = build(CASE_DIR, base)
        toml = (CASE_DIR / "case.toml").read_text(encoding="utf-8")
        toml = re.sub(r"^reference_value = [0-9.eE+-]+", f"reference_value = {value!r}", toml,
                      flags=re.M)
        (CASE_DIR / "case.toml").write_text(toml, encoding="utf-8")
        print(f"base: reference {value:,.0f}")
    for key, spec in VARIANTS.items():
        if only and key not in only:
            continue
        root = HIDDEN / "variants" / key
        value = build(root, {**base, **spec["params"]})
        (root / "variant.toml").write_text(
            f'title = "{spec["title"]}"\nsummary = "{spec["summary"]}"\n\n[scoring]\n'
            f"reference_value = {value!r}\nbaseline_value = 0.0\n",
            encoding="utf-8",
        )
        print(f"{key}: reference {value:,.0f}")


if __name__ == "__main__":
    main()
