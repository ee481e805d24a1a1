"""Rebuild the base variant and every further variant of the exam-timetabling case.

``python hidden/build_variants.py`` writes, for the base (in place) and for each variant in
``VARIANTS`` (into ``hidden/variants/<id>/``): ``params.json``, ``values.json``, the reference,
the counterfactuals and the anchors (``solver.py --all``), the value probes
(``make_value_probes.py``) and the variant's ``variant.toml`` with its reference and baseline
values (the base's go into ``case.toml``). The variants share the base's data (one seed): what
changes is the rules' facts - the closed day and why, the board dates, the exam seating, the
end of the afternoon and Mark's points - so each variant's best timetable differs and a
timetable leaked from one breaks a rule of another. Deterministic: running it twice changes
nothing. ``--only ID`` rebuilds one variant (``base`` for the base).
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import json
import re
import subprocess
import sys
from datetime import date
from pathlib import Path

HIDDEN = Path(__file__).resolve().parent
CASE_DIR = HIDDEN.parent
sys.path.insert(0, str(CASE_DIR.parents[2]))  # the repository, for evaluators.api

VARIANTS = {
    "inset-monday": {
        "title": "Training day on Monday 9 June, other board dates, new points",
        "summary": "The college is closed on Monday 9 June (staff training day moved); the board "
        "papers fall on other sessions; Mark scores 8 points for a two-exam day and 5 for an "
        "overnight turnaround.",
        "params": {
            "closed_day": "2025-06-09",
            "closed_reason": "the staff training day was moved there after the Ofsted visit, so there are no staff on site",
            "fixed_papers": {"1MA1/2F": ["2025-06-04", "AM"], "1MA1/3F": ["2025-06-10", "PM"],
                             "8700/2": ["2025-06-05", "PM"]},
            "same_day_pts": 8, "overnight_pts": 5,
        },
    },
    "polling-day": {
        "title": "Polling station on Thursday 12 June, early buses, smaller Sports Hall",
        "summary": "The college is closed on Thursday 12 June (the Sports Hall is a polling "
        "station); the buses now leave at 16:00; the Sports Hall takes 72 exam desks; other "
        "board dates.",
        "params": {
            "closed_day": "2025-06-12",
            "closed_reason": "the Sports Hall is the polling station for the council by-election and the college closes to students",
            "fixed_papers": {"1MA1/2F": ["2025-06-03", "AM"], "1MA1/3F": ["2025-06-11", "AM"],
                             "8700/2": ["2025-06-05", "AM"]},
            "exam_seats": {"SH": 72, "MH": 48, "LIB": 24, "DS": 20, "LS1": 4, "LS2": 4},
            "pm_end": "16:00",
        },
    },
    "hall-floor": {
        "title": "Main Hall floor works, Wednesday 11 June closed, three-seat support rooms",
        "summary": "Half the Main Hall floor is being replaced (40 exam desks); the college is "
        "closed on Wednesday 11 June (open day for Year 11 applicants); Learning Support rooms "
        "take 3 each; other board dates.",
        "params": {
            "closed_day": "2025-06-11",
            "closed_reason": "it is the open day for next year's applicants and the whole site is given over to it",
            "fixed_papers": {"1MA1/2F": ["2025-06-04", "AM"], "1MA1/3F": ["2025-06-10", "AM"],
                             "8700/2": ["2025-06-06", "AM"]},
            "exam_seats": {"SH": 80, "MH": 40, "LIB": 24, "DS": 20, "LS1": 3, "LS2": 3},
        },
    },
}


def long_day(day: str) -> str:
    value = date.fromisoformat(day)
    return f"{value:%A} {value.day} {value:%B}"


def session_text(fixed: list[str]) -> str:
    return f"{long_day(fixed[0])}, {'morning' if fixed[1] == 'AM' else 'afternoon'}"


def values_for(params: dict) -> dict[str, str]:
    """Display strings an answer text needs, for ``{{placeholder}}`` rendering."""
    seats = params["exam_seats"]
    hours, mins = (int(v) for v in params["pm_start"].split(":"))
    end_h, end_m = (int(v) for v in params["pm_end"].split(":"))
    window = end_h * 60 + end_m - hours * 60 - mins
    longest = int(window * 100 // (100 + params["extra_time_pct"]))
    fixed = params["fixed_papers"]
    closed = date.fromisoformat(params["closed_day"])
    return {
        "sh_seats": str(seats["SH"]), "mh_seats": str(seats["MH"]), "lib_seats": str(seats["LIB"]),
        "ds_seats": str(seats["DS"]), "ls_seats": str(seats["LS1"]),
        "ls_total": str(seats["LS1"] + seats["LS2"]),
        "pm_end": params["pm_end"], "pm_max_len": f"{longest} minutes",
        "extra_time_pct": f"{params['extra_time_pct']} %",
        "same_day_pts": f"{params['same_day_pts']} points",
        "overnight_pts": f"{params['overnight_pts']} points",
        "fixed_ma2": session_text(fixed["1MA1/2F"]), "fixed_ma3": session_text(fixed["1MA1/3F"]),
        "fixed_en2": session_text(fixed["8700/2"]),
        "closed_day_long": long_day(params["closed_day"]), "closed_reason": params["closed_reason"],
        # For ask patterns: the closed day as a player may write it.
        "closed_date": f"{closed.day} june", "closed_date_alt": f"june {closed.day}",
        "closed_iso": params["closed_day"],
    }


def value_of(data: Path, hidden: Path, path: Path) -> float:
    spec = importlib.util.spec_from_file_location("exam_timetabling_evaluator", HIDDEN / "evaluator.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    from evaluators.api import Submission

    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assessment = module.evaluate(Submission(format="csv", rows=rows), data, hidden)
    assert assessment.value is not None, (path, assessment)
    return assessment.value


def build(root: Path, params: dict, data: Path) -> tuple[float, float]:
    """Parameters, values, solver outputs and value probes of one variant; (R, B)."""
    hidden = root / "hidden"
    hidden.mkdir(parents=True, exist_ok=True)
    (hidden / "params.json").write_text(json.dumps(params, indent=2) + "\n", encoding="utf-8")
    (hidden / "values.json").write_text(json.dumps(values_for(params), indent=2) + "\n", encoding="utf-8")
    py = sys.executable
    # A variant has no data/ of its own: the solver and the probes read the base's.
    subprocess.run([py, str(HIDDEN / "solver.py"), "--root", str(root), "--data", str(data), "--all"],
                   check=True)
    subprocess.run([py, str(HIDDEN / "make_value_probes.py"), "--root", str(root), "--data", str(data)],
                   check=True)
    return (value_of(data, hidden, hidden / "reference.csv"),
            value_of(data, hidden, hidden / "anchors" / "baseline.csv"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=None)
    only = parser.parse_args().only
    base = json.loads((HIDDEN / "params.json").read_text(encoding="utf-8"))
    data = CASE_DIR / "data"
    if only in (None, "base"):
        subprocess.run([sys.executable, str(HIDDEN / "generate.py")], check=True)
        reference, baseline = build(CASE_DIR, base, data)
        toml = (CASE_DIR / "case.toml").read_text(encoding="utf-8")
        toml = re.sub(r"^reference_value = [0-9.eE+-]+", f"reference_value = {reference!r}", toml, flags=re.M)
        toml = re.sub(r"^baseline_value = [0-9.eE+-]+", f"baseline_value = {baseline!r}", toml, flags=re.M)
        (CASE_DIR / "case.toml").write_text(toml, encoding="utf-8")
        print(f"base: reference {reference}, baseline {baseline}")
    for key, spec in VARIANTS.items():
        if only not in (None, key):
            continue
        root = HIDDEN / "variants" / key
        reference, baseline = build(root, {**base, **spec["params"]}, data)
        (root / "variant.toml").write_text(
            f'title = "{spec["title"]}"\nsummary = "{spec["summary"]}"\n\n[scoring]\n'
            f"reference_value = {reference!r}\nbaseline_value = {baseline!r}\n",
            encoding="utf-8",
        )
        print(f"{key}: reference {reference}, baseline {baseline}")


if __name__ == "__main__":
    main()
