"""Stage 5, the decision: what kind of reply the message gets, and from whom.

Tried in this order; the first that applies decides (``kind`` says which, for diagnostics):

1. ``courtesy``: a message of courtesies only gets a courtesy back (``small_talk``);
2. ``meta``: "why?", "are you sure?", "what do you mean?" right after an answer are about that
   answer (the latest that stated a fact, a turn or two back), from whoever gave it: its
   reason, a plain yes, or the answer put simply. Nothing new is disclosed;
3. ``statement``: a greeting with a statement that asks nothing ("Hi, I've built scorecards
   before.") is answered as such: its words must not fire a rule. Not "ok and the heavy
   ones": that leans on the last question (stage 3's follow-up) and is read with it;
4. ``answer``: the asks' facts, who says what ask by ask (``voices``). When nobody has a fact
   to give and there is history, the message read as a follow-up of the last exchange, or as
   a question about the fact just given, is answered instead (stage 3). Three exceptions:
   a sweep ("anything else?") whose facts were all said before gets the sweep line; a
   question about the engagement or a statement of the player's plan that only background
   facts answer gets the plain reply (a deadline counts as the engagement's only when it is
   the list's, the file's or "you need it", not the vans' deadline to be back); "why ...?"
   (in any piece: "that seems unambitious. why not?") about a rule already given gets that
   rule's reason;
5. nothing answers: a leading "are you sure? ..." is ``meta``; a sweep is ``sweep`` (what each
   person speaks to, never a rule: the customer does not volunteer, FDE-Bench A.9.2); a
   question about the engagement (whom to ask, the goal in the request's own words, what to
   deliver, where to send it, by when) or a statement is a ``statement``; else one person's
   ``non-answer`` (two non-answers read as an echo).

A statement that touches a rule's subject ("I'll put the heavy ones on top") is noted, never
approved: "sounds good" would read as a yes to a plan nobody checked.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from customer_sim import acts, compose, deliverable, glossary, small_talk
from customer_sim.base import Exchange
from customer_sim.script import Fact, Stakeholder
from customer_sim.segments import Segment
from customer_sim.stages.candidates import Candidate, Candidates
from customer_sim.stages.case import Case
from customer_sim.stages.dialogue import Heard, named_in
from customer_sim.stages.voices import Voices, alone, answer, for_asks, for_fact
from customer_sim.text import content_stems

# A statement of the player's own plan ("I'll put the heavy ones on top", "my plan is ...").
_PLAN = re.compile(
    r"\b(?:i'?ll|i will|i'?m going to|i am going to|we'?ll|we will|my plan is|i'?d|"
    r"i want to|let'?s|i'?m (?:putting|stacking|moving|planning|using|making|baking))\b",
    re.IGNORECASE,
)
# What a deadline is for when it is the engagement's: the deliverable, or the customer's need.
_FOR_THE_WORK = re.compile(
    r"\b(?:deadline|due|by when|when)\b.*\b(?:the|my|your) (?:list|file|plan|schedule|csv|"
    r"deliverable|submission|output|roster|forecast|scores?|answer)\b|\b(?:you|u) need (?:it|this|"
    r"that|them)\b",
    re.IGNORECASE,
)
# "why ...?", also after a short lead-in ("Sorry, I'm still learning, why does the level matter?")
_WHY = re.compile(
    r"\s*(?:[^,;:?.]{0,40}[,;:]\s*){0,2}(?:but |and |so )?(?:why|how come)\b", re.IGNORECASE
)


@dataclass(frozen=True)
class Decision:
    """What stage 5 hands on: the kind of reply and each speaker's voice, in speaking order."""

    candidates: Candidates
    kind: str
    voices: Voices


def decide(case: Case, candidates: Candidates, history: Sequence[Exchange]) -> Decision:
    kind, voices = _decided(case, candidates, history)
    return Decision(candidates, kind, voices)


