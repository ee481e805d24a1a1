"""Stage 3, readings in context: what each ask asks once read with what surrounds it.

Players rarely repeat the subject in every sentence, so an ask is not only read alone. Which
sentences it is read with is one rule shared with the offline judge (``customer_sim.context``,
whose docstring has the details); this stage applies it and keeps, for each ask, the facts its
readings ask for (``FactFinder.asked``: a reading is only worth taking when it asks for
something the ask alone does not). In order:

- the ask alone; its main clause alone too (a purpose, reason, "whose" or comparison clause
  ("..., so heavy ones stay low?") must not veto what the main clause asks); a bare noun
  phrase ("metric?") as "which metric?";
- an ask that fired only facts a near rule may be about (``finder.rivalled``) is asked back,
  not read with its neighbours to find something else to answer;
- an ask that points back at a scenario statement quoting a figure, or follows a supposition
  ("Say my plan peaks at 540 kW."), is read with it when that reading asks for something new:
  the scenario tells sibling rules apart;
- an ask that asks nothing alone, or a short ask for a verdict ("Correct?"), is read with the
  sentences before it (each statement alone first, then all together);
- a question followed by a statement that shows what it asks about ("Does A13-03 count? It's
  one SKU in two batches.", or code after "agreed?") is read with that statement;
- a count, a file's mechanics or a figure's history asks for background only, never a rule
  (``intent.background_only``).

Across messages (``customer_sim.follow_ups``): a message that leans on the last exchange ("and
end of day?", "what about weekends?") is also read joined with the last question, or with its
sibling slot swapped in; and a question mostly in the words of a fact just given ("is it one
oven or two?") is about that fact. Both are worked out here and used by the decision only when
the message's own readings give nobody anything to say.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from customer_sim import acts, compose, context, follow_ups, intent
from customer_sim.base import Exchange
from customer_sim.finder import Found
from customer_sim.script import Fact
from customer_sim.segments import Segment, is_code
from customer_sim.stages.asks import Asks
from customer_sim.stages.case import Case
from customer_sim.text import content_stems, stem

# A figure in a statement ("812 kg", "536.6 kW", "0.25"): the statement is a scenario.
_FIGURE = re.compile(r"\b[0-9]+(?:[.,][0-9]+)?\b")


@dataclass(frozen=True)
class Read:
    """One ask with the facts its readings ask for (empty for a piece that is not eligible)."""

    segment: Segment
    asking: bool
    facts: list[Fact]


@dataclass(frozen=True)
class Readings:
    """What stage 3 hands on: the message's asks read (``read``, one per piece), the message
    read as a follow-up of the last exchange (``follow_up``) and the fact just given that the
    message asks about again (``about_last``); ``after_answer`` says the last exchange gave a
    fact, so a short "what about X?" leans on it rather than opening X as a subject."""

    asks: Asks
    read: list[Read]
    follow_up: Read | None
    about_last: Fact | None
    after_answer: bool = False


def read(case: Case, asks: Asks, history: Sequence[Exchange]) -> Readings:
    pieces = asks.pieces
    reads = [
        Read(
            part,
            i in asks.asking,
            asked(case, pieces, i, asks.eligible) if i in asks.eligible else [],
        )
        for i, part in enumerate(pieces)
    ]
    last = history[-1] if history and pieces else None
    return Readings(
        asks=asks,
        read=reads,
        follow_up=_follow_up_in(case, asks, history) if last else None,
        about_last=_about_last_answer(case, asks, last) if last else None,
        after_answer=bool(last and last.disclosed),
    )


def asked(
    case: Case, parts: Sequence[Segment], index: int, eligible: frozenset[int] | set[int]
) -> list[Fact]:
    """The facts piece ``index`` asks for, read in context (see the module docstring)."""
    finder = case.finder
    found = finder.asked(parts[index].text)
    main = context.main_clause(parts[index].text)
    if main is not None:
        alone = {f.key for f in found}
        found = found + [f for f in finder.asked(main) if f.key not in alone]
    terse = context.terse_reading(parts[index].text)
    if not found and terse is not None:
        found = finder.asked(terse)
    if not found and finder.rivalled(parts[index].text):
        return []  # honestly unsure beats confidently wrong
    texts = [part.text for part in parts]
    verdict = context.asks_verdict(texts[index])
    # A short check of a conclusion ("So it's under the 800 kg limit, right?") asks about
    # the statements it is drawn from as well as about its own words.
    if found and not (verdict and context.leans_back(texts[index])):
        keys = _in_context(case, texts, index, found)
    else:
        keys = [f.key for f in _read_back(case, texts, index, eligible, found, verdict)]
    facts = [case.facts[key] for key in keys + _elaborated(case, texts, index, keys)]
    if intent.background_only(texts[index]):
        verb = intent.who_does(texts[index])
        facts = [fact for fact in facts if fact.target is None or _says_who(fact, verb)]
    return facts


def _says_who(fact: Fact, verb: str | None) -> bool:
    """Does the rule say who does what a "who handles X?" ask asks about ("... are handled by
    Northgate")? Then it is that ask's answer, not a person to point to."""
    return verb is not None and stem(verb) in set(content_stems(fact.answer))


def _read_back(
    case: Case,
    texts: list[str],
    index: int,
    eligible: frozenset[int] | set[int],
    found: list[Found],
    verdict: bool,
) -> list[Found]:
    """What an ask asks read with the sentences before it (``context.readings``)."""
    finder = case.finder
    before = set[str]()
    collected: list[Found] = list(found)
    own_count = len(found)
    for reading in context.readings(texts, index):
        if reading.back in eligible:
            before |= {f.key for f in finder.asked(texts[reading.back])}
        own = {f.key for f in finder.touched(texts[index])} if reading.strict else None
        for text in context.reading_texts(texts, reading.back, index):
            known = before | {f.key for f in collected}
            found = [f for f in finder.asked(text) if f.key not in known]
            if own is not None:  # an ask naming no subject must name the rest itself
                found = [f for f in found if f.key in own]
            if found:
                collected += found
                break
        if len(collected) > own_count and not verdict:
            break
    return collected


def _in_context(case: Case, texts: list[str], index: int, found: list[Found]) -> list[str]:
    """ "P00080 is 812 kg gross. Can I put it on top of A13-05?" asks where a heavy pallet may
    stand: read with a scenario statement (a figure, or "Say ..."), the ask's answer is that
    reading's when it asks for something new, else the ask alone's."""
    keys = [f.key for f in found]
    if index == 0:
        return keys
    previous = texts[index - 1]
    supposed = context.supposes(previous)
    if not (supposed or context.points_back(texts[index])):
        return keys
    if context.is_question(previous) or not (supposed or _FIGURE.search(previous)):
        return keys
    stated = {f.key for f in case.finder.asked(previous)}
    joined = [
        f.key
        for f in case.finder.asked(context.joined(texts, index - 1, index))
        if f.key not in stated
    ]
    return joined if set(joined) - set(keys) else keys


def _elaborated(case: Case, texts: list[str], index: int, keys: list[str]) -> list[str]:
    """Facts a question asks once read with the piece right after it that shows what it asks
    about, which neither asks for alone (the question may be the second half of one)."""
    if index + 1 >= len(texts):
        return []
    after = texts[index + 1]
    if not context.elaborates(texts[index], after):
        return []
    # pasted code asks nothing on its own: what it fires is what the ask before it asks
    shown = [] if is_code(after) else case.finder.asked(after)
    known = set(keys) | {f.key for f in shown}
    for back in range(index, max(index - 1, 0) - 1, -1):
        known |= {f.key for f in case.finder.asked(texts[back])}
        new = [
            f.key
            for f in case.finder.asked(context.joined(texts, back, index + 1))
            if f.key not in known
        ]
        if new:
            return new
    return []


def _follow_up_in(case: Case, asks: Asks, history: Sequence[Exchange]) -> Read | None:
    """The follow-up read with the last exchange, or, when the last message was itself a
    follow-up ("so is that a hard rule or just habit?", "why?"), with the one it followed:
    "and does the same apply at the big stores?" after both still asks about the rule the
    first of them was answered with."""
    last = history[-1]
    found = _follow_up(case, asks, last)
    if found is not None or len(history) < 2 or not history[-2].disclosed:
        return found
    earlier = history[-2]
    leaned = acts.meta_follow_up(last.question, loose=True) is not None or (
        follow_ups.is_follow_up(last.question)
        and follow_ups.leans_back(last.question, earlier.question, earlier.answer)
    )
    return _follow_up(case, asks, earlier) if leaned else None


def _follow_up(case: Case, asks: Asks, last: Exchange) -> Read | None:
    """ "and end of day?" after "what SoC limits apply during the day?": what the pair asks that
    the earlier question did not (or with the sibling slot's words swapped in), else the rule
    the last reply gave, which the follow-up asks about again."""
    text = _follow_up_text(case, asks)
    joined = follow_ups.reading(text, last.question)
    if joined is None or not asks.question_form:
        return None  # "haha ok dumb q" follows up on nothing
    if _new_identifiers(text, last.question):
        return None  # "and weekends need 3 on nights, per demand.csv?": a subject of its own
    finder = case.finder
    before = {found.key for found in finder.asked(last.question)}
    keys = [f.key for f in finder.asked(joined)]
    swapped = follow_ups.slot_swapped(text, last.question)
    if swapped is not None and not [key for key in keys if key not in before]:
        keys = [f.key for f in finder.asked(swapped)]
    new = [case.facts[key] for key in keys if key not in before]
    # "and the other way round?" after a rule: the same rule again, said as a repeat - not
    # when the follow-up names a subject of its own ("and who pays for the calls?" after the
    # budget rule touches the call-list rules, not the budget): that is a new question
    if (
        not new
        and follow_ups.leans_back(text, last.question, last.answer)
        and not _names_other_subject(case, text, last)
    ):
        new = [case.facts[key] for key in keys if key in last.disclosed]
    if not new:
        return None
    return Read(Segment(text=text, addressed=asks.pieces[0].addressed), True, new)


def _follow_up_text(case: Case, asks: Asks) -> str:
    """The message as a follow-up: all of it, or, when that is no follow-up's shape, its
    question from the first asking piece on. "Oh wow, that's earlier than I thought. Is it
    the same every day of the week?" reacts first and then leans on the last answer; the
    reaction asks nothing and must not hide the follow-up behind it."""
    text = " ".join(part.text for part in asks.pieces)
    if follow_ups.is_follow_up(text) or not asks.asks_anything:
        return text
    first = min(asks.asking)
    if first == 0 or any(asks.pieces[i].text.rstrip().endswith("?") for i in range(first)):
        return text
    if any(case.finder.touched(asks.pieces[i].text) for i in range(first)):
        return text  # "On weight I was going to ignore it. Is that ok?": "that" is the plan
    return " ".join(part.text for part in asks.pieces[first:])


# A column in snake case, or a file named with its extension ("per demand.csv?").
_IDENTIFIER = re.compile(
    r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b[a-z][a-z0-9_-]*\.(?:csv|json|md|txt|xlsx?)\b"
)


def _new_identifiers(text: str, earlier: str) -> bool:
    """Does ``text`` name a column or file that ``earlier`` did not ("Also the
    monthly_debt_payments, does it include rent?" after the income rule asks about that column,
    even when the last answer mentioned it in passing)?"""
    named = set(_IDENTIFIER.findall(text.lower()))
    return bool(named - set(_IDENTIFIER.findall(earlier.lower())))


def _names_other_subject(case: Case, text: str, last: Exchange) -> bool:
    """Does the follow-up, read alone, touch facts the last reply did not give most of all?
    (A column or file the last question did not name is a subject of its own too: ``_follow_up``
    turns such a follow-up away before it gets here, ``_new_identifiers``.)"""
    if not case.names_subject(text):  # a word in passing names no subject
        return False
    touched = case.finder.touched(text)
    top = {found.key for found in touched if found.strength == touched[0].strength}
    return not top & set(last.disclosed)


def _about_last_answer(case: Case, asks: Asks, last: Exchange) -> Fact | None:
    """The fact just given whose answer the message is mostly made of (``compose.leans_on``)."""
    if not last.disclosed or not asks.question_form:
        return None
    text = " ".join(part.text for part in asks.pieces)
    if follow_ups.asks_who(text):
        return None
    for key in last.disclosed:
        fact = case.facts.get(key)
        if fact is not None and compose.leans_on(text, fact.answer):
            return fact
    if compose.points_back(text):  # "when did that change?" after the income rule
        for key in last.disclosed:
            fact = case.facts.get(key)
            if fact is not None and compose.answers_in(fact.answer, text):
                return fact
    return None
