from __future__ import annotations

import pytest

from judging.agreement import agreement, cohen_kappa


def test_kappa_matches_a_hand_computed_example() -> None:
    # 10 items. Both "yes": 4, both "no": 3, first yes/second no: 2, first no/second yes: 1.
    # p_o = 7/10 = 0.7. First says yes 6/10, second 5/10.
    # p_e = 0.6 * 0.5 + 0.4 * 0.5 = 0.5, so kappa = (0.7 - 0.5) / (1 - 0.5) = 0.4.
    first = [True] * 4 + [False] * 3 + [True] * 2 + [False] * 1
    second = [True] * 4 + [False] * 3 + [False] * 2 + [True] * 1
    assert agreement(first, second) == pytest.approx(0.7)
    assert cohen_kappa(first, second) == pytest.approx(0.4)


def test_kappa_of_a_second_hand_computed_example() -> None:
    # 50 items: yes/yes 20, yes/no 5, no/yes 10, no/no 15 (Wikipedia-style table, own numbers).
    # p_o = 35/50 = 0.7; first yes 25/50, second yes 30/50;
    # p_e = 0.5 * 0.6 + 0.5 * 0.4 = 0.5; kappa = 0.2 / 0.5 = 0.4.
    first = [True] * 25 + [False] * 25
    second = [True] * 20 + [False] * 5 + [True] * 10 + [False] * 15
    assert cohen_kappa(first, second) == pytest.approx(0.4)


def test_perfect_agreement_is_kappa_one_and_chance_level_is_zero() -> None:
    labels = [True, False, True, False]
    assert cohen_kappa(labels, labels) == 1.0
    assert cohen_kappa([True, True, False, False], [True, False, True, False]) == 0.0


def test_raters_who_always_say_the_same_single_label_agree_fully() -> None:
    assert cohen_kappa([True, True], [True, True]) == 1.0
    assert cohen_kappa([True, True], [False, False]) == 0.0


def test_label_lists_of_different_length_are_refused() -> None:
    with pytest.raises(ValueError):
        cohen_kappa([True], [True, False])