def _decided(case: Case, candidates: Candidates, history: Sequence[Exchange]) -> tuple[str, Voices]:
    asks = candidates.readings.asks
    heard = asks.heard
    read, speaker, question = heard.acts, heard.speaker, heard.question
    if read.only_courtesy:
        return "courtesy", alone(
            speaker, small_talk.courtesy(read.main_courtesy or acts.ACK, question)
        )
    if read.meta is not None and history:
        return "meta", _meta(case, read.meta, heard, history)
    pieces = heard.pieces
    leans_on_last = bool(history and pieces and _follow_up(case, candidates))
    if heard.greeted is not None and pieces and not asks.asks_anything and not leans_on_last:
        plain = _plain(case, candidates, heard.greeted)
        if plain is not None:
            return "statement", alone(speaker, plain)
    unrepeated = _without_acknowledged(case, candidates.asks, history)
    voices = for_asks(case, unrepeated)
    if not _speaks_facts(voices) and history and pieces:
        followed = _follow_up(case, candidates)
        if unrepeated != candidates.asks and followed and _only_repeats(followed, history):
            followed = None  # the acknowledged rule would come back as the follow-up's answer
        # "when do u need it by" after the midnight rule: a question about the engagement,
        # not the rule again ("As I said: ...").
        if followed and _only_repeats(followed, history) and _asks_engagement(heard):
            plain = _plain(case, candidates, read.first_courtesy)
            if plain is not None:
                return "statement", alone(speaker, plain)
        voices = followed or voices
    why_again = _why_of_a_repeat(heard, voices, history)
    if why_again is not None:
        return "meta", _meta(case, acts.WHY, heard, history, about=why_again)
    if _speaks_facts(voices):
        return _answered(case, candidates, voices, history)
    defined = _defined(case, candidates)
    if defined is not None:
        return "definition", defined
    # "are you sure? the request says 6"; "what do you mean by 'X' in your email?" needs no
    # answer before it: it is about the request's own words.
    if heard.leading_meta is not None and (history or small_talk.quotes_us(question)):
        return "meta", _meta(case, heard.leading_meta, heard, history)
    if read.sweep:
        return "sweep", alone(speaker, _sweep_line(case, speaker, question))
    plain = _plain(case, candidates, read.first_courtesy)
    if plain is not None:
        return "statement", alone(speaker, plain)
    if not voices:  # an empty message
        return "non-answer", alone(speaker, compose.unsure("", None, speaker))
    if history and pieces and compose.asks_when(pieces[-1].text):
        return "non-answer", alone(speaker, compose.no_date(question))
    first = next(iter(voices))
    return "non-answer", {first: voices[first]}


def _answered(
    case: Case, candidates: Candidates, voices: Voices, history: Sequence[Exchange]
) -> tuple[str, Voices]:
    heard = candidates.readings.asks.heard
    question, speaker, pieces = heard.question, heard.speaker, heard.pieces
    repeats = _only_repeats(voices, history)
    if heard.acts.sweep and repeats:
        return "sweep", alone(speaker, _sweep_line(case, speaker, question))
    kinds = set(acts.engagements(" ".join(a.text for a in pieces)))
    if not _FOR_THE_WORK.search(question):
        kinds -= {acts.DEADLINE}
    kinds -= {acts.DELIVERABLE, acts.DATA}  # a fact the author wrote on the file says it best
    # "1) cream time outside fridge 2) nuts in the same van 3) who signs the plan off": a
    # sign-off question beside others does not silence what they ask.
    kinds -= {acts.SIGN_OFF, acts.JUDGED}  # a scoring rule's answer says how it is judged
    if _only_background(case, voices) and (kinds or _PLAN.search(question)):
        plain = _plain(case, candidates, heard.acts.first_courtesy)
        if plain is not None:
            return "statement", alone(speaker, plain)
    if repeats and (defined := _defined(case, candidates)) is not None:
        return "definition", defined
    if repeats and _asks_when_undated(case, pieces, voices):
        return "non-answer", alone(speaker, compose.no_date(question))
    if pieces and any(_WHY.match(piece.text) for piece in pieces) and repeats:
        about = next(key for voice in voices.values() for key in voice.facts)
        return "meta", _meta(case, acts.WHY, heard, history, about)
    if pieces and any(acts.asks_plainer(piece.text) for piece in pieces) and repeats:
        about = next(key for voice in voices.values() for key in voice.facts)
        return "meta", _meta(case, acts.MEAN, heard, history, about)
    return "answer", voices


