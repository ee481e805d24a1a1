"""Follow-ups read with the sentences before them: the shared rule (``customer_sim.context``)
and the customer's use of it. The fixture's ``cream_chill_limit`` needs a cream product and a
time out of the cold in one reading."""

from __future__ import annotations

import pytest

from customer_sim import context
from customer_sim.scripted import ScriptedCustomer


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("in kg?", True),
        ("How long at most?", True),
        ("can we fill with 0?", True),
        ("Am I undercounting the work?", True),
        ("What's the depot address?", False),  # names a subject of its own
        ("Which driver takes van three?", False),
        ("```\nload = 3\n```", False),
    ],
)
def test_a_short_ask_naming_nothing_has_no_subject(text: str, expected: bool) -> None:
    assert context.subjectless(text) is expected


def test_a_follow_up_reaches_over_a_statement_but_a_pronoun_stops_at_a_question() -> None:
    def backs(texts: list[str]) -> list[tuple[int, bool]]:
        return [(r.back, r.strict) for r in context.readings(texts, len(texts) - 1)]

    assert backs(["Cream goes on van 3.", "Tom drives it.", "Is that ok?"]) == [
        (1, False),
        (0, False),
    ]
    assert backs(["Cream goes on van 3.", "Who drives van 3?", "Does that van have a fridge?"]) == [
        (1, False)
    ]
    # An ask that names nothing at all still looks past the question for its subject, but
    # must then name the rest of the rule itself (a strict reading).
    assert backs(["Cream goes on van 3.", "Who drives van 3?", "For how long?"]) == [
        (1, True),
        (0, True),
    ]
    # A question with a subject of its own is read alone.
    assert backs(["Cream goes on van 3.", "Which driver takes van three?"]) == []


def test_credit_goes_to_the_sentence_that_asks_on_its_own() -> None:
    def fires(text: str) -> bool:
        return "cream" in text.lower() and "long" in text.lower()

    def touches(text: str) -> bool:
        return "cream" in text.lower() or "long" in text.lower()

    texts = ["How long can cream stay out?", "ok?", "Cream goes on van 3.", "How long?"]
    assert context.credited(texts, fires, touches) == [True, False, False, True]
    # "Where is it kept?" names nothing of the rule: no credit from the sentence before.
    texts = ["Cream stays out for a long time.", "Where is it kept?"]
    assert context.credited(texts, fires, touches) == [True, False]


@pytest.mark.parametrize(
    "message",
    [
        "The cream slices go on van three. How long at most?",
        # the subject two sentences back, nothing pointing at it in between
        "The cream slices go on van three. Tom is driving. How long at most?",
        "Our cream slices ride in the third van. The long round takes three hours. OK?",
    ],
)
def test_a_follow_up_without_a_subject_is_read_with_the_sentence_naming_it(
    customer: ScriptedCustomer, message: str
) -> None:
    assert customer.reply(message).disclosed == ["cream_chill_limit"]


def test_a_bare_follow_up_must_ask_part_of_the_rule_itself(customer: ScriptedCustomer) -> None:
    # The plan breaks the rule, but the follow-up asks about something else.
    message = "Our cream slices sit unrefrigerated for two hours. Where is the depot?"
    assert customer.reply(message).disclosed == []


def test_a_pronoun_follow_up_refers_to_the_nearest_question(customer: ScriptedCustomer) -> None:
    message = "The cream slices go on van three. Which driver takes van three? Is that long?"
    assert customer.reply(message).disclosed == []


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # an adverb between the conjunction and the question word
        (
            "When does the first van go out, and exactly how long may cream stay unchilled?",
            ["When does the first van go out?", "how long may cream stay unchilled?"],
        ),
        # "whether" opens an indirect question of its own
        (
            "Can you tell me when the vans leave, and whether nuts share a van with other goods?",
            ["Can you tell me when the vans leave?", "whether nuts share a van with other goods?"],
        ),
    ],
)
def test_a_second_question_after_and_is_cut_off(message: str, expected: list[str]) -> None:
    from customer_sim.segments import pieces

    assert pieces(message) == expected


def test_terse_list_items_ask_when_one_item_of_the_list_asks(customer: ScriptedCustomer) -> None:
    # No item has a question mark; only the third opens with a question word.
    message = "1) cream time outside fridge 2) nuts in the same van 3) who signs the plan off"
    assert customer.reply(message).disclosed == ["cream_chill_limit", "nut_separation"]
    # Statements in a list stay context.
    statement = "1) Cream goes on van 3. 2) who signs the plan off"
    assert customer.reply(statement).disclosed == []


