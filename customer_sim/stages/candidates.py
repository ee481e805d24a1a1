"""Stage 4, candidate facts: the facts each ask stands for, and what else it touches.

Stage 3 found what each ask's readings ask for by their patterns. Two rules here change that
list before anyone is chosen to speak, and everything the decision needs to know about the
facts near an ask is gathered here too, so stage 5 decides without matching anything again:

- **Whether a rule exists is that rule's question.** "Can I use all the columns?", "any limit
  on the battery level?" name a rule's subject and ask whether it constrains the work; when no
  pattern completed, the ask asks whether something is ruled (``intent.asks_whether_ruled``),
  one rule is touched more than any other fact (two groups of its pattern or more; among
  facts touched as much, the one whose example questions the ask is clearly nearest), and nothing
  else it says is specific (its other content words are rule words or the case's own nouns),
  it gets that rule. Not when the message offers alternatives ("X or Y?": asked back instead)
  or a fact was withheld from it. A bare subject ("what about heavy pallets?", "what's the
  oven situation?") asks the same of the rule whose example questions it is clearly nearest,
  when every word of it is in that rule's answer or examples; not right after an answer,
  where "what about X?" leans on it.
- **A plan put up for approval is checked against the rule it runs into.** "On weight I'll
  keep it simple and ignore it. OK?" states what the player means to do and asks for a yes; a
  competent employee says which rule the plan breaks. When no pattern completed, the one rule
  the whole plan touches most (two groups of its pattern or more, named by at least two of the
  plan's own content words, not "plan" or "ok") is that ask's fact; a tie, a withheld fact or
  the other slot of a pair leaves it unchecked ("I wouldn't want to say yes to all of that
  blind").
- **An addressed speaker's side fact does not stand in for a colleague's rule.** "Tobias, if
  net import goes negative, is that credited at the spot price?" is the export rule's
  question, not Tobias's negative-prices background: a context fact of the addressee's that
  fired on the same words as a colleague's rule, or on fewer of the ask's words, is dropped,
  so the addressee points to the colleague instead of answering as if it were the answer.
- **"So the goal is X, right?" asks about the engagement.** The player puts the request's aim
  in their words (``acts.is_goal_check``); the rule whose subject those words are waits for its
  own question, and the customer confirms what the request says.
- Near a miss: the facts the ask touches (its subject without its aspect), those withheld
  (``FactFinder.withheld``: incidental words, a near rule, the other slot of a pair), and what a
  yes-or-no ask for a plan touches (the whole message when the ask is a bare "Right?").
"""

from __future__ import annotations

from dataclasses import dataclass

from customer_sim import acts, context, follow_ups, intent
from customer_sim.finder import Found
from customer_sim.script import Fact, Stakeholder
from customer_sim.segments import Segment
from customer_sim.slots import OneSided
from customer_sim.stages.case import Case
from customer_sim.stages.readings import Read, Readings
from customer_sim.text import content_stems, stem

# The words an "is there a limit on X?" ask may have besides its subject: whether, not what.
_RULE_WORDS = frozenset(
    " ".join(
        (
            "limit limits rule rules restriction restrictions constraint constraints",
            "requirement requirements cap caps maximum max minimum min allowed permitted allow",
            "ok okay fine free anywhere everywhere anything everything all every any use using",
            "used go goes going put way like want pay paid cost costs count counts matter",
            "matters really just also special particular need needs there thing things stuff",
            "issue issues problem problems else possible able about situation deal story",
            "policy position handle handled tell anything something",
        )
    ).split()
)

# Words every plan has ("my plan is to ..."): they name no rule's subject.
_PLAN_WORDS = frozenset(
    ["plan", "plans", "planning", "planned", "idea", "approach", "going", "intend", "assume"]
)


@dataclass(frozen=True)
class Candidate:
    """One ask with the facts it stands for and what it touches near a miss."""

    segment: Segment
    asking: bool
    facts: list[Fact]
    touched: list[Found]
    withheld: list[Fact]
    slot: OneSided | None
    plan_touched: list[Found]
    states_plan: bool = False


@dataclass(frozen=True)
class Candidates:
    """What stage 4 hands on: one candidate per piece, the follow-up of the last exchange if
    any, and what the message's pieces touch taken together (for a plain statement)."""

    readings: Readings
    asks: list[Candidate]
    follow_up: Candidate | None
    statement_touched: list[Found]


def gather(case: Case, readings: Readings, message: str) -> Candidates:
    pieces = readings.asks.pieces
    follow_up = readings.follow_up
    return Candidates(
        readings=readings,
        asks=[
            _candidate(case, read, message, after_answer=readings.after_answer)
            for read in readings.read
        ],
        follow_up=_candidate(case, follow_up, message) if follow_up else None,
        statement_touched=case.finder.touched(" ".join(part.text for part in pieces)),
    )


