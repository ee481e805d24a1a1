from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.judge_agreement import main

GT = {
    "targets": [
        {
            "key": "weights_in_pounds",
            "requirement": "The weight column of orders.csv is in pounds, not kilograms.",
            "triggers": [
                "What unit is the weight column in orders.csv - kilograms or pounds?",
                "Is the order weight in lb?",
            ],
        },
        {
            "key": "depot_closed_sunday",
            "requirement": "The depot is closed on Sundays: no route may start on a Sunday.",
            "triggers": ["Is the depot open on Sundays?", "Can routes start on a Sunday?"],
        },
    ]
}


def write_case(tmp_path: Path, items: list[dict[str, object]]) -> list[str]:
    hidden = tmp_path / "cases" / "toy" / "hidden"
    (hidden / "probes").mkdir(parents=True)
    (hidden / "gt.json").write_text(json.dumps(GT))
    (hidden / "customer.json").write_text(json.dumps({"facts": []}))
    (hidden / "probes" / "coverage.json").write_text(json.dumps({"case": "toy", "items": items}))
    return ["--cases", str(tmp_path / "cases"), "--verbose"]


def item(target: str, question: str, covered: bool, split: str = "test") -> dict[str, object]:
    return {
        "target": target,
        "questions": [question],
        "covered": covered,
        "note": "test",
        "split": split,
    }


def test_the_bench_passes_when_the_judge_agrees_with_the_labels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = write_case(
        tmp_path,
        [
            item("weights_in_pounds", "Is the weight column in orders.csv in pounds?", True),
            item("weights_in_pounds", "Where is the depot?", False),
            item("depot_closed_sunday", "Can a route start on a Sunday?", True),
            item("depot_closed_sunday", "Is the order weight in lb?", False),
            item("depot_closed_sunday", "Can a route start on a Sunday?", True, "dev"),
        ],
    )
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "toy test" in out and "agreement=100.0%" in out and "kappa=1.000" in out
    assert "PASS" in out


def test_the_bench_fails_and_lists_dev_disagreements(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = write_case(
        tmp_path,
        [
            item("weights_in_pounds", "Where is the depot?", True, "dev"),
            item("depot_closed_sunday", "Is the depot open on Sundays?", False, "dev"),
            item("weights_in_pounds", "Where is the depot?", True),
            item("depot_closed_sunday", "Is the depot open on Sundays?", False),
        ],
    )
    assert main(args) == 1
    out = capsys.readouterr().out
    assert out.count("MISSED      weights_in_pounds") == 1  # the dev one; test stays hidden
    assert "FALSE COVER depot_closed_sunday" in out
    assert "FAIL" in out


def test_one_writers_items_are_scored_alone_for_a_held_out_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = write_case(
        tmp_path,
        [
            item("weights_in_pounds", "Is the weight column in orders.csv in pounds?", True, "dev"),
            item("depot_closed_sunday", "Can a route start on a Sunday?", True, "dev"),
        ],
    )
    probes = tmp_path / "cases" / "toy" / "hidden" / "probes"
    later = [item("weights_in_pounds", "Where is the depot?", True, "dev")]
    (probes / "coverage.writer9.json").write_text(json.dumps({"case": "toy", "items": later}))

    assert main([*args, "--half", "dev", "--writer", "writer9", "--aggregate"]) == 1
    out = capsys.readouterr().out
    assert "n=   1" in out and "[writer9]" in out and "all dev" in out

    assert main([*args, "--half", "dev", "--except-writer", "writer9"]) == 0
    out = capsys.readouterr().out
    assert "n=   2" in out and "agreement=100.0%" in out

    assert main([*args, "--half", "dev", "--writer", "writer1"]) == 0
    assert "n=   2" in capsys.readouterr().out


def test_the_customer_probe_sets_read_as_label_items(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = write_case(tmp_path, [])
    questions = [
        {"text": "Is the order weight in lb?", "expect": ["weights_in_pounds"], "split": "dev"},
        {"text": "Where is the depot?", "expect": [], "kind": "near_miss", "split": "dev"},
        {
            "text": "Who drives on Sundays?",
            "expect": [],
            "kind": "near_miss",
            "near": "depot_closed_sunday",
            "split": "dev",
        },
        {"text": "Can routes start on a Sunday?", "expect": ["depot_closed_sunday"]},
    ]
    probes = tmp_path / "cases" / "toy" / "hidden" / "probes"
    (probes / "questions.json").write_text(json.dumps({"questions": questions}))
    assert main([*args, "--half", "dev", "--questions"]) == 0
    out = capsys.readouterr().out
    # two rule pairs and the near miss that names its target; the one without `near` is no item
    assert "n=   3" in out and "agreement=100.0%" in out