def test_a_verdict_after_a_list_of_assumptions_asks_about_each(
    customer: ScriptedCustomer,
) -> None:
    message = (
        "I take it the cream slices can ride unrefrigerated all morning, and that nuts can go "
        "in any van. Right?"
    )
    assert sorted(customer.reply(message).disclosed) == ["cream_chill_limit", "nut_separation"]
    # each assumption is read with the verdict on its own, so one does not veto the other
    assert context.reading_texts(["A x.", "B y.", "Right?"], 0, 2) == [
        "A x. Right?",
        "A x. Is that ok?",
        "A x. B y. Right?",
        "A x. B y. Is that ok?",
    ]


def test_and_that_starts_the_next_assumption() -> None:
    from customer_sim.segments import pieces

    assert pieces("I assume vans leave at five, and that cream rides in van three. Ok?") == [
        "I assume vans leave at five",
        "cream rides in van three.",
        "Ok?",
    ]
    # "and that is" continues the sentence
    assert len(pieces("The cream goes in van 3, and that is the cold one.")) == 1


@pytest.mark.parametrize(
    ("text", "reading"),
    [
        ("metric?", "which metric?"),
        ("target col?", "which target col?"),
        ("metric", None),  # no question mark: a heading, not an ask
        ("is it ok?", None),  # a question of its own
        ("8 tiers?", None),  # a figure asks to check a value, not which one
        ("the cream slices in van three?", None),  # more than a bare noun phrase
    ],
)
def test_a_bare_noun_phrase_question_asks_which_one(text: str, reading: str | None) -> None:
    assert context.terse_reading(text) == reading


def test_the_judge_reads_a_bare_noun_phrase_question_as_which_one() -> None:
    from customer_sim.patterns import parse_pattern
    from judging.base import Unit
    from judging.patterned import covering_units

    pattern = parse_pattern({"asks": [["metric*|kpi", "which|what|how"]]})
    units = [Unit(index=1, turn=1, text="deadline?"), Unit(index=2, turn=1, text="kpi?")]
    assert covering_units(pattern, units) == [2]


@pytest.mark.parametrize(
    ("text", "main"),
    [
        (
            "Can a pallet go under the others, so heavy ones stay low?",
            "Can a pallet go under the others?",
        ),
        ("What if I drop the rows whose score is empty?", "What if I drop the rows?"),
        (
            "Are tiers counted from the floor like the heavy levels?",
            "Are tiers counted from the floor?",
        ),
        ("Is the log in minutes, so I compare like with like?", "Is the log in minutes?"),
        # "like with like" / "like for like" is no comparison clause
        ("Do I compare the two logs like with like?", None),
        ("Is it fine, because the file says so?", None),  # too short to stand alone
        ("How long may cream stay out?", None),
    ],
)
def test_the_main_clause_is_the_ask_without_its_subordinate_clause(
    text: str, main: str | None
) -> None:
    assert context.main_clause(text) == main


def test_a_subordinate_clause_does_not_veto_what_the_main_clause_asks(
    customer: ScriptedCustomer,
) -> None:
    # "nut" vetoes the cream rule, but only in the purpose clause here.
    message = (
        "Can cream slices ride outside the fridge for two hours, so that the nut van has room?"
    )
    assert "cream_chill_limit" in customer.reply(message).disclosed


def test_a_short_conclusion_check_also_asks_about_the_statements_it_draws_on(
    customer: ScriptedCustomer,
) -> None:
    message = "Nuts ride with the bread in van two. So cream can stay outside the fridge, right?"
    assert sorted(customer.reply(message).disclosed) == ["cream_chill_limit", "nut_separation"]
    # a longer question of its own is answered for itself alone
    message = "Nuts ride with the bread in van two. How long can the cream stay out of the fridge?"
    assert customer.reply(message).disclosed == ["cream_chill_limit"]


def test_an_ask_for_a_verdict_in_any_words_reads_as_is_that_ok() -> None:
    def fires(text: str) -> bool:
        return "cream" in text.lower() and " ok?" in text.lower()

    def touches(text: str) -> bool:
        return fires(text)

    plan = "Cream rides out for two hours."
    assert context.credited([plan, "Is that the idea?"], fires, touches) == [False, True]
    assert context.credited([plan, "What you had in mind?"], fires, touches) == [False, True]
    # an open ask wants more, not a verdict
    assert context.credited([plan, "Anything I'm missing?"], fires, touches) == [False, False]


@pytest.mark.parametrize(
    ("text", "rest"),
    [
        (
            "Other than the nut question, how long may cream slices stay out of the fridge?",
            "how long may cream slices stay out of the fridge?",
        ),
        (
            "For van two - nuts aside - how long can the cakes ride unrefrigerated?",
            "For van two how long can the cakes ride unrefrigerated?",
        ),
        (
            "Separate from the nut rule: how long may cream slices stay out of the fridge?",
            "how long may cream slices stay out of the fridge?",
        ),
        (
            "Leaving aside the depot hours, can nut orders share a van?",
            "can nut orders share a van?",
        ),
        ("Besides that, fine?", "Besides that, fine?"),  # nothing left to ask on its own
        ("How long may cream stay out?", "How long may cream stay out?"),
    ],
)
def test_what_an_ask_sets_aside_is_not_what_it_asks(text: str, rest: str) -> None:
    assert context.set_aside(text) == rest


