"""Finding the run: ``--run``, ``--workspace``, or ``.fde/run.json`` in the cwd or a parent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fde_client.errors import UsageError
from fde_client.workspace import (
    find_run_file,
    recorded_deliverable,
    resolve_run,
)


def make_workspace(folder: Path, run_id: str = "run-1", **extra: object) -> Path:
    (folder / ".fde").mkdir(parents=True)
    record = {"run_id": run_id, "server": "http://srv:9", **extra}
    (folder / ".fde" / "run.json").write_text(json.dumps(record))
    return folder


def test_it_finds_the_run_file_in_the_current_folder(tmp_path: Path) -> None:
    make_workspace(tmp_path)
    ref = resolve_run(None, None, tmp_path)
    assert (ref.run_id, ref.server, ref.workspace) == ("run-1", "http://srv:9", tmp_path.resolve())


def test_it_finds_the_run_file_from_a_subfolder(tmp_path: Path) -> None:
    make_workspace(tmp_path)
    deep = tmp_path / "data" / "scratch"
    deep.mkdir(parents=True)
    assert resolve_run(None, None, deep).run_id == "run-1"


def test_the_nearest_workspace_wins_when_they_are_nested(tmp_path: Path) -> None:
    make_workspace(tmp_path, "outer")
    make_workspace(tmp_path / "inner", "inner")
    assert resolve_run(None, None, tmp_path / "inner").run_id == "inner"


def test_an_explicit_run_id_wins_over_the_workspace(tmp_path: Path) -> None:
    make_workspace(tmp_path)
    ref = resolve_run("explicit", None, tmp_path)
    assert (ref.run_id, ref.server) == ("explicit", None)


def test_workspace_option_reads_that_folder_whatever_the_cwd(tmp_path: Path) -> None:
    make_workspace(tmp_path / "ws", "from-ws")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert resolve_run(None, tmp_path / "ws", elsewhere).run_id == "from-ws"


def test_workspace_option_on_a_plain_folder_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="not an fde workspace"):
        resolve_run(None, tmp_path, tmp_path)


def test_no_run_anywhere_is_a_usage_error_that_says_what_to_do(tmp_path: Path) -> None:
    assert find_run_file(tmp_path) is None
    with pytest.raises(UsageError, match="pass --run ID") as caught:
        resolve_run(None, None, tmp_path)
    assert caught.value.exit_code == 2


@pytest.mark.parametrize("content", ["{not json", "[]", '{"server": "http://x"}'])
def test_a_damaged_run_file_is_reported_not_crashed_on(tmp_path: Path, content: str) -> None:
    (tmp_path / ".fde").mkdir()
    (tmp_path / ".fde" / "run.json").write_text(content)
    with pytest.raises(UsageError):
        resolve_run(None, None, tmp_path)


def test_the_recorded_deliverable_name_is_used_when_it_is_a_plain_name(tmp_path: Path) -> None:
    make_workspace(tmp_path, deliverable="deliverable.json")
    assert recorded_deliverable(tmp_path) == "deliverable.json"


@pytest.mark.parametrize("name", ["../../etc/passwd", "/etc/passwd", "", ".."])
def test_a_tampered_deliverable_name_falls_back_to_the_default(tmp_path: Path, name: str) -> None:
    make_workspace(tmp_path, deliverable=name)
    assert recorded_deliverable(tmp_path) == "deliverable.csv"
