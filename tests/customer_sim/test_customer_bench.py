"""bench/matching.py on the fixture case: it reports and fails the way it promises."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bench import matching as bench

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "customer"


def copy_case(tmp_path: Path, questions: list[dict[str, object]]) -> Path:
    cases = tmp_path / "cases"
    shutil.copytree(FIXTURES / "bakery-routes", cases / "bakery-routes")
    matching = cases / "bakery-routes" / "hidden" / "matching.json"
    matching.write_text(json.dumps({"questions": questions}))
    return cases


def test_it_passes_a_case_that_meets_the_targets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = copy_case(
        tmp_path,
        [
            {"text": "How many trays fit in a van?", "expect": "van_capacity"},
            {
                "text": "Are windows hard? What does -R at the end of order ids mean?",
                "expect": ["window_hardness", "redelivery_suffix"],
            },
            {"text": "Where is the depot?", "expect": None, "kind": "near_miss"},
        ],
    )
    assert bench.main(["--cases", str(cases)]) == 0
    out = capsys.readouterr().out
    assert "| bakery-routes | 100.0% (2/2) | 0 | 0.0% (0/1) |" in out


def test_it_fails_and_lists_misses_and_leaks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = copy_case(
        tmp_path,
        [
            {"text": "How many trays fit in a van?", "expect": "nut_separation"},
            {"text": "What is the capacity of each van?", "expect": None, "kind": "near_miss"},
        ],
    )
    assert bench.main(["--cases", str(cases), "--verbose"]) == 1
    out = capsys.readouterr().out
    assert "0.0% (0/1) | 1 | 100.0% (1/1)" in out
    assert "MISS 'How many trays fit in a van?' expected ['nut_separation']" in out
    assert "EXTRA 'How many trays fit in a van?'" in out
    assert "LEAK (near_miss) 'What is the capacity of each van?' -> ['van_capacity']" in out


def test_it_fails_when_there_is_nothing_to_benchmark(tmp_path: Path) -> None:
    assert bench.main(["--cases", str(tmp_path)]) == 1