def test_a_rule_set_aside_neither_answers_nor_vetoes(customer: ScriptedCustomer) -> None:
    # "nut" would veto the cream rule and ask the nut rule; set aside, it does neither.
    message = (
        "Apart from keeping nuts in their own van, how long may cream ride outside the fridge?"
    )
    assert customer.reply(message).disclosed == ["cream_chill_limit"]


def test_the_judge_ignores_what_an_ask_sets_aside() -> None:
    from customer_sim.patterns import parse_pattern
    from judging.patterned import asks_for

    nut_rule = parse_pattern({"asks": [["nut*", "van|together|separate"]]})
    assert not asks_for(nut_rule, "Besides the nut vans, when does the first van leave?")
    assert asks_for(nut_rule, "Can nuts share a van with bread?")


def test_a_scenario_statement_with_a_figure_tells_siblings_apart(
    customer: ScriptedCustomer,
) -> None:
    # Alone, the ask names cream and the fridge; the scenario before it puts the cream beside
    # 12 trays of nuts, which is the nut rule's question (and vetoes the cream rule).
    ask = "Can the cream cakes ride alongside them, out of the fridge?"
    message = f"I have 12 trays of nut brittle. {ask}"
    assert customer.reply(message).disclosed == ["nut_separation"]
    # a statement without a figure is context only: the ask alone decides
    message = f"I have trays of nut brittle. {ask}"
    assert customer.reply(message).disclosed == ["cream_chill_limit"]
    # and a question before it is no scenario
    message = f"Do I have 12 trays of nut brittle? {ask}"
    assert "cream_chill_limit" in customer.reply(message).disclosed


@pytest.mark.parametrize(
    ("text", "rest"),
    [
        (
            "Is van two late, like the nut van the driver mentioned, or on time?",
            "Is van two late, or on time?",
        ),
        # an example of what is asked ("like a ...") is part of the ask
        (
            "Is it sorted on purpose, like a balanced set?",
            "Is it sorted on purpose, like a balanced set?",
        ),
    ],
)
def test_a_definite_thing_compared_with_is_not_asked_about(text: str, rest: str) -> None:
    assert context.set_aside(text) == rest


def test_the_judge_does_not_credit_the_rule_an_ask_compares_with() -> None:
    from customer_sim.patterns import parse_pattern
    from judging.patterned import asks_for

    nut_rule = parse_pattern({"asks": [["nut*", "van|together|separate"]]})
    text = "Is the cream van rule strict, like the nut separate-van rule, or a preference?"
    assert not asks_for(nut_rule, text)


def test_the_alternative_an_ask_turns_down_is_not_asked_about() -> None:
    text = "Does the cream limit apply per tray rather than to the whole van?"
    assert context.set_aside(text) == "Does the cream limit apply per tray?"


def test_the_turned_down_alternative_ends_with_its_sentence() -> None:
    # A reading joins a statement and its question; the question after the full stop is asked.
    text = "X054 says the exam board rather than the college. Does that change when it can go?"
    assert context.set_aside(text) == "X054 says the exam board. Does that change when it can go?"
    assert context.set_aside("Cap it at 9.20 rather than 9.50 EUR per kW?") == "Cap it at 9.20?"


def test_a_question_is_read_with_the_statement_after_it_that_describes_its_subject(
    customer: ScriptedCustomer,
) -> None:
    # "Can this go out?" names no cream; the statement after it says what "this" is.
    message = "Can this ride outside the fridge? It's a tray of cream slices."
    assert "cream_chill_limit" in customer.reply(message).disclosed
    # a statement that does not describe back is not read with it
    message = "Can this ride outside the fridge? Cream slices sell well."
    assert "cream_chill_limit" not in customer.reply(message).disclosed


def test_the_judge_reads_a_question_with_the_statement_describing_its_subject() -> None:
    def fires(text: str) -> bool:
        return "cream" in text and "fridge" in text

    texts = ["Can this ride outside the fridge?", "It's a tray of cream slices."]
    assert context.credited(texts, fires, fires)[0]
    texts = ["Can this ride outside the fridge?", "Cream slices sell well."]
    assert context.credited(texts, fires, fires) == [False, False]


