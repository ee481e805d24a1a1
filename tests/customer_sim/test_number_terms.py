"""``#`` in a pattern term stands for any number: a scenario names a figure in a column's unit
("import at 550 kW") instead of the rule's words."""

from __future__ import annotations

import pytest

from customer_sim.patterns import TermIndex, parse_pattern, strength, tokens_of

PATTERN = parse_pattern({"asks": [["toll*", "# t|# tonne*", "truck*|lorr*"]]})
INDEX = TermIndex(PATTERN.terms())


def fires(text: str) -> bool:
    return bool(strength(PATTERN, INDEX.present(tokens_of(text))))


@pytest.mark.parametrize(
    "text",
    [
        "what toll does a truck at 38 t pay?",
        "a lorry loaded to 40.5 tonnes - how much toll?",
        "toll for a 12t truck",  # number and unit written together
    ],
)
def test_a_figure_in_the_unit_fills_a_number_term(text: str) -> None:
    assert fires(text)


@pytest.mark.parametrize(
    "text",
    [
        "what toll does a truck pay per t?",  # the unit without a figure
        "what toll does a truck pay on route 38?",  # a figure without the unit
        "toll for trucks: t 38?",  # unit before the figure
    ],
)
def test_a_number_term_needs_the_figure_before_its_unit(text: str) -> None:
    assert not fires(text)


def test_a_glued_figure_is_read_as_number_and_unit() -> None:
    assert tokens_of("550kW at 06:00") == ["550", "kw", "at", "06", "00"]
    assert tokens_of("pallet P00038, stack C03-10") == ["pallet", "p00038", "stack", "c03", "10"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("load_kw >= 0", ["load", "kw", "at", "least", "0"]),
        ("fill \u2264 0.8", ["fill", "at", "most", "0.8"]),
        ("is stock < 0 possible", ["is", "stock", "below", "0", "possible"]),
        ("weight > 20", ["weight", "above", "20"]),
        # an arrow or a tag is no comparison
        ("x -> y", ["x", "y"]),
        ("<b>x</b>", ["b", "x", "b"]),
    ],
)
def test_a_comparison_sign_reads_as_its_words(text: str, words: list[str]) -> None:
    assert tokens_of(text) == words


def test_a_constraint_written_as_a_formula_meets_its_prose_pattern() -> None:
    pattern = parse_pattern({"asks": [["stock|inventory", "at least 0|at least zero|below 0"]]})
    index = TermIndex(pattern.terms())
    assert strength(pattern, index.present(tokens_of("stock >= 0 enforced?")))
    assert strength(pattern, index.present(tokens_of("may stock go < 0?")))
    assert not strength(pattern, index.present(tokens_of("stock = 0?")))


def test_lots_of_means_many_but_two_lots_are_lots() -> None:
    assert tokens_of("that saves lots of moves") == ["saves", "many", "moves"]
    assert tokens_of("a lot of boxes") == ["many", "boxes"]
    assert "lots" in tokens_of("two lots of the same item")