def _defined(case: Case, candidates: Candidates) -> Voices | None:
    """Definitions for the pieces that ask what a word of the case means, from the person
    addressed, else the person the glossary names, else whoever speaks (``glossary``)."""
    heard = candidates.readings.asks.heard
    entries = [glossary.lookup(case.script.glossary, piece.text) for piece in heard.pieces]
    found = [entry for entry in entries if entry is not None]
    # "what is a demand charge? the tariff file mentions one": a remark beside the question is
    # fine, another question is not.
    others = [piece for piece, entry in zip(heard.pieces, entries, strict=True) if entry is None]
    if not found or any("?" in piece.text for piece in others):
        return None
    key = named_in(heard.parts) or found[0].stakeholder
    speaker = case.people.get(key) if key else None
    says = " ".join(dict.fromkeys(entry.says for entry in found))
    return alone(speaker or heard.speaker, says)


def _without_acknowledged(
    case: Case, asks: list[Candidate], history: Sequence[Exchange]
) -> list[Candidate]:
    """ "OK, leave is credited. Is there a template?": a statement that restates a rule already
    given acknowledges it; when another piece asks a question, the rule is not said again
    ("As I said: ...") in place of or beside that question's answer. The question keeps the
    rule only when its own words ask for it ("OK, 5 hours. Is it really 5?")."""
    said = {key for exchange in history for key in exchange.disclosed}
    asking = ["?" in ask.segment.text for ask in asks]
    if all(asking) or not any(asking):
        return asks
    # What each piece's own words fire: a statement that fires nothing as read may still have
    # lent the question after it its subject (stage 3 reads a subjectless question with the
    # sentence before it).
    own = [{found.key for found in case.finder.asked(ask.segment.text)} for ask in asks]
    acknowledged = said & {
        key
        for ask, fired, asks_itself in zip(asks, own, asking, strict=True)
        if not asks_itself
        for key in fired | {fact.key for fact in ask.facts}
    }
    kept = []
    for ask, fired, asks_itself in zip(asks, own, asking, strict=True):
        facts = [
            fact
            for fact in ask.facts
            if fact.key not in acknowledged or (asks_itself and fact.key in fired)
        ]
        kept.append(replace(ask, facts=facts) if len(facts) != len(ask.facts) else ask)
    return kept


def _follow_up(case: Case, candidates: Candidates) -> Voices | None:
    """The message answered as a follow-up of the last exchange (stage 3), if it is one."""
    if candidates.follow_up is not None:
        voices: Voices = {}
        answer(case, candidates.follow_up, voices)
        if voices:
            return voices
    about = candidates.readings.about_last
    return for_fact(case, about) if about is not None else None


def _plain(case: Case, candidates: Candidates, courtesy: str | None) -> str | None:
    """The reply to a question about the engagement or a statement that asks nothing, or None
    when the message is neither."""
    asks = candidates.readings.asks
    question = asks.heard.question
    rest = " ".join(part.text for part in asks.pieces)
    speaker = asks.heard.speaker
    kinds = acts.engagements(rest)
    if acts.DEADLINE in kinds and rest.lstrip().lower().startswith("when"):
        kinds = [kind for kind in kinds if kind != acts.DELIVERABLE]  # a time, not a form
    lines = [_engagement_line(case, kind, question, speaker) for kind in kinds]
    if lines:
        return " ".join(lines)
    if asks.pieces and not asks.asks_anything:
        courtesy = courtesy or acts.mentions_courtesy(question)
        touched = bool(candidates.statement_touched) and bool(_PLAN.search(rest))
        if courtesy is not None and not (touched and courtesy == acts.ACK):
            return small_talk.courtesy(courtesy, question)
        return small_talk.noted(question) if touched else small_talk.statement(question)
    return None


def _engagement_line(case: Case, kind: str, question: str, speaker: Stakeholder) -> str:
    if kind == acts.WHO:
        return small_talk.who(case.script.stakeholders, question, speaker)
    if kind == acts.GOAL:
        return small_talk.goal(case.summary, question)
    if kind == acts.DELIVERABLE:
        return deliverable.form_line(case.form, question) or small_talk.deliverable(question)
    if kind == acts.DATA:
        return deliverable.files_line(case.form) or small_talk.deliverable(question)
    if kind == acts.SEND_TO:
        return small_talk.send_to(question)
    if kind == acts.JUDGED:
        return small_talk.judged(question)
    if kind == acts.SIGN_OFF:
        return small_talk.sign_off(case.script.default_stakeholder, speaker)
    return small_talk.deadline(question)


