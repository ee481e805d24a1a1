"""The floor's do-nothing deliverable, built from visible files only, against each case's hidden
baseline anchor: equal wherever the baseline is "change nothing", so the floor's rows on the
board score the baseline by construction. The agent never sees ``hidden/``; only this test does.
"""

from __future__ import annotations

import csv
import io
import shutil
import sys
from datetime import datetime
from pathlib import Path

import pytest

from tests.client.conftest import CLIENT_SRC

AGENTS_SRC = CLIENT_SRC.parents[1] / "agents" / "src"
if str(AGENTS_SRC) not in sys.path:
    sys.path.insert(0, str(AGENTS_SRC))

from fde_agents.literal import literal_deliverable  # noqa: E402
from fde_agents.visible import do_nothing  # noqa: E402

ROOT = CLIENT_SRC.parents[2]
CHANGE_NOTHING = ["battery-dispatch", "tutorial-bake-sale", "warehouse-restack"]


def visible_workspace(case: Path, target: Path) -> Path:
    """What a player's workspace holds of the case: the request, the schema, the data."""
    target.mkdir()
    for name in ("instruction.md", "submission_schema.json"):
        shutil.copy(case / name, target / name)
    shutil.copytree(case / "data", target / "data")
    return target


def rows(text: str) -> list[tuple[str, ...]]:
    """Rows with datetimes and numbers normalised, so equal plans compare equal."""
    return [tuple(_plain(cell) for cell in row) for row in csv.reader(io.StringIO(text))][1:]


def _plain(cell: str) -> str:
    for parse in (float, datetime.fromisoformat):
        try:
            return str(parse(cell))  # type: ignore[operator]
        except ValueError:
            continue
    return cell


@pytest.mark.parametrize("slug", CHANGE_NOTHING)
def test_the_floor_builds_the_baseline_from_the_visible_files(slug: str, tmp_path: Path) -> None:
    case = ROOT / "cases" / slug
    name, content = do_nothing(visible_workspace(case, tmp_path / "ws"))
    baseline = (case / "hidden" / "anchors" / "baseline.csv").read_text()
    assert name == "deliverable.csv"
    assert content.splitlines()[0] == baseline.splitlines()[0]  # the schema's header
    assert rows(content) == rows(baseline)


def test_where_the_baseline_needs_a_hidden_rule_the_floor_scores_every_visible_key(
    tmp_path: Path,
) -> None:
    """credit-default's baseline scores only the in-scope products (a hidden rule) at the
    portfolio rate; the floor cannot know the scope, so it lists every applicant of test.csv,
    which the evaluator refuses: the floor is at or below the baseline, never above."""
    case = ROOT / "cases" / "credit-default"
    _, content = do_nothing(visible_workspace(case, tmp_path / "ws"))
    with (case / "data" / "test.csv").open() as handle:
        applicants = [row["applicant_id"] for row in csv.DictReader(handle)]
    assert [r[0] for r in rows(content)] == applicants


def test_the_literal_recipe_reads_the_request_word_for_word(tmp_path: Path) -> None:
    case = ROOT / "tests" / "fixtures" / "cases" / "tiny-knapsack"
    content, how = literal_deliverable(visible_workspace(case, tmp_path / "ws"), "tiny-knapsack")
    assert "literal reading" in how
    with (case / "data" / "items.csv").open() as handle:
        items = {row["item_id"]: row for row in csv.DictReader(handle)}
    chosen = [r[0] for r in rows(content)]
    assert sum(float(items[i]["weight_kg"]) for i in chosen) <= 15  # the stated limit, per line
    assert "I07" in chosen  # the 150 EUR pan: price, not margin, is what "earn" reads as


def test_a_case_without_a_recipe_gets_the_do_nothing_deliverable(tmp_path: Path) -> None:
    workspace = visible_workspace(ROOT / "cases" / "warehouse-restack", tmp_path / "ws")
    content, how = literal_deliverable(workspace, "warehouse-restack")
    assert "no literal recipe" in how and content == do_nothing(workspace)[1]
