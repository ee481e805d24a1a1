"""Rebuild one variant of line-scheduling end to end: data, anchors, counterfactuals, reference.

Order matters: the baseline (the planner's whiteboard plan, solver.py --mode due) seeds a
first reference; every counterfactual is solved warm-started from that reference (it is
feasible under each belief, all of which relax or re-weigh the real rules), and the reference
is then re-solved from the cheapest plan found so far that the evaluator accepts under the
real rules, so no counterfactual or anchor can beat the reference by search luck. Then the
value probes (make_value_probes.py); finally values.json and the scoring values (variant.toml
for a variant, printed for the base).

Every step runs in a fresh staging folder (a temporary ROOT holding only the params), and
ROOT's built files (OUTPUTS: data/, params.json, the reference, anchors, counterfactuals,
value probes, values.json and, with --toml-head, variant.toml) are replaced together only
once the whole build has run and every plan it wrote names exactly the order book it
generated. A build that stops or fails part-way leaves ROOT as it was: never new data beside
the last build's counterfactuals (short-friday's once were, when its params gained
milk_share and its rebuild was stopped after the first reference solve).

Usage: build.py [--params P] [--root ROOT] [--toml-head FILE]
       (defaults: the base package in place)
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(1, str(HERE.parents[3]))   # the repository, for evaluators.api
PY = sys.executable
KEYS = ["rate_in_bottles", "allergen_line_approval", "allergen_clean", "maintenance_window",
        "friday_no_night", "late_order_cost", "due_is_delivery_date"]
CF_TIME, REF_TIME, BASE_TIME = 8.0, 15.0, 5.0
ANCHORS = ["baseline", "literal", "shortcut-campaign", "shortcut-changeovers",
           "shortcut-due-date"]
#: What a build writes under ROOT, replaced together when it has succeeded.
OUTPUTS = ["data", "hidden/params.json", "hidden/reference.csv", "hidden/anchors",
           "hidden/counterfactuals", "hidden/value_probes", "hidden/value_probes.json",
           "hidden/values.json"]


def run(*args: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(HERE.parents[3])}
    subprocess.run([PY, *args], check=True, env=env)


def score(root: Path, path: Path):
    """The evaluator's verdict on a plan file under ROOT's data and params (no sandbox)."""
    from evaluators.api import Submission
    from evaluator import evaluate
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    return evaluate(Submission(format="csv", rows=rows), root / "data", root / "hidden")


def build(params_path: Path, root: Path) -> dict:
    hidden = root / "hidden"
    run(str(HERE / "generate.py"), "--params", str(params_path), "--out", str(root))
    run(str(HERE / "make_anchors.py"), "--params", str(params_path), "--root", str(root))
    ref = hidden / "reference.csv"
    common = ["--params", str(params_path), "--root", str(root)]
    base = hidden / "anchors" / "baseline.csv"
    run(str(HERE / "solver.py"), *common, "--mode", "due", "--out", str(base),
        "--det-time", str(BASE_TIME))
    run(str(HERE / "solver.py"), *common, "--hint", str(base), "--det-time", str(REF_TIME))
    for key in KEYS:
        run(str(HERE / "solver.py"), *common, "--ignore", key, "--hint", str(ref),
            "--det-time", str(CF_TIME))
    run(str(HERE / "solver.py"), *common, "--ignore", "changeovers_only", "--hint", str(ref),
        "--det-time", str(CF_TIME), "--out", str(hidden / "anchors" / "shortcut-changeovers.csv"))
    run(str(HERE / "solver.py"), *common, "--ignore", "literal", "--det-time", str(CF_TIME))
    # Re-solve the reference from the cheapest plan the real rules accept.
    candidates = [ref] + [hidden / "counterfactuals" / f"{k}.csv" for k in KEYS] + \
        sorted((hidden / "anchors").glob("shortcut-*.csv")) + [base]
    valued = [(a.value, str(p)) for p in candidates if (a := score(root, p)).value is not None]
    best = min(valued)[1]
    tmp = hidden / "reference.hint.csv"
    tmp.write_text(Path(best).read_text())
    run(str(HERE / "solver.py"), *common, "--hint", str(tmp), "--det-time", str(REF_TIME))
    tmp.unlink()
    result = score(root, ref)
    report = {"reference_value": result.value, "baseline_value": score(root, base).value,
              "details": result.details}
    for p in sorted((hidden / "anchors").glob("*.csv")) + \
            sorted((hidden / "counterfactuals").glob("*.csv")):
        a = score(root, p)
        report[p.stem] = a.value if a.value is not None else \
            (a.fatal or sorted(v.rule for v in a.violations))
    return report


def _clock(stamp: str) -> tuple[str, str]:
    from datetime import datetime
    t = datetime.fromisoformat(stamp)
    return t.strftime("%A %-d %B"), t.strftime("%H:%M")


def gbp(x: float) -> str:
    return f"£{x:,.0f}"


def values_for(params: dict, report: dict) -> dict[str, str]:
    """Display strings for the answer texts (docs/variants.md), from params and the scores."""
    (window,) = params["maintenance"]
    day, a = _clock(window["start"])
    _, b = _clock(window["end"])
    end_day, end_time = _clock(params["week_end"])
    minutes = int(params["late_order_gbp"] / params["changeover_gbp_per_min"])
    equiv = f"{minutes // 60} hours" if minutes % 60 == 0 else f"{minutes} minutes"
    rule = params["deadline"]
    before = {1: "the day before delivery", 2: "two days before delivery"}[rule["days_before"]]
    lexi = report["late_order_cost"]
    return {
        "n_orders": str(params["n_orders"]),
        "late_gbp": gbp(params["late_order_gbp"]),
        "co_gbp": gbp(params["changeover_gbp_per_min"]),
        "late_equiv": equiv,
        "tardy_loss": gbp(lexi - report["reference_value"]) if isinstance(lexi, float) else "a lot",
        "reference_cost": gbp(report["reference_value"]),
        "reference_late": str(report["details"]["late_orders"]),
        "reference_co": str(report["details"]["changeover_minutes"]),
        "barred_line": ", ".join(params["allergen_barred_lines"]),
        "clean_min": f"{params['allergen_clean_min']} minutes",
        "maint_line": window["line"],
        "maint_when": f"on {day}, {a} to {b}",
        "week_end": f"at {end_time} on {end_day.split()[0]}",
        "cutoff": f"{rule['time']} {before}",
    }


def _ids(path: Path) -> set[str]:
    with path.open(newline="", encoding="utf-8") as handle:
        return {r["order_id"] for r in csv.DictReader(handle)}


def verify(stage: Path) -> None:
    """Every plan the build wrote exists and names exactly the order book it generated."""
    hidden = stage / "hidden"
    book = _ids(stage / "data" / "orders.csv")
    plans = [hidden / "reference.csv"] + [hidden / "anchors" / f"{a}.csv" for a in ANCHORS] + \
        [hidden / "counterfactuals" / f"{k}.csv" for k in KEYS]
    missing = [str(p.relative_to(stage)) for p in plans if not p.is_file()]
    if missing:
        raise SystemExit(f"build incomplete, not published: missing {missing}")
    plans += sorted((hidden / "value_probes").glob("*.csv"))
    for p in plans:
        if _ids(p) != book:
            raise SystemExit(f"{p.relative_to(stage)} does not name data/orders.csv's orders; "
                             "not published")


def _remove(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path)
    elif path.exists():
        path.unlink()


def publish(stage: Path, root: Path, outputs: list[str]) -> None:
    """Copy every output next to its place first, then swap them all in."""
    for rel in outputs:
        src, dst = stage / rel, root / rel
        new = dst.with_name(f".{dst.name}.new")
        _remove(new)
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, new)
        else:
            shutil.copyfile(src, new)
    for rel in outputs:
        dst = root / rel
        _remove(dst)
        dst.with_name(f".{dst.name}.new").rename(dst)


def build_staged(params_path: Path, root: Path, toml_head: str | None = None) -> dict:
    """build() in a fresh staging folder, then publish its files to ROOT in one go."""
    params = json.loads(params_path.read_text(encoding="utf-8"))
    outputs = list(OUTPUTS)
    with tempfile.TemporaryDirectory(prefix="line-scheduling-build-") as tmp:
        stage = Path(tmp)
        (stage / "hidden").mkdir()
        staged_params = stage / "hidden" / "params.json"
        staged_params.write_text(json.dumps(params, indent=2) + "\n", encoding="utf-8")
        report = build(staged_params, stage)
        values = values_for(params, report)
        (stage / "hidden" / "values.json").write_text(
            json.dumps(values, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        run(str(HERE / "make_value_probes.py"), "--root", str(stage))
        verify(stage)
        if toml_head is not None:
            (stage / "variant.toml").write_text(
                toml_head + "[scoring]  # written by hidden/build_variants.py from the evaluator\n"
                f"reference_value = {report['reference_value']}\n"
                f"baseline_value = {report['baseline_value']}\n", encoding="utf-8")
            outputs.append("variant.toml")
        publish(stage, root, outputs)
    return report


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--params", type=Path, default=HERE / "params.json")
    ap.add_argument("--root", type=Path, default=HERE.parent)
    ap.add_argument("--toml-head", type=Path, default=None,
                    help="a variant's title and summary lines: write ROOT/variant.toml too")
    args = ap.parse_args()
    head = args.toml_head.read_text(encoding="utf-8") if args.toml_head else None
    report = build_staged(args.params.resolve(), args.root.resolve(), head)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
