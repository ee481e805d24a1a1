"""The lexical matcher on its own: what counts as asking for a fact."""

from __future__ import annotations

import pytest

from customer_sim.matching import (
    MATCHERS,
    FactExamples,
    LexicalMatcher,
    Match,
    Matcher,
    build_matcher,
    register_matcher,
)

FACTS = [
    FactExamples(
        "batch_is_mixed",
        (
            "Does a stack holding two batches of the same SKU count as mixed?",
            "Is a different lot of the same product a different product type?",
            "Do batches matter when you say one product type?",
            "Can two lots of one SKU share a stack?",
            "Is mixing batches in a stack allowed?",
        ),
        ("batch", "lot"),
    ),
    FactExamples(
        "max_height",
        (
            "How high can a stack be?",
            "What is the maximum number of pallets per stack?",
            "Is there a height limit for stacks?",
            "How many pallets can be stacked on top of each other?",
            "What is the stack height limit?",
        ),
        ("high", "height", "tall", "how many pallet", "max", "limit"),
    ),
]


@pytest.fixture(scope="module")
def matcher() -> LexicalMatcher:
    return LexicalMatcher(FACTS)


def keys(matches: list[Match]) -> list[str]:
    return [m.key for m in matches]


def test_a_paraphrase_matches_its_fact(matcher: LexicalMatcher) -> None:
    assert keys(matcher.match("If I put lot A and lot B of one SKU together, is it mixed?")) == [
        "batch_is_mixed"
    ]
    assert keys(matcher.match("what's the max stack height")) == ["max_height"]


def test_the_gate_blocks_a_question_without_any_required_stem(matcher: LexicalMatcher) -> None:
    # Similar words, but no "batch"/"lot": the question is about SKUs in general.
    question = "Does a stack holding two different SKUs count as mixed?"
    assert "batch_is_mixed" not in keys(matcher.scores(question))
    assert "batch_is_mixed" not in keys(matcher.match(question))


def test_an_off_topic_question_matches_nothing(matcher: LexicalMatcher) -> None:
    assert matcher.match("What is the weather like in Rotterdam today?") == []
    assert matcher.match("") == []


def test_unknown_words_dilute_a_single_shared_word(matcher: LexicalMatcher) -> None:
    short = matcher.scores("stack height limit")[0].score
    diluted = matcher.scores("who repainted the stack height limit signs in the canteen")[0]
    assert diluted.key == "max_height"
    assert diluted.score < short


def test_scores_are_sorted_and_deterministic(matcher: LexicalMatcher) -> None:
    first = matcher.scores("how many pallets per stack, and can lots be mixed")
    assert first == matcher.scores("how many pallets per stack, and can lots be mixed")
    assert [m.score for m in first] == sorted((m.score for m in first), reverse=True)


def test_clauses_joined_by_and_can_each_disclose(matcher: LexicalMatcher) -> None:
    found = matcher.match(
        "What is the maximum stack height and can two lots of one SKU share a stack"
    )
    assert sorted(keys(found)) == ["batch_is_mixed", "max_height"]


def test_another_matcher_can_be_registered_by_name() -> None:
    class Everything(Matcher):
        def __init__(self, facts: list[FactExamples]) -> None:
            self.facts = facts

        def scores(self, unit: str) -> list[Match]:
            return [Match(f.key, 1.0) for f in self.facts]

        def match(self, unit: str) -> list[Match]:
            return self.scores(unit)

    register_matcher("everything", lambda facts: Everything(list(facts)))
    try:
        built = build_matcher(FACTS, "everything")
        assert keys(built.match("anything")) == ["batch_is_mixed", "max_height"]
    finally:
        del MATCHERS["everything"]
    with pytest.raises(ValueError, match="unknown matcher"):
        build_matcher(FACTS, "everything")


def test_touching_the_topic_with_words_of_its_own_is_not_asking(
    matcher: LexicalMatcher,
) -> None:
    # Shares "stack" and "height" with max_height, but asks about something else.
    question = "Who painted the stack height markings on the warehouse walls?"
    assert matcher.scores(question)[0].key == "max_height"
    assert matcher.match(question) == []


def test_a_short_question_made_of_the_facts_words_is_asking(matcher: LexicalMatcher) -> None:
    assert keys(matcher.match("stack height limit?")) == ["max_height"]
    assert keys(matcher.match("mixing lots?")) == ["batch_is_mixed"]