def _meta(
    case: Case, kind: str, heard: Heard, history: Sequence[Exchange], about: str | None = None
) -> Voices:
    question = heard.question
    # The latest answer's facts first, then those of the two exchanges before it.
    recent = [key for exchange in reversed(history[-3:]) for key in exchange.disclosed]
    key = about or (_doubted(case, recent, question) if recent else None)
    fact = case.facts.get(key) if key else None
    # With no history ("what do you mean by 'X' in your email?") whoever stage 1 found
    # addressed speaks: the person named, else the default.
    said_last = history[-1].stakeholder_id if history else heard.speaker.id
    speaker = case.people.get(_who_said(fact, history) if fact else said_last) or case.default
    wording = {acts.WHY: small_talk.why, acts.SURE: small_talk.sure, acts.MEAN: small_talk.mean}
    return alone(speaker, wording[kind](fact, question))


def _who_said(fact: Fact, history: Sequence[Exchange]) -> str:
    """Who answers "why?" about a fact: the one who last gave it, when they may speak to it
    (its owner, or a colleague its ``known_by`` lists: Morag explained the slot hours, so
    Morag says why), else its owner."""
    for exchange in reversed(history):
        if fact.key in exchange.disclosed:
            if exchange.stakeholder_id in (fact.stakeholder, *fact.known_by):
                return exchange.stakeholder_id
            break
    return fact.stakeholder


def _doubted(case: Case, keys: Sequence[str], question: str) -> str:
    """Which of the recent answers' facts a follow-up is about: "are you sure? june's invoice
    says 558.3 kW" doubts the answer that spoke of June's invoice, even when another came
    since. The fact whose answer shares the most of the message's words and figures; the
    latest on a tie (and when the message names nothing, as in a bare "why?")."""
    wanted = set(content_stems(question))
    best, best_shared = keys[0], 0
    for key in keys:
        fact = case.facts.get(key)
        shared = len(wanted & set(content_stems(fact.answer))) if fact else 0
        if shared > best_shared:
            best, best_shared = key, shared
    return best


def _sweep_line(case: Case, speaker: Stakeholder, question: str) -> str:
    others = [p for p in case.script.stakeholders if p.id != speaker.id]
    return small_talk.sweep(speaker, others, question)


def _asks_engagement(heard: Heard) -> bool:
    return bool(acts.engagements(" ".join(piece.text for piece in heard.pieces)))


def _speaks_facts(voices: Voices) -> bool:
    return any(voice.facts for voice in voices.values())


def _only_background(case: Case, voices: Voices) -> bool:
    keys = [key for voice in voices.values() for key in voice.facts]
    return all(case.facts[key].target is None for key in keys)


def _why_of_a_repeat(heard: Heard, voices: Voices, history: Sequence[Exchange]) -> str | None:
    """The fact a "why ...?" asks the reason for when its words only find that fact again:
    "why is it in pounds and not kilos?" right after the pounds were explained wants the
    reason, not "As I said: ..."; None when the message asks anything new."""
    if heard.leading_meta != acts.WHY or not history or not _speaks_facts(voices):
        return None
    keys = {key for voice in voices.values() for key in voice.facts}
    recent = {key for exchange in history[-2:] for key in exchange.disclosed}
    return next(iter(keys)) if len(keys) == 1 and keys <= recent else None


def _asks_when_undated(case: Case, pieces: Sequence[Segment], voices: Voices) -> bool:
    """Does every piece ask "when ...?" while none of the facts about to be said again holds
    a date or a time?"""
    if not pieces or not all(compose.asks_when(piece.text) for piece in pieces):
        return False
    keys = [key for voice in voices.values() for key in voice.facts]
    return not any(compose.answers_in(case.facts[key].answer, pieces[0].text) for key in keys)


def _only_repeats(voices: Voices, history: Sequence[Exchange]) -> bool:
    said = {key for exchange in history for key in exchange.disclosed}
    return all(key in said for voice in voices.values() for key in voice.facts)