def test_a_plan_told_as_steps_is_cut_at_then() -> None:
    from customer_sim.segments import pieces

    plan = "I'd load the cream slices first, then send van 2 back after lunch. Fine?"
    assert pieces(plan) == [
        "I'd load the cream slices first",
        "send van 2 back after lunch.",
        "Fine?",
    ]
    # the "then" of a condition, or inside a question, stays
    assert len(pieces("If van 2 is late, then what happens to the cream?")) == 1
    assert len(pieces("Can I load nuts first, then cream, in one van?")) == 1


def test_a_verdict_after_a_plan_of_steps_asks_about_each_step(customer: ScriptedCustomer) -> None:
    # one step's words ("nut") would veto the other step's rule (cream) if read as one
    message = (
        "I'd keep the cream slices outside the fridge for two hours, then put the nut trays "
        "in van 3 together with the bread. Any problem with that?"
    )
    assert set(customer.reply(message).disclosed) >= {"cream_chill_limit", "nut_separation"}


def test_a_sentence_ending_in_a_decimal_figure_ends_there() -> None:
    from customer_sim.segments import pieces

    assert pieces("Cream was out for 1.5. Is that too long?") == [
        "Cream was out for 1.5.",
        "Is that too long?",
    ]
    # a list number is no decimal
    assert pieces("checks: 1. Cream 2. Nuts") != ["checks: 1.", "Cream 2. Nuts"]


@pytest.mark.parametrize(
    ("text", "refers"),
    [
        ("Can I put it on top?", True),
        ("Can I discharge 500 kW in that quarter-hour?", True),
        ("Is there anything about the file that I should correct for?", False),
        ("Is there a rule for cream?", False),
    ],
)
def test_a_relative_that_or_an_existential_there_does_not_point_back(
    text: str, refers: bool
) -> None:
    assert context.points_back(text) is refers


def test_an_open_ask_to_watch_for_something_reads_back_a_little_further() -> None:
    # "watch for", "careful", "overlooking" ask for a verdict on what was said, like "missing"
    assert context.asks_verdict("Anything I should watch for?")
    assert context.asks_verdict("Anything I need to be careful about with that?")
    # an open ask may run two words past a plain verdict's eight
    assert context.asks_verdict("Anything I need to watch for in the van plan?")
    assert not context.asks_verdict("What should the van plan look like on a normal Monday?")


def test_a_statement_then_what_to_watch_for_asks_about_the_statement(
    customer: ScriptedCustomer,
) -> None:
    reply = customer.reply(
        "Our drivers leave cream cakes in the van for three hours. "
        "Anything I need to watch for in the van plan?"
    )
    assert "cream_chill_limit" in reply.disclosed


@pytest.mark.parametrize(
    "text",
    [
        "Any concerns?",
        "Red flags from your side?",
        "Will that pass?",
        "Is that how you run it?",
        "Makes sense?",
        "yes?",
        "Confirm?",
        "That's conservative, isn't it?",
        "Is that enough?",
    ],
)
def test_concerns_passing_and_how_you_run_it_ask_for_a_verdict(text: str) -> None:
    assert context.asks_verdict(text)


def test_same_like_is_the_comparison_asked_not_one_set_aside() -> None:
    # "the same like our X" asks whether two things match; "like our X" alone only compares
    assert "our depot clock" in context.set_aside(
        "Are the van times the same like our depot clock?"
    )
    assert "depot clock" not in context.set_aside(
        "Can the van leave at six, like our depot clock says?"
    )
    # "the same as the Y" is the comparison asked, too
    asked = "Are the van times the same as the depot clock, hour for hour?"
    assert context.set_aside(asked) == asked


def test_an_ask_naming_the_thing_a_statement_described_is_read_with_it() -> None:
    texts = ["Van V12 has the cream cakes in it.", "Can V12 leave at six?"]
    assert [r.back for r in context.readings(texts, 1)] == [0]
    assert list(context.readings(["Van V12 is blue.", "Can V7 leave at six?"], 1)) == []


def test_an_ask_sets_aside_what_it_names_after_besides_at_its_end() -> None:
    assert context.set_aside("Is there any other rule for vans besides the cream limit?") == (
        "Is there any other rule for vans?"
    )


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # a sentence ending in a whole number, then a question: two pieces
        (
            "The van list says 4. Can nut orders share one?",
            ["The van list says 4.", "Can nut orders share one?"],
        ),
        # list numbers stay with their items
        (
            "Checks: 1. Is the depot open at 4? 2. Can vans leave early?",
            ["Checks:", "1. Is the depot open at 4?", "2. Can vans leave early?"],
        ),
        # a number before a lower-case word, or before a statement, ends nothing
        ("We load 4. then we go", ["We load 4. then we go"]),
        ("Van 2. The blue one.", ["Van 2. The blue one."]),
    ],
)
def test_a_sentence_ending_in_a_whole_number_ends_before_a_question(
    message: str, expected: list[str]
) -> None:
    from customer_sim.segments import pieces

    assert pieces(message) == expected
