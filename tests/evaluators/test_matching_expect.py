"""matching.json may expect one fact, several facts, or none."""

from __future__ import annotations

from pathlib import Path

from evaluators.package_checks import Findings
from evaluators.script_checks import check_matching


def _write(root: Path, questions: list[dict[str, object]]) -> Path:
    (root / "hidden").mkdir(exist_ok=True)
    import json

    (root / "hidden" / "matching.json").write_text(json.dumps({"questions": questions}))
    return root


def _problems(tmp_path: Path, expect: object) -> list[str]:
    questions: list[dict[str, object]] = [{"text": f"q{i}?", "expect": None} for i in range(40)]
    questions.append({"text": "two things?", "expect": expect})
    findings = Findings()
    check_matching(_write(tmp_path, questions), {"a", "b"}, findings)
    return findings.problems


def test_a_list_of_known_facts_is_accepted(tmp_path: Path) -> None:
    assert _problems(tmp_path, ["a", "b"]) == []


def test_an_unknown_fact_in_a_list_is_named(tmp_path: Path) -> None:
    assert any("'zz'" in p for p in _problems(tmp_path, ["a", "zz"]))


def test_a_malformed_expect_is_reported_not_crashed_on(tmp_path: Path) -> None:
    for bad in ([], [1], {"a": 1}, 3):
        assert any("`expect` must be" in p for p in _problems(tmp_path, bad))
