from __future__ import annotations

import pytest

from judging.base import Target, Unit, split_units, targets_from_gt, units_from_messages


def test_a_message_is_split_after_every_question_mark() -> None:
    assert split_units("Is it UTC? And the efficiency - round trip?") == [
        "Is it UTC?",
        "And the efficiency - round trip?",
    ]


def test_a_message_without_a_question_mark_is_one_unit() -> None:
    assert split_units("Tell me the warranty limits.") == ["Tell me the warranty limits."]


def test_text_after_the_last_question_mark_is_no_unit() -> None:
    assert split_units("Is it UTC? I assume so.") == ["Is it UTC?"]


def test_empty_pieces_and_repeated_marks_are_dropped() -> None:
    assert split_units("What?? Really?  ") == ["What?", "Really?"]
    assert split_units("   ") == []


def test_units_are_numbered_from_one_across_the_run_and_keep_their_turn() -> None:
    units = units_from_messages([(1, "A? B?"), (2, "No question here"), (3, "C?")])
    assert units == [
        Unit(index=1, turn=1, text="A?"),
        Unit(index=2, turn=1, text="B?"),
        Unit(index=3, turn=2, text="No question here"),
        Unit(index=4, turn=3, text="C?"),
    ]


def test_a_message_with_nothing_to_ask_adds_no_unit() -> None:
    assert units_from_messages([(1, "  "), (2, "Is it UTC?")]) == [
        Unit(index=1, turn=2, text="Is it UTC?")
    ]


def test_targets_are_read_from_gt_json_in_file_order() -> None:
    gt = {
        "targets": [
            {
                "key": "a",
                "requirement": "Rule A.",
                "triggers": ["Q1?", "Q2?"],
                "domain": "constraint_rule",
                "issue_type": "missing",
                "facts": ["a"],
            },
            {"key": "b", "requirement": "Rule B."},
        ]
    }
    assert targets_from_gt(gt) == [
        Target("a", "Rule A.", ("Q1?", "Q2?"), "constraint_rule", "missing"),
        Target("b", "Rule B.", ()),
    ]


def test_a_repeated_target_key_is_refused() -> None:
    gt = {"targets": [{"key": "a", "requirement": "x"}, {"key": "a", "requirement": "y"}]}
    with pytest.raises(ValueError, match="repeated"):
        targets_from_gt(gt)
