"""python -m evaluators.check: a readable report, JSON for tools, exit 1 on any failure."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from evaluators.check import expand_paths, main

from .conftest import FIXTURE_CASES

REPO_ROOT = Path(__file__).resolve().parents[2]


def test_it_expands_a_folder_of_cases() -> None:
    assert expand_paths([FIXTURE_CASES]) == [
        FIXTURE_CASES / "tiny-knapsack",
        FIXTURE_CASES / "tiny-restock",
        FIXTURE_CASES / "tiny-variants",
    ]


def test_it_prints_a_readable_report_and_exits_zero_for_good_cases(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main([str(FIXTURE_CASES / "tiny-knapsack")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("tiny-knapsack 1.0.0 (CO, 5 targets): OK")
    assert "anchors: reference 1.000, baseline 0.000, literal 0.000, shortcuts [0.500]" in out
    assert "handling_fee 0.909" in out


def test_it_exits_one_and_names_the_problem_for_a_broken_package(
    knapsack: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (knapsack / "hidden" / "gt.json").write_text("{")
    assert main([str(knapsack)]) == 1
    out = capsys.readouterr().out
    assert "tiny-knapsack  (?, 0 targets): FAILED" in out
    assert "PROBLEM: hidden/gt.json: not valid JSON" in out


def test_the_module_prints_json_for_tools(knapsack: Path) -> None:
    (knapsack / "hidden" / "solver.py").unlink()
    completed = subprocess.run(
        [sys.executable, "-m", "evaluators.check", "--json", str(knapsack)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 1
    (report,) = json.loads(completed.stdout)
    assert report["slug"] == "tiny-knapsack"
    assert report["ok"] is False
    assert report["problems"] == ["hidden/solver.py: missing"]
    assert report["anchors"] == {}


def test_the_terminal_report_leaves_the_frozen_test_half_out_unless_asked() -> None:
    from evaluators.admission import AdmissionReport
    from evaluators.check import format_report

    report = AdmissionReport(slug="tiny", version="1.0", family="CO", targets=5)
    report.warnings += [
        "probe set, test half: hit rate 91.0%, near-miss leaks 1.0%, wrong answers 0",
        "variant `smaller`: probe set, test half: hit rate 70.6%, near-miss leaks 16.7%",
        "instruction.md: reads as asking about a target",
    ]
    hidden = format_report(report, show_test_half=False)
    assert "hit rate 91.0%" not in hidden and "--show-test-half" in hidden
    assert "hit rate 70.6%" not in hidden  # a variant's frozen half too
    assert "instruction.md: reads as asking" in hidden
    assert "hit rate 91.0%" in format_report(report, show_test_half=True)
