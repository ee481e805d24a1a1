"""Rebuild the fact-altering variants of ward-rostering into hidden/variants/<id>/.

Each variant keeps the ward, the people and the kinds of rules and alters the facts: the data
seed (other leave, other one-off demand, other names), which band 6 is seconded and from when,
the hours balance the e-roster carries, the night shift's times.
For each: params.json, data/ (generate.py), reference and counterfactuals (solver.py), anchors
(make_anchors.py), values.json (display values for answer texts) and variant.toml with the
scoring values measured by the evaluator.

Usage: build_variants.py [ID ...]   (default: every variant; the base's values.json too)
       build_variants.py --values    (only rewrite every values.json)
       build_variants.py --anchors [ID ...]   (only the anchors and variant.toml)
"""

from __future__ import annotations

import copy
import csv
import json
import subprocess
import sys
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
PY = sys.executable
sys.path.insert(0, str(HERE))

# One more band 6 (in place of a part-time band 5) in both variants: with the base ward's six
# seniors, two-in-four weekends and a night in charge every night leave no slack at all.
SEVEN_SENIORS = [
    {"band": 7, "hours": 37.5, "count": 1},
    {"band": 6, "hours": 37.5, "count": 4},
    {"band": 6, "hours": 30.0, "count": 2},
    {"band": 5, "hours": 37.5, "count": 4},
    {"band": 5, "hours": 30.0, "count": 1},
    {"band": 5, "hours": 22.5, "count": 2},
]

VARIANTS = {
    "tight-balance": {
        "title": "Tighter hours balance, later secondment",
        "summary": "The e-roster carries only 3 hours either way against contract; a different band 6 leaves for the discharge lounge from week 4; other leave and extras.",
        "params": {"seed": 20260302, "staff": SEVEN_SENIORS, "hours_tolerance": 3.0,
                   "secondment": {"nurse_index": 2, "from_date": "2026-02-23", "to": "the discharge lounge"}},
    },
    "long-nights": {
        "title": "Longer night shift, early secondment",
        "summary": "Nights run 21:00-07:30 (9.5 paid hours); a band 6 leaves for the discharge lounge after week 1; other leave and extras.",
        "params": {"seed": 20260316, "staff": SEVEN_SENIORS,
                   "shifts": {"N": {"name": "Night", "start": "21:00", "end": "07:30", "unpaid_break_min": 60}},
                   "secondment": {"nurse_index": 4, "from_date": "2026-02-09", "to": "the discharge lounge"}},
    },
    "part-time-secondee": {
        "title": "Four-hour balance, a part-time band 6 seconded from week 4, nights 21:15-07:15",
        "summary": "The e-roster carries 4 hours either way against contract; a 30-hour band 6 leaves for the discharge lounge from Monday 23 February; nights run 21:15-07:15 (9 paid hours); other leave and extras.",
        "params": {"seed": 20260330, "staff": SEVEN_SENIORS, "hours_tolerance": 4.0,
                   "shifts": {"N": {"name": "Night", "start": "21:15", "end": "07:15", "unpaid_break_min": 60}},
                   "secondment": {"nurse_index": 5, "from_date": "2026-02-23", "to": "the discharge lounge"}},
    },
}


