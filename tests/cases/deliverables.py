"""Helpers shared by the case-rule tests: read a case's deliverable, change it, score it.

Every test scores through ``evaluators.runtime.score_file``, the sandboxed path a player's
upload takes, so what is asserted here is what a player would actually be told.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import Any

from evaluators.runtime import Result, score_file

CASES = Path(__file__).resolve().parents[2] / "cases"

# What must never reach a player: Python internals or the location of hidden files.
_INTERNALS = re.compile(r"Traceback|File \"|Error:|hidden/|evaluator\.py|/work/|\.venv")


def case_dir(slug: str) -> Path:
    return CASES / slug


def read_rows(path: Path) -> list[dict[str, str]]:
    """A CSV deliverable as text rows, exactly as a player's file would hold them."""
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def write_rows(path: Path, rows: list[dict[str, Any]], columns: list[str]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return path


def score_rows(
    case: Path, rows: list[dict[str, Any]], columns: list[str], folder: Path, name: str = "file"
) -> Result:
    """Write ``rows`` as a deliverable in ``folder`` and score it like an upload."""
    return score_file(case, write_rows(folder / f"{name}.csv", rows, columns))


def assert_player_safe(result: Result) -> None:
    """Nothing a player sees quotes code, a traceback or a hidden path."""
    shown = json.dumps(result.to_player_dict(), default=str)
    assert not _INTERNALS.search(shown), shown


def rules_broken(result: Result) -> dict[str, dict[str, Any]]:
    """The violations of an invalid, constraint-stopped result, by rule key."""
    assert result.valid is False
    assert result.score == 0.0
    assert result.error_kind == "constraint", (result.error_kind, result.error_message)
    assert_player_safe(result)
    return {violation["rule"]: violation for violation in result.violations}


def only_rule_broken(result: Result, rule: str) -> dict[str, Any]:
    """The single violation of a result that breaks exactly ``rule`` and nothing else."""
    broken = rules_broken(result)
    assert list(broken) == [rule], broken
    return broken[rule]


def fatal_message(result: Result) -> str:
    """The business-worded reason an unassessable deliverable was refused."""
    assert result.valid is False
    assert result.score == 0.0
    assert result.error_kind == "fatal", (result.error_kind, result.error_message)
    assert result.violations == []
    assert_player_safe(result)
    assert result.error_message
    return result.error_message


def assert_schema_error_names_the_column(result: Result, wrong: str, right: str) -> None:
    """A misspelt header stops at the format check, naming line 1 and both columns."""
    assert result.valid is False
    assert result.error_kind == "schema"
    assert result.raw_value is None
    message = result.error_message or ""
    assert f"line 1: unexpected column `{wrong}`" in message
    assert f"did you mean `{right}`" in message
    assert f"line 1: missing column `{right}`" in result.format_errors
    assert_player_safe(result)
