"""Stage 5, the decision (per ask): who says what to each ask, answers and non-answers alike.

The half of the decision that goes ask by ask (``decision`` decides the message as a whole):

- an ask addressed to someone is answered by them: their own facts in full (or facts they are
  listed in ``known_by`` for), a colleague's facts pointed to that colleague (FDE-Gym: the right
  person must be asked);
- an unaddressed ask is answered by the owner of each fact it asks for, so one message can get
  answers from several stakeholders;
- an ask that asks for nothing gets a non-answer from the person whose area it touches (else
  the default stakeholder), and which non-answer is itself a decision about what is disclosed:
  "that's in the data" for a background question, "the start or the end?" when a sibling slot's
  fact was withheld, "do you mean <topic>?" when a side fact was, "ask <owner>" when the ask
  touches a colleague's subject (the speaker's own subject when one of theirs is among the most
  touched: no sending on over a word that merely sounds like a colleague's area), "what exactly
  do you need to know?" when a vague ask ("oven minutes?", "what about the efficiency?")
  touches one of the speaker's, "not something I have to hand" for a specific question (no
  subject quoted: a slice of a full question reads garbled), "I can't sign off the whole plan
  from here" for a stated plan asked for a yes (it told us its decision: "what's the decision
  you're trying to make?" would not have listened), else "not sure". A non-answer quotes only nouns the case knows
  (``compose.subject_of``), so it never echoes a slice of the message;
- a yes-or-no ask for a plan the message states ("so I can park them anywhere, right?", not a
  bare "can I ...?") that also touches a rule nobody has stated is told that the
  answer is not a yes to the rest ("park the chilled pallets in A01 while I dig, OK?"): a
  partial answer stays honestly partial, never approval. It names nobody: sharing a word with
  a rule must not send the player to its owner;
- a message that got an answer drops the ask-backs of its other pieces: "Is the 6 hours one
  oven or two, and are they both available?" answered and then "What exactly do you need to
  know?" reads as if nobody listened.

The lines are phrased here through ``compose`` because a non-answer's words are part of what
it discloses (whom it names, which nouns it repeats); stage 6 only assembles them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from customer_sim import compose, intent
from customer_sim.finder import Found
from customer_sim.script import Fact, Stakeholder
from customer_sim.stages.candidates import Candidate
from customer_sim.stages.case import Case
from customer_sim.text import raw_tokens, stem

# A question that opens with a question word asks something specific.
_WH_OPEN = re.compile(
    r"^\W*(?:(?:and|so|ok|okay|also|but)\W+)*(?:what|what'?s|whats|when|where|which|who|how|"
    r"by when)\b",
    re.IGNORECASE,
)
_GENERIC_STEMS = frozenset({"data", "file", "plan", "question", "site"})


@dataclass
class Voice:
    """What one stakeholder says in this reply: facts (keys) and lines; ``asked_back`` holds
    the lines that are non-answers."""

    speaker: Stakeholder
    lines: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)
    asked_back: list[str] = field(default_factory=list)
    # Colleagues this voice already pointed the player to: a second pointer to the same person
    # in one reply ("ask Priya ... That one's for Priya") reads as a stuck record.
    referred: set[str] = field(default_factory=set)


Voices = dict[str, Voice]


def alone(speaker: Stakeholder, line: str) -> Voices:
    """One line from one speaker."""
    return {speaker.id: Voice(speaker, [line])}


def for_asks(case: Case, candidates: list[Candidate]) -> Voices:
    """Who says what to each ask of a message (see the module docstring)."""
    voices: Voices = {}
    for candidate in candidates:
        answer(case, candidate, voices)
    return _without_asking_back(voices)


def for_fact(case: Case, fact: Fact) -> Voices:
    """The fact from its owner (a question about the answer just given)."""
    voices: Voices = {}
    add_fact(voices, case.people[fact.stakeholder], fact)
    return voices


def answer(case: Case, candidate: Candidate, voices: Voices) -> None:
    ask, asked, asking = candidate.segment, candidate.facts, candidate.asking
    if ask.addressed is not None:
        speaker = case.people[ask.addressed]
        for fact in asked:
            if speaker.id in (fact.stakeholder, *fact.known_by):
                add_fact(voices, speaker, fact)
            else:
                owner = case.people[fact.stakeholder]
                _add_line(voices, speaker, compose.colleague(owner, ask.text), refers_to=owner)
        if not asked and asking:
            _ask_back(case, candidate, voices, speaker)
        elif asking:
            _not_a_yes(case, candidate, voices, speaker)
        return
    for fact in asked:
        add_fact(voices, case.people[fact.stakeholder], fact)
    if not asked and asking:
        speaker = _area_owner(case, candidate) or case.default
        _ask_back(case, candidate, voices, speaker)
    elif asking:
        _not_a_yes(case, candidate, voices, case.people[asked[0].stakeholder])


def _not_a_yes(case: Case, candidate: Candidate, voices: Voices, speaker: Stakeholder) -> None:
    ask = candidate.segment.text
    if not candidate.states_plan or not intent.seeks_approval(ask):
        return
    given = {key for voice in voices.values() for key in voice.facts}
    said = given | {f.key for f in candidate.facts}
    if any(
        f.key not in said and case.facts[f.key].target is not None for f in candidate.plan_touched
    ):
        _add_line(voices, speaker, compose.partial(ask, points=len(given)))


def _ask_back(case: Case, candidate: Candidate, voices: Voices, speaker: Stakeholder) -> None:
    """The speaker's non-answer to an ask nobody has a fact for. A non-answer that points to a
    colleague counts as that voice's pointer, as a colleague line does: "For X, ask Priya" and
    then "That one's for Priya" in one reply reads as a stuck record whichever comes first."""
    line, pointed = _non_answer(case, candidate, speaker)
    _add_line(voices, speaker, line, asked_back=True, refers_to=pointed)


def _non_answer(
    case: Case, candidate: Candidate, speaker: Stakeholder
) -> tuple[str, Stakeholder | None]:
    """The non-answer's line, and the colleague it points to when it redirects."""
    ask = candidate.segment.text
    subject = compose.subject_of(ask, case.vocabulary)
    if intent.background_only(ask):
        return compose.in_the_data(ask, subject), None
    side = next((fact for fact in candidate.withheld if fact.target is None), None)
    slot = candidate.slot
    if slot is not None:  # the ask names the end; what fired speaks of the start
        return compose.which_slot(ask, subject, slot.other.label, slot.own.label), None
    if side is not None and side.topic:
        return compose.which_one(ask, subject, side.topic), None
    if candidate.states_plan and intent.seeks_approval(ask):  # "I'll ..., OK?", no rule fired
        return compose.unchecked_plan(ask), None
    touched = candidate.touched
    owner = _toucher(case, touched, speaker) if touched else _area_owner(case, candidate)
    if owner is not None and owner.id != speaker.id:
        return compose.redirect(ask, subject, owner), owner
    if touched:
        if compose.is_vague(ask):  # "oven minutes?", "what about the efficiency?"
            return compose.ask_specific(ask, subject), None
        # "what time does baking start on friday?", "does that efficiency hold at partial
        # power?": a specific question; asking "what exactly do you need to know?" back reads
        # as not listening, and quoting a slice of it ("On take energy - ...") as garbled.
        return compose.not_to_hand(ask, subject if _WH_OPEN.match(ask) else None), None
    return compose.unsure(ask, subject, speaker), None