def _candidate(case: Case, read: Read, message: str, *, after_answer: bool = False) -> Candidate:
    ask = read.segment
    facts = read.facts
    if acts.is_goal_check(ask.text):
        facts = []  # the request's aim in the player's words: the engagement's question
    if not facts and read.asking and not intent.offers_alternatives(message):
        # "what about ambient lanes?" right after the chiller heights asks about those heights
        leaning = after_answer and follow_ups.is_follow_up(ask.text)
        facts = _subject_rule(case, ask.text, bare_subject_too=not leaning)
    verdict = context.asks_verdict(ask.text)
    checked = read.asking and _asks_plan_checked(ask.text, message)
    # "Plan: A, B, C. Sign off?": read step by step, as an employee reads a plan line by line;
    # read together, the steps' words fire whatever rule their mix happens to complete ("kg"
    # from one step, "high" from the next)
    steps = intent.plan_steps(message) if checked and verdict else []
    if len(steps) >= 2:
        facts = _items_rules(case, steps) or facts
    if not facts and checked:
        facts = _plan_rule(case, message if verdict else ask.text)
    if ask.addressed is not None:
        facts = _yielding_to_colleagues(case, ask.text, facts, case.people[ask.addressed])
    finder = case.finder
    return Candidate(
        segment=ask,
        asking=read.asking,
        facts=facts,
        touched=finder.touched(ask.text),
        withheld=[case.facts[found.key] for found in finder.withheld(ask.text)],
        slot=finder.other_slot(ask.text),
        plan_touched=finder.touched(message if context.asks_verdict(ask.text) else ask.text),
        states_plan=intent.states_plan(message),
    )


def _subject_rule(case: Case, ask: str, *, bare_subject_too: bool = True) -> list[Fact]:
    """The rule a plain "is there a limit on X?" or a bare "what about X?" asks for (see the
    module docstring)."""
    if intent.asks_whether_ruled(ask):
        fact = _most_touched_rule(case, ask)
        if fact is None:
            return []
        _, rest = case.finder.coverage(ask, fact.key)
        known = case.vocabulary
    elif bare_subject_too and intent.asks_about_subject(ask):
        fact = _nearest_rule(case, ask)
        if fact is None:
            return []
        # "what about the oven temperature?": a detail neither the rule's answer nor its
        # example questions speak of is a question of its own, even when a pattern term or
        # the case's files have the word
        covered, rest = case.finder.coverage(ask, fact.key)
        rest = covered + rest
        known = frozenset(content_stems(" ".join((fact.answer, *fact.triggers))))
    else:
        return []
    if any(word not in _RULE_WORDS and stem(word) not in known for word in rest):
        return []
    return [fact]


def _nearest_rule(case: Case, ask: str) -> Fact | None:
    """The rule a bare subject ("what about heavy pallets?") is about: of the facts it touches,
    the one whose example questions it is clearly nearest to. A subject of a word or two rarely
    completes two groups of any pattern, and "heavy" and "pallet" both sit in the pounds
    rule's pattern too; the authors' example questions say which rule the subject is the
    heart of. None when nothing stands out, a fact was withheld or the nearest is no rule."""
    finder = case.finder
    if finder.withheld(ask) or finder.other_slot(ask) is not None:
        return None
    touched = [found.key for found in finder.touched(ask)]
    key = finder.nearest(ask, touched) if touched else None
    fact = case.facts[key] if key is not None else None
    return fact if fact is not None and fact.target is not None else None


def _asks_plan_checked(ask: str, message: str) -> bool:
    return intent.states_plan(message) and intent.seeks_approval(ask)


def _items_rules(case: Case, items: list[str]) -> list[Fact]:
    """The rules the plan's steps ask for, step by step, in order, each once."""
    finder = case.finder
    keys: dict[str, None] = {}
    for item in items:
        withheld = {found.key for found in finder.withheld(item)}
        asked = [found.key for found in finder.asked(item) if found.key not in withheld]
        ruled = [key for key in asked if case.facts[key].target is not None]
        # a step no pattern completes may still run into the one rule it touches most
        for key in ruled or ([] if asked else [fact.key for fact in _plan_rule(case, item)]):
            keys.setdefault(key)
    return [case.facts[key] for key in keys]


def _plan_rule(case: Case, plan: str) -> list[Fact]:
    """The rule a plan put up for approval runs into (see the module docstring)."""
    fact = _most_touched_rule(case, plan)
    if fact is None:
        return []
    covered, _ = case.finder.coverage(plan, fact.key)
    named = {stem(word) for word in covered if word not in _RULE_WORDS | _PLAN_WORDS}
    return [fact] if len(named) >= 2 else []


def _most_touched_rule(case: Case, text: str) -> Fact | None:
    """The one rule the text touches most (two groups of its pattern or more; a tie broken by
    the nearest example questions), or None when nothing stands out, a fact was withheld from
    the text or it names the other slot of a pair."""
    finder = case.finder
    if finder.withheld(text) or finder.other_slot(text) is not None:
        return None
    touched = finder.touched(text)
    if not touched or touched[0].strength < 2:
        return None
    top = [found.key for found in touched if found.strength == touched[0].strength]
    if len(top) > 1:
        nearest = finder.nearest(text, top)
        top = [nearest] if nearest is not None else top
    fact = case.facts[top[0]]
    return fact if len(top) == 1 and fact.target is not None else None


def _yielding_to_colleagues(
    case: Case, ask: str, asked: list[Fact], speaker: Stakeholder
) -> list[Fact]:
    """The facts an addressed speaker answers or points on (see the module docstring)."""
    theirs = [
        fact
        for fact in asked
        if fact.target is not None and speaker.id not in (fact.stakeholder, *fact.known_by)
    ]
    if not theirs:
        return asked
    evidence = case.finder.evidence
    ruled = set().union(*(evidence(ask, fact.key) for fact in theirs))
    return [
        fact
        for fact in asked
        if fact.target is not None
        or fact.misconception is not None
        or (not (own := evidence(ask, fact.key)) & ruled and len(own) >= len(ruled))
    ]
