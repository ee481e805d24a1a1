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
    probes = cases / "bakery-routes" / "hidden" / "probes"
    probes.mkdir()
    (probes / "questions.json").write_text(json.dumps({"questions": questions}))
    return cases


def probe(text: str, expect: list[str], kind: str, split: str = "test") -> dict[str, object]:
    return {"id": text[:10], "text": text, "expect": expect, "kind": kind, "split": split}


def test_it_passes_a_case_that_meets_the_targets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = copy_case(
        tmp_path,
        [
            probe("How many trays fit in a van?", ["tgt_small_vans"], "direct"),
            probe(
                "Are windows hard? How many trays fit in a van?",
                ["tgt_windows_hard_for_supermarkets", "tgt_small_vans"],
                "multi",
            ),
            probe("Where is the depot?", [], "near_miss"),
            probe("How many trays fit in a van?", ["tgt_small_vans"], "direct", "dev"),
        ],
    )
    assert bench.main(["--cases", str(cases)]) == 0
    out = capsys.readouterr().out
    assert "| bakery-routes | test | 100.0% (3/3) | 0.0% (0/1) | n/a | 0 |" in out
    assert "| bakery-routes | dev | 100.0% (1/1) |" in out


def test_it_fails_and_lists_misses_and_leaks_of_the_dev_half_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = copy_case(
        tmp_path,
        [
            probe(
                "How strict are the customers' time windows?", ["tgt_small_vans"], "direct", "dev"
            ),
            # van_capacity is Priya's designed misconception: its answer is not a wrong answer.
            probe(
                "How many trays fit in a van?",
                ["tgt_windows_hard_for_supermarkets"],
                "direct",
                "dev",
            ),
            probe("What is the capacity of each van?", [], "near_miss", "dev"),
            probe("Are the delivery windows hard or soft?", [], "near_miss", "test"),
        ],
    )
    assert bench.main(["--cases", str(cases), "--verbose"]) == 1
    out = capsys.readouterr().out
    assert "| bakery-routes | dev | 0.0% (0/2) | 100.0% (1/1) | n/a | 1 | 1 |" in out
    assert 'WRONG "How strict are the customers\' time windows?"' in out
    assert "MISCONCEPTION 'How many trays fit in a van?'" in out
    assert "LEAK (near_miss) 'What is the capacity of each van?' -> ['tgt_small_vans']" in out
    assert "Are the delivery windows" not in out  # test failures stay hidden while tuning
    assert bench.main(["--cases", str(cases), "--reveal-test"]) == 1
    assert "Are the delivery windows" in capsys.readouterr().out


def test_it_fails_when_there_is_nothing_to_benchmark(tmp_path: Path) -> None:
    assert bench.main(["--cases", str(tmp_path)]) == 1