def _toucher(case: Case, touched: list[Found], speaker: Stakeholder) -> Stakeholder:
    """Whose subject a near miss touches most: the speaker when one of theirs is among the
    most touched, else the owner of the most touched."""
    top = [found for found in touched if found.strength == touched[0].strength]
    if any(case.facts[found.key].stakeholder == speaker.id for found in top):
        return speaker
    return case.people[case.facts[touched[0].key].stakeholder]


def _area_owner(case: Case, candidate: Candidate) -> Stakeholder | None:
    """The stakeholder whose facts' subjects (or listed areas) the ask names, if any."""
    if candidate.touched:
        return case.people[case.facts[candidate.touched[0].key].stakeholder]
    stems = {stem(token) for token in raw_tokens(candidate.segment.text)}
    for person in case.script.stakeholders:
        area_stems = {stem(t) for area in person.areas for t in raw_tokens(area)}
        if stems & area_stems - _GENERIC_STEMS:
            return person
    return None


def _voice(voices: Voices, speaker: Stakeholder) -> Voice:
    return voices.setdefault(speaker.id, Voice(speaker))


def add_fact(voices: Voices, speaker: Stakeholder, fact: Fact) -> None:
    if any(fact.key in v.facts for v in voices.values()):
        return
    _voice(voices, speaker).facts.append(fact.key)


def _add_line(
    voices: Voices,
    speaker: Stakeholder,
    line: str,
    *,
    asked_back: bool = False,
    refers_to: Stakeholder | None = None,
) -> None:
    voice = _voice(voices, speaker)
    if line in voice.lines or any(label in line for label in voice.referred):
        return
    voice.lines.append(line)
    if asked_back:
        voice.asked_back.append(line)
    if refers_to is not None:
        voice.referred.add(refers_to.label)


def _without_asking_back(voices: Voices) -> Voices:
    if not any(voice.facts for voice in voices.values()):
        return voices
    kept: Voices = {}
    for key, voice in voices.items():
        voice.lines = [line for line in voice.lines if line not in voice.asked_back]
        voice.asked_back = []
        if voice.facts or voice.lines:
            kept[key] = voice
    return kept
