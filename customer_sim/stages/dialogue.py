"""Stage 1, dialogue acts: the message cut into pieces, what each piece does, and who is spoken to.

People in a chat greet, thank, say "ok", ask "anything else?" and "why?". None of that asks
for a rule, and matching it against the facts only yields non-answers that quote the message
back, so before any fact is looked at this stage decides:

- the pieces of the message (``customer_sim.segments``: cut at question and sentence ends and
  where a new question opens) and whom each is addressed to (``customer_sim.addressing``);
- the courtesy of each piece (greeting, thanks, "ok", ...), and whether the message is a sweep
  ("anything else?") or a meta follow-up ("why?", "are you sure?") (``customer_sim.acts``);
- the pieces left once courtesies are taken out: only these can ask for facts;
- who answers a message that asks no fact: the person it names, else whoever spoke last, else
  the case's default stakeholder.

Runs of spaces are folded first: the same question typed with a stray double space reads the
same.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from customer_sim import acts
from customer_sim.base import Exchange
from customer_sim.chat import chat_act
from customer_sim.script import Stakeholder
from customer_sim.segments import Segment, segments
from customer_sim.stages.case import Case


@dataclass(frozen=True)
class Heard:
    """What stage 1 hands on. ``pieces`` are the parts that are not courtesies; ``greeted`` the
    courtesy the message opens with or contains; ``leading_meta`` the meta follow-up the first
    piece opens with ("are you sure? the request says 6"), read loosely."""

    question: str
    parts: list[Segment]
    acts: acts.MessageActs
    speaker: Stakeholder
    pieces: list[Segment]
    greeted: str | None
    leading_meta: str | None


def hear(case: Case, question: str, history: Sequence[Exchange]) -> Heard:
    parts = segments(spaced(question), case.addresses)
    read = acts.read(
        [part.text for part in parts],
        case.names,
        lambda text: chat_act(text, case.asks_fact, case.names_subject),
    )
    pieces = [part for part, kind in zip(parts, read.courtesies, strict=True) if kind is None]
    return Heard(
        question=question,
        parts=parts,
        acts=read,
        speaker=_addressee(case, parts, history),
        pieces=pieces,
        greeted=read.first_courtesy or acts.leading_greeting(question),
        leading_meta=_leading_meta(case, pieces),
    )


def _leading_meta(case: Case, pieces: list[Segment]) -> str | None:
    """The meta follow-up the message opens with, read loosely; past a short reaction that
    names no subject ("That seems odd. Why would a 428 take more?" asks why of the last
    answer as much as a bare "why?" does)."""
    if not pieces:
        return None
    first = acts.meta_follow_up(pieces[0].text, loose=True)
    if first is not None or len(pieces) != 2:
        return first
    head = pieces[0].text.strip()
    if head.endswith("?") or len(head.split()) > 6 or re.search(r"\d", head):
        return None
    if case.names_subject(head):
        return None
    return acts.meta_follow_up(pieces[1].text, loose=True)


def named_in(parts: Sequence[Segment]) -> str | None:
    """The id of the first person a message's parts address by name, or None."""
    return next((part.addressed for part in parts if part.addressed), None)


def _addressee(case: Case, parts: list[Segment], history: Sequence[Exchange]) -> Stakeholder:
    named = named_in(parts)
    last = history[-1].stakeholder_id if history else None
    for key in (named, last):
        if key in case.people:
            return case.people[key]
    return case.default


def spaced(text: str) -> str:
    """``text`` with runs of spaces and tabs as one space and each line stripped; line breaks
    stay (they separate list items and sentences)."""
    lines = (re.sub(r"[ \t\f\v\u00a0]+", " ", line).strip() for line in text.splitlines())
    return "\n".join(line for line in lines if line)