def test_a_writer_is_scored_apart_on_the_dev_half(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = copy_case(
        tmp_path,
        [probe("How many trays fit in a van?", ["tgt_small_vans"], "direct", "dev")],
    )
    later = [probe("What is the capacity of each van?", [], "near_miss", "dev")]
    probes = cases / "bakery-routes" / "hidden" / "probes"
    (probes / "questions.writer9.json").write_text(json.dumps({"questions": later}))
    bench.main(["--cases", str(cases), "--half", "dev", "--writer", "writer9"])
    out = capsys.readouterr().out
    assert "| bakery-routes | dev | n/a |" in out  # no rule item of writer9
    bench.main(["--cases", str(cases), "--half", "dev", "--exclude-writer", "writer9"])
    assert "| bakery-routes | dev | 100.0% (1/1) | n/a |" in capsys.readouterr().out
    bench.main(["--cases", str(cases), "--half", "dev", "--writer", "writer1"])
    assert "| bakery-routes | dev | 100.0% (1/1) | n/a |" in capsys.readouterr().out
    with pytest.raises(SystemExit):  # a writer is measured on the dev half only
        bench.main(["--cases", str(cases), "--writer", "writer9"])


def test_no_vetoes_shows_what_the_vetoes_catch(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    case = tmp_path / "cases" / "archive-move"
    shutil.copytree(FIXTURES / "archive-move", case)
    gt_path = case / "hidden" / "gt.json"
    gt = json.loads(gt_path.read_text())
    gt["targets"][0]["match"]["unless"] = ["lift"]  # a veto written for one known near miss
    gt_path.write_text(json.dumps(gt))
    (case / "hidden" / "probes").mkdir()
    questions = [
        probe("Can a 25 kg box go on the top shelf?", ["heavy_boxes_low"], "direct", "dev"),
        probe("Does the lift take heavy boxes up to the top level?", [], "near_miss", "dev"),
    ]
    (case / "hidden" / "probes" / "questions.json").write_text(json.dumps({"questions": questions}))
    args = ["--cases", str(tmp_path / "cases"), "--half", "dev"]
    bench.main(args)
    assert "| archive-move | dev | 100.0% (1/1) | 0.0% (0/1) |" in capsys.readouterr().out
    bench.main([*args, "--no-vetoes"])
    assert "| archive-move | dev | 100.0% (1/1) | 100.0% (1/1) |" in capsys.readouterr().out


def _archive_case(tmp_path: Path, questions: list[dict[str, object]]) -> Path:
    cases = tmp_path / "cases"
    shutil.copytree(FIXTURES / "archive-move", cases / "archive-move")
    probes = cases / "archive-move" / "hidden" / "probes"
    probes.mkdir()
    (probes / "questions.json").write_text(json.dumps({"questions": questions}))
    return cases


def test_the_miss_proxy_counts_what_answers_when_the_target_cannot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = _archive_case(
        tmp_path,
        [
            # with the closing rule unable to fire, the opening temperature would answer
            # ("midnight" starts a day); the end named, the customer asks back instead
            probe(
                "What temperature must the room be at midnight for the handover?",
                ["room_cool_at_close"],
                "direct",
                "dev",
            ),
            # the weights' source answers a question whose rule cannot fire: counted
            probe(
                "Where do the weights come from, and can a heavy box go on the top shelf?",
                ["heavy_boxes_low"],
                "multi",
                "dev",
            ),
            probe("Can a 25 kg box go up top?", ["heavy_boxes_low"], "terse", "test"),
        ],
    )
    bench.main(["--cases", str(cases), "--half", "dev", "--miss-proxy", "--verbose"])
    out = capsys.readouterr().out
    assert "| archive-move | 2 | 50.0% (1/2) | 0 | 1 |" in out
    assert "OTHER 'Where do the weights come from" in out
    assert "Can a 25 kg box" not in out  # the test half is never asked


def test_the_miss_proxy_needs_the_dev_half(tmp_path: Path) -> None:
    cases = _archive_case(
        tmp_path, [probe("Can a 25 kg box go up top?", ["heavy_boxes_low"], "terse")]
    )
    with pytest.raises(SystemExit):
        bench.main(["--cases", str(cases), "--miss-proxy"])


def test_a_rule_question_put_to_someone_who_does_not_hold_it_is_a_miss_pointed_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = copy_case(
        tmp_path,
        [
            probe(
                "Priya, can nut orders share a van with nut-free ones?", ["tgt_nuts"], "addressed"
            ),
            probe("Tom, can nut orders share a van with nut-free ones?", ["tgt_nuts"], "addressed"),
            probe("What time do the shops open?", ["tgt_nuts"], "indirect"),
        ],
    )
    gt_path = cases / "bakery-routes" / "hidden" / "gt.json"
    gt = json.loads(gt_path.read_text())
    gt["targets"].append({**gt["targets"][0], "key": "tgt_nuts", "facts": ["nut_separation"]})
    gt_path.write_text(json.dumps(gt))
    assert bench.main(["--cases", str(cases), "--reveal-test"]) == 1
    out = capsys.readouterr().out
    # Priya's miss is pointed on to Tom (the rule was recognised); the third is a plain miss
    assert "| bakery-routes | test | 33.3% (1/3) | n/a | n/a | 0 | 0 | 1 |" in out
    assert "POINTED ON 'Priya, can nut orders share a van" in out
    assert "MISS 'What time do the shops open?'" in out


def test_by_writer_shows_each_writers_aggregates_and_the_standard_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = copy_case(
        tmp_path,
        [
            probe("How many trays fit in a van?", ["tgt_small_vans"], "direct"),
            probe("Where is the depot?", ["tgt_small_vans"], "direct"),
        ],
    )
    second = {"questions": [probe("What is the van capacity in trays?", ["tgt_small_vans"], "d")]}
    probes_dir = cases / "bakery-routes" / "hidden" / "probes"
    (probes_dir / "questions.writer2.json").write_text(json.dumps(second))
    bench.main(["--cases", str(cases), "--half", "test", "--by-writer"])
    out = capsys.readouterr().out
    assert "| bakery-routes | test | writer1 | 50.0% (1/2) | n/a | 0 | 0 |" in out
    assert "| bakery-routes | test | writer2 | 100.0% (1/1) | n/a | 0 | 0 |" in out
    assert "bakery-routes test: hit rate 66.7% of 3 pairs, standard error 27.2%" in out
    assert "Where is the depot" not in out  # aggregates only, never an item's text