def merged(base: dict, change: dict) -> dict:
    out = copy.deepcopy(base)
    for key, value in change.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict) and key != "secondment":
            out[key] = merged(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def values_for(root: Path, params: dict) -> dict[str, str]:
    from ward import load_ward
    ward = load_ward(root / "data", params)
    secondee = next(n for n in ward.nurses if n.nurse_id == ward.secondee)
    paid = {s: ward.paid_half_hours[s] / 2 for s in ward.paid_half_hours}
    clock = {s: ((ward.end_min[s] - ward.start_min[s]) % 1440) / 60 for s in ward.paid_half_hours}
    weeks_on = sum(1 for d in ward.days if d < ward.secondment_from) // 7
    seniors = [n for n in ward.nurses if n.band in ward.senior_bands]
    band7 = next(n for n in ward.nurses if n.band == 7)
    reference = evaluation(root, root / "hidden" / "reference.csv")
    baseline = evaluation(root, root / "hidden" / "anchors" / "baseline.csv")
    return {
        "max_nights": WORDS[ward.max_nights],
        "believed_nights": WORDS[int(params["believed_max_consecutive_nights"])],
        "rest_hours": f"{params['min_rest_hours']:g} hours",
        "hours_tolerance": f"{params['hours_tolerance']:g} hours",
        "day_paid_hours": f"{paid['E']:g} hours",
        "night_paid_hours": f"{paid['N']:g} hours",
        "night_times": f"{params['shifts']['N']['start']}-{params['shifts']['N']['end']}",
        "secondee": secondee.name,
        "secondee_id": secondee.nurse_id,
        "secondment_start": f"{ward.secondment_from:%A} {ward.secondment_from.day} {ward.secondment_from:%B}",
        "secondee_hours": f"{ward.contract_half_hours(secondee) / 2:g} hours",
        "max_weekends": f"{WORDS[int(params['max_weekends_worked'])]} of the four weekends",
        "night_clock_hours": f"{clock['N']:g}",
        "secondee_first": secondee.name.split()[0],
        "secondee_match": "|".join([*secondee.name.lower().split(), secondee.nurse_id.lower()]),
        "secondment_weeks": {1: "the first week", 2: "the first two weeks",
                             3: "the first three weeks"}[weeks_on],
        "secondment_off_weeks": {1: "weeks 2 to 4", 2: "weeks 3 and 4", 3: "week 4"}[weeks_on],
        "secondment_day": f"the {ordinal(ward.secondment_from.day)}",
        "n_seniors": WORDS[len(seniors)],
        "n_band6": WORDS[sum(1 for n in seniors if n.band == 6)],
        "band7_name": band7.name,
        "band7_first": band7.name.split()[0],
        "reference_cost": f"GBP {reference['agency_cost_gbp']:,.0f}",
        "reference_agency_shifts": str(reference["agency_shifts"]),
        "baseline_cost": f"GBP {baseline['agency_cost_gbp']:,.0f}",
        "all_agency_cost": f"GBP {sum(ward.rate[k] * ward.required[k] for k in ward.required):,.0f}",
    }


def ordinal(n: int) -> str:
    return f"{n}{'th' if 11 <= n % 100 <= 13 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def evaluation(root: Path, path: Path) -> dict:
    sys.path.insert(0, str(HERE.parents[3]))
    from evaluators.api import Submission
    import evaluator
    rows = list(csv.DictReader(path.open()))
    result = evaluator.evaluate(Submission(format="csv", rows=rows), root / "data", root / "hidden")
    assert result.value is not None, (path, result.violations)
    return result.details


def score(root: Path, path: Path) -> float | None:
    sys.path.insert(0, str(HERE.parents[3]))
    from evaluators.api import Submission
    import evaluator
    rows = list(csv.DictReader(path.open()))
    result = evaluator.evaluate(Submission(format="csv", rows=rows), root / "data", root / "hidden")
    return None if (result.fatal or result.violations) else float(result.value)


def build(vid: str) -> None:
    spec = VARIANTS[vid]
    base = json.loads((HERE / "params.json").read_text(encoding="utf-8"))
    params = merged(base, spec["params"])
    root = HERE / "variants" / vid
    (root / "hidden").mkdir(parents=True, exist_ok=True)
    ppath = root / "hidden" / "params.json"
    ppath.write_text(json.dumps(params, indent=2) + "\n", encoding="utf-8")
    for script in ("generate.py", "solver.py", "make_anchors.py"):
        args = [PY, str(HERE / script), "--params", str(ppath)]
        args += ["--out", str(root)] if script == "generate.py" else ["--root", str(root)]
        if script == "solver.py":
            args.append("--all")
        subprocess.run(args, check=True)
    (root / "hidden" / "values.json").write_text(
        json.dumps(values_for(root, params), indent=2) + "\n", encoding="utf-8")
    write_toml(vid)


def write_toml(vid: str) -> None:
    spec, root = VARIANTS[vid], HERE / "variants" / vid
    reference = score(root, root / "hidden" / "reference.csv")
    baseline = score(root, root / "hidden" / "anchors" / "baseline.csv")
    (root / "variant.toml").write_text(
        f'title = "{spec["title"]}"\nsummary = "{spec["summary"]}"\n\n[scoring]\n'
        f"reference_value = {reference}\n"
        f"baseline_value = {baseline}   # the ward's hand-made habit (anchors/baseline.csv)\n",
        encoding="utf-8")
    print(f"{vid}: reference {reference}, baseline {baseline}")


def write_values(root: Path) -> None:
    params = json.loads((root / "hidden" / "params.json").read_text(encoding="utf-8"))
    (root / "hidden" / "values.json").write_text(
        json.dumps(values_for(root, params), indent=2) + "\n", encoding="utf-8")


def main() -> None:
    if sys.argv[1:2] == ["--anchors"]:   # anchors changed only: rewrite them and variant.toml
        for vid in sys.argv[2:] or list(VARIANTS):
            root = HERE / "variants" / vid
            subprocess.run([PY, str(HERE / "make_anchors.py"), "--params",
                            str(root / "hidden" / "params.json"), "--root", str(root)], check=True)
            write_toml(vid)
        return
    if sys.argv[1:] == ["--values"]:   # texts changed only: rewrite every values.json
        for root in [HERE.parent] + [HERE / "variants" / vid for vid in VARIANTS]:
            write_values(root)
        return
    for vid in sys.argv[1:] or list(VARIANTS):
        build(vid)
    write_values(HERE.parent)


if __name__ == "__main__":
    main()
