"""The scripted customer: offline, deterministic answers from a case's stakeholder script.

A reply is built in stages, each in its own module, in this order (``ScriptedCustomer.reply``):

1. asks: the message cut into pieces, each with its addressee (``segments``, ``addressing``);
2. dialogue acts: which pieces are courtesies, and whether the message is a sweep or a meta
   follow-up (``acts``); courtesies are answered without matching (``small_talk``);
3. readings in context: each remaining ask read alone, with the sentences around it
   (``context``) and, when it asks nothing alone, after the last question (``follow_ups``);
4. candidate facts and the decision: ask patterns and vetoes (``finder``, ``patterns``,
   ``slots``, ``intent``), then who answers what (below);
5. wording: facts in the owner's voice, non-answers that name only nouns the case knows
   (``compose``, ``vocabulary``), the engagement and plain statements (``small_talk``), labels,
   patience and the bookkeeping (``_worded``).

Who answers what:

- an ask addressed to someone is answered by them: their own facts in full, a colleague's facts
  pointed to that colleague (FDE-Gym: the right person must be asked);
- an unaddressed ask is answered by the owner of each fact it asks for, so one message can get
  answers from several stakeholders;
- an ask that asks for nothing gets a non-answer that names its subject and says whose area it
  is or asks for the specific point (``customer_sim.compose``); courtesies and context sentences
  around real questions get none, and a question that only makes sense with the sentence before
  it is read with that sentence;
- a fact may be known by more people than its owner (``known_by``): any of them answers it when
  addressed.

Patience shortens the tone, never the fact: past a stakeholder's patience their reply opens with
their impatient line, and every fact counted as disclosed is in the text the player receives.
The same question with the same history always gets the same reply.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from customer_sim import acts, compose, context, follow_ups, intent, small_talk
from customer_sim.addressing import AddressBook, names_of
from customer_sim.base import Exchange, Reply, split_units
from customer_sim.finder import FactFinder, Found
from customer_sim.script import Fact, Script, Stakeholder, load_hidden_script, public_summary
from customer_sim.segments import (
    PREPOSED_WH_WORDS,
    PREPOSITIONS,
    Segment,
    asks_for,
    is_code,
    segments,
)
from customer_sim.text import raw_tokens, stem
from customer_sim.vocabulary import case_vocabulary, data_vocabulary

_CACHE_SIZE = 32
_fitted: dict[tuple[str, ...], tuple[Script, FactFinder]] = {}

# A bullet or list number in front of a line ("- can I ...", "(2) how high ...", "b. is ...").
_ITEM_MARKER = r"(?:[-*\u2022]|\(?[0-9a-z]{1,2}[.)])\s+"
_ASKING = re.compile(
    rf"\?|^\s*(?:{_ITEM_MARKER})?"
    r"(?:(?:and|so|or|but|also|then|plus|ok|okay|um+|uh+|erm*|hm+|well|hi|hey|right)\b[,\s]*)*"
    # a question word may follow a preposition ("by when ...", "in which lane ...")
    rf"(?:(?:{PREPOSITIONS})\s+(?=(?:{PREPOSED_WH_WORDS})\b))?"
    r"(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|can|"
    r"could|should|shall|may|might|must|will|would|has|have|any|tell|explain|confirm|clarify|"
    r"please|let me know|i need to know|i'?d like to know|i want to know)\b"
    r"|\b(?:please (?:confirm|clarify|advise|explain|tell)|(?:confirm|clarify|check) (?:whether|if)"
    r")\b"
    r"|\b(?:wondering|want to know|need to know|not sure|unclear|confused)\b",
    re.IGNORECASE,
)


def load_fitted(hidden_dir: Path) -> tuple[Script, FactFinder]:
    """Read a case's script and build its fact finder once per file version.

    Kept per (folder, modification times, sizes of customer.json and gt.json): editing either
    file rebuilds it, and a run's 30 questions share one.
    """
    resolved = Path(hidden_dir).resolve()
    stamp: list[str] = [str(resolved)]
    for name in ("customer.json", "gt.json"):
        path = resolved / name
        if path.exists():
            stat = path.stat()
            stamp.append(f"{name}:{stat.st_mtime_ns}:{stat.st_size}")
    key = tuple(stamp)
    if key not in _fitted:
        script = load_hidden_script(resolved)
        if len(_fitted) >= _CACHE_SIZE:
            _fitted.pop(next(iter(_fitted)))
        _fitted[key] = (script, FactFinder(script.facts))
    return _fitted[key]


@dataclass
class _Voice:
    """What one stakeholder says in this reply."""

    speaker: Stakeholder
    lines: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)
    asked_back: list[str] = field(default_factory=list)  # the lines that are non-answers


class ScriptedCustomer:
    """Answers from ``customer.json`` (and ``gt.json``); see the module docstring for the rules."""

    def __init__(self, script: Script, finder: FactFinder) -> None:
        self.script = script
        self.finder = finder
        self._addresses = AddressBook(script.stakeholders)
        self._people = {person.id: person for person in script.stakeholders}
        self._facts = {fact.key: fact for fact in script.facts}
        self._names = sorted(
            {n for p in script.stakeholders for n in names_of(p)}, key=len, reverse=True
        )
        self._summary = ""
        self._vocabulary = case_vocabulary(script)

    @classmethod
    def from_hidden_dir(cls, hidden_dir: Path | str) -> ScriptedCustomer:
        script, finder = load_fitted(Path(hidden_dir))
        customer = cls(script, finder)
        customer._summary = public_summary(Path(hidden_dir).parent)
        customer._vocabulary |= data_vocabulary(Path(hidden_dir).parent)
        return customer

    def reply(self, question: str, history: Sequence[Exchange] = ()) -> Reply:
        """The reply, stage by stage: the message's dialogue acts (``acts``); courtesies,
        sweeps and meta follow-ups answered without matching (``small_talk``); the asks left
        matched to facts (``_match``); a message nothing answered read as a question about
        the engagement or a plain statement; then the wording (``_worded``)."""
        parts = segments(_spaced(question), self._addresses)
        read = acts.read([part.text for part in parts], self._names)
        speaker = self._addressee(parts, history)
        if read.only_courtesy:
            line = small_talk.courtesy(read.first_courtesy or acts.ACK, question)
            return self._worded({speaker.id: _Voice(speaker, [line])}, question, history)
        if read.meta is not None and history:
            return self._meta_reply(read.meta, question, history)
        asks = [part for part, kind in zip(parts, read.courtesies, strict=True) if kind is None]
        greeted = read.first_courtesy or acts.leading_greeting(question)
        if greeted is not None and asks and not _asking(asks, whole_if_none=False):
            # "Hi, I've built scorecards before, so just a few targeted questions.": a greeting
            # with a statement asks nothing; its words must not fire a rule.
            plain = self._unmatched(asks, question, greeted)
            if plain is not None:
                return self._worded({speaker.id: _Voice(speaker, [plain])}, question, history)
        voices = self._match(asks, question)
        if not any(voice.facts for voice in voices.values()) and history and asks:
            voices = (
                self._follow_up(asks, question, history[-1])
                or self._about_last_answer(asks, question, history[-1])
                or voices
            )
        if any(voice.facts for voice in voices.values()):
            if read.sweep and self._only_repeats(voices, history):
                others = [p for p in self.script.stakeholders if p.id != speaker.id]
                line = small_talk.sweep(speaker, others, question)
                return self._worded({speaker.id: _Voice(speaker, [line])}, question, history)
            kinds = set(acts.engagements(" ".join(a.text for a in asks)))
            if not _FOR_THE_WORK.search(question):
                # a deadline may be the business's own ("the vans' deadline to be back"); one
                # for the list, the file or "you need it" is the engagement's
                kinds -= {acts.DEADLINE}
            if self._only_background(voices) and (kinds or _PLAN.search(question)):
                # "whats the deadline for the list", "I'll send the CSV shortly": a question
                # about the engagement or a statement, which background facts do not answer
                plain = self._unmatched(asks, question, read.first_courtesy)
                if plain is not None:
                    return self._worded({speaker.id: _Voice(speaker, [plain])}, question, history)
            if _asks_why(asks) and self._only_repeats(voices, history):
                # "why would ingredients count if ...?" about a rule already given: its reason
                about = next(key for voice in voices.values() for key in voice.facts)
                return self._meta_reply(acts.WHY, question, history, about)
            return self._worded(voices, question, history)
        # Nothing in the script answers it: what else the message is decides the reply.
        leading_meta = acts.meta_follow_up(asks[0].text, loose=True) if asks else None
        if leading_meta is not None and history:  # "are you sure? the request says 6"
            return self._meta_reply(leading_meta, question, history)
        if read.sweep:
            others = [p for p in self.script.stakeholders if p.id != speaker.id]
            line = small_talk.sweep(speaker, others, question)
            return self._worded({speaker.id: _Voice(speaker, [line])}, question, history)
        plain = self._unmatched(asks, question, read.first_courtesy)
        if plain is not None:
            return self._worded({speaker.id: _Voice(speaker, [plain])}, question, history)
        if not voices:  # an empty message
            voices = {speaker.id: _Voice(speaker, [compose.unsure("", None, speaker)])}
        # Nobody has anything to say: one person says so (two non-answers read as an echo).
        first = next(iter(voices))
        return self._worded({first: voices[first]}, question, history)

    def _match(self, parts: list[Segment], question: str) -> dict[str, _Voice]:
        """Stages 2-5 for the asks of a message: each ask's facts (read in context), and who
        says what (answers, pointers to colleagues, non-answers)."""
        voices: dict[str, _Voice] = {}
        asking = _asking(parts)
        eligible = {i for i, part in enumerate(parts) if _may_ask(part, i in asking)}
        for index, part in enumerate(parts):
            asked = self._asked(parts, index, eligible) if index in eligible else []
            self._answer(part, asked, voices, index in asking, question)
        return _without_asking_back(voices)

    def _follow_up(
        self, asks: list[Segment], question: str, last: Exchange
    ) -> dict[str, _Voice] | None:
        """ "and end of day?" after "what SoC limits apply during the day?": what the pair
        asks that the earlier question did not, or else the rule the last reply gave, which
        the follow-up asks about again (``customer_sim.follow_ups``)."""
        text = " ".join(part.text for part in asks)
        joined = follow_ups.reading(text, last.question)
        if joined is None or not any(_ASKING.search(part.text) for part in asks):
            return None  # "haha ok dumb q" follows up on nothing
        before = {found.key for found in self.finder.asked(last.question)}
        asked = [f.key for f in self.finder.asked(joined)]
        swapped = follow_ups.slot_swapped(text, last.question)
        if swapped is not None and not [key for key in asked if key not in before]:
            asked = [f.key for f in self.finder.asked(swapped)]
        new = [self._facts[key] for key in asked if key not in before]
        # "and the other way round?" after a rule: the same rule again, said as a repeat
        new = new or [self._facts[key] for key in asked if key in last.disclosed]
        if not new:
            return None
        voices: dict[str, _Voice] = {}
        self._answer(Segment(text=text, addressed=asks[0].addressed), new, voices, True, question)
        return voices

    def _about_last_answer(
        self, asks: list[Segment], question: str, last: Exchange
    ) -> dict[str, _Voice] | None:
        """ "is it one oven or two?" right after the oven answer: a question nothing answers
        whose words are mostly those of a sentence just said is about that answer, and gets
        that sentence again (``compose.repeated``). Nothing new is disclosed: the fact was."""
        if not last.disclosed or not any(_ASKING.search(part.text) for part in asks):
            return None
        text = " ".join(part.text for part in asks)
        for key in last.disclosed:
            fact = self._facts.get(key)
            if fact is not None and compose.leans_on(text, fact.answer):
                voices: dict[str, _Voice] = {}
                _add_fact(voices, self._people[fact.stakeholder], fact)
                return voices
        return None

    def _unmatched(self, parts: list[Segment], question: str, courtesy: str | None) -> str | None:
        """A message no fact answers that is not a question for facts: a question about the
        engagement itself (what to deliver, by when, whom to ask, the goal in the request's
        words), or a statement that asks nothing ("I'll put the numbers together"), answered
        with the courtesy beside it if any ("Hi, I'm Marco, I help with the plan. How are
        you?"). A statement that touches a rule's subject ("I'll put the heavy ones on top")
        is noted, never approved: "sounds good" would read as a yes to a plan nobody checked."""
        rest = " ".join(part.text for part in parts)
        lines = [self._engagement_line(kind, question) for kind in acts.engagements(rest)]
        if lines:
            return " ".join(lines)
        if parts and not _asking(parts, whole_if_none=False):
            courtesy = courtesy or acts.mentions_courtesy(question)
            touched = bool(self.finder.touched(rest)) and bool(_PLAN.search(rest))
            if courtesy is not None and not (touched and courtesy == acts.ACK):
                return small_talk.courtesy(courtesy, question)
            return small_talk.noted(question) if touched else small_talk.statement(question)
        return None

    def _only_background(self, voices: dict[str, _Voice]) -> bool:
        keys = [key for voice in voices.values() for key in voice.facts]
        return all(self._facts[key].target is None for key in keys)

    @staticmethod
    def _only_repeats(voices: dict[str, _Voice], history: Sequence[Exchange]) -> bool:
        said = {key for exchange in history for key in exchange.disclosed}
        return all(key in said for voice in voices.values() for key in voice.facts)

    def _engagement_line(self, kind: str, question: str) -> str:
        if kind == acts.WHO:
            return small_talk.who(self.script.stakeholders)
        if kind == acts.GOAL:
            return small_talk.goal(self._summary, question)
        if kind == acts.DELIVERABLE:
            return small_talk.deliverable(question)
        if kind == acts.SEND_TO:
            return small_talk.send_to(question)
        return small_talk.deadline(question)

    def _meta_reply(
        self, kind: str, question: str, history: Sequence[Exchange], about: str | None = None
    ) -> Reply:
        """ "Why?", "are you sure?", "what do you mean?" about the last answer, from whoever
        gave it; nothing new is disclosed (the fact was, in the turn that asked for it)."""
        last = history[-1]
        # The answer meant is the latest one that stated a fact, a turn or two back at most
        # ("are you sure?" after a "thanks" in between).
        recent = next((e for e in reversed(history[-3:]) if e.disclosed), None)
        key = about or (recent.disclosed[0] if recent else None)
        fact = self._facts.get(key) if key else None
        speaker = self._people.get(fact.stakeholder if fact else last.stakeholder_id)
        speaker = speaker or self.script.default_stakeholder
        wording = {acts.WHY: small_talk.why, acts.SURE: small_talk.sure, acts.MEAN: small_talk.mean}
        line = wording[kind](fact, question)
        return self._worded({speaker.id: _Voice(speaker, [line])}, question, history)

    def _addressee(self, parts: list[Segment], history: Sequence[Exchange]) -> Stakeholder:
        """Who answers a message that asks no fact: the person it names, else whoever spoke
        last, else the default stakeholder."""
        named = next((part.addressed for part in parts if part.addressed), None)
        last = history[-1].stakeholder_id if history else None
        for key in (named, last):
            if key in self._people:
                return self._people[key]
        return self.script.default_stakeholder

    def _worded(
        self, voices: dict[str, _Voice], question: str, history: Sequence[Exchange]
    ) -> Reply:
        """The last stage: each voice's lines, speaker labels where several speak, and the
        bookkeeping (disclosed facts, units, contact cost, patience)."""
        said_before = {key for exchange in history for key in exchange.disclosed}
        ordered = list(voices.values())
        exhausted = [
            v.speaker.id for v in ordered if _earlier(history, v.speaker) >= v.speaker.patience
        ]
        texts = [
            self._voice_text(v, said_before, v.speaker.id in exhausted, question) for v in ordered
        ]
        first = ordered[0].speaker
        return Reply(
            text=texts[0]
            if len(texts) == 1
            else "\n\n".join(
                f"{v.speaker.label}: {t}" for v, t in zip(ordered, texts, strict=True)
            ),
            stakeholder_id=first.id,
            stakeholder_name=first.name,
            stakeholder_role=first.role,
            disclosed=[key for v in ordered for key in v.facts],
            units=split_units(question),
            contact_cost=round(sum(v.speaker.contact_cost for v in ordered), 6),
            exhausted=bool(exhausted),
            speakers=[v.speaker.id for v in ordered],
            speaker_labels=[v.speaker.label for v in ordered],
        )

    def matched_facts(self, question: str) -> list[Found]:
        """Facts the question asks for, in the order its asks ask them (for diagnostics)."""
        found: dict[str, Found] = {}
        parts = segments(question, self._addresses)
        asking = _asking(parts)
        eligible = {i for i, part in enumerate(parts) if _may_ask(part, i in asking)}
        for index in sorted(eligible):
            for fact in self._asked(parts, index, eligible):
                found.setdefault(fact.key, Found(fact.key, 1.0))
        return list(found.values())

    def _asked(self, parts: list[Segment], index: int, eligible: set[int]) -> list[Fact]:
        """Facts segment ``index`` asks for; a question that asks nothing on its own is read
        with the sentences before it that it leans on (``customer_sim.context``: "A stack has
        5 tiers. Are those counted from the top?", "X is empty in test. Can I fill with 0?").
        A short ask for a verdict asks about each statement before it ("I assume X, and that
        Y. Correct?"): each is read with it, nearest first, also when it asks something of its
        own ("X has net_weight 1703. So it's under the limit, right?")."""
        found = self.finder.asked(parts[index].text)
        # The main clause read alone too: a subordinate clause ("..., so heavy ones stay low?")
        # must not veto what the main clause asks.
        main = context.main_clause(parts[index].text)
        if main is not None:
            keys = {f.key for f in found}
            found = found + [f for f in self.finder.asked(main) if f.key not in keys]
        terse = context.terse_reading(parts[index].text)
        if not found and terse is not None:
            found = self.finder.asked(terse)
        if not found and self.finder.rivalled(parts[index].text):
            # The ask fired only facts it may not be about (a rule one group short of firing
            # explains more of it): it is asked back, not read with the sentences around it
            # to find something else to answer (honestly unsure beats confidently wrong).
            return []
        texts = [part.text for part in parts]
        verdict = context.asks_verdict(texts[index])
        # A short check of a conclusion ("So it's under the 800 kg limit, right?") asks about
        # the statements it is drawn from as well as about its own words.
        if found and not (verdict and context.leans_back(texts[index])):
            asked = self._in_context(texts, index, found)
        else:
            asked = [f.key for f in self._read_back(texts, index, eligible, found, verdict)]
        facts = [self._facts[key] for key in asked + self._elaborated(texts, index, asked)]
        if intent.background_only(texts[index]):
            # a count, a file's mechanics or a figure's history: background, never a rule
            facts = [fact for fact in facts if fact.target is None]
        return facts

    def _read_back(
        self, texts: list[str], index: int, eligible: set[int], found: list[Found], verdict: bool
    ) -> list[Found]:
        """What an ask asks read with the sentences before it (``customer_sim.context``)."""
        before = set[str]()
        collected: list[Found] = list(found)
        own_count = len(found)
        for reading in context.readings(texts, index):
            if reading.back in eligible:
                before |= {f.key for f in self.finder.asked(texts[reading.back])}
            own = {f.key for f in self.finder.touched(texts[index])} if reading.strict else None
            for text in context.reading_texts(texts, reading.back, index):
                known = before | {f.key for f in collected}
                found = [f for f in self.finder.asked(text) if f.key not in known]
                if own is not None:  # an ask naming no subject must name the rest itself
                    found = [f for f in found if f.key in own]
                if found:
                    collected += found
                    break
            if len(collected) > own_count and not verdict:
                break
        return collected

    def _in_context(self, texts: list[str], index: int, found: list[Found]) -> list[str]:
        """The facts an ask that points back at the statement just before it asks for.

        "P00080 is 812 kg gross. Can I put it on top of A13-05?" asks where a heavy pallet may
        stand, not only where a dropped pallet lands: a scenario statement that quotes a figure
        tells sibling rules apart (its words complete one rule's pattern and veto another's).
        When the ask read with it asks for something new, that reading is the answer; otherwise
        (or after a statement without a figure) the ask alone is. A statement that sets up a
        hypothetical ("Say ...", "Suppose ...") is read with the question after it, pronoun
        or not."""
        keys = [f.key for f in found]
        if index == 0:
            return keys
        previous = texts[index - 1]
        # "Say my plan peaks at 540 kW. How much demand charge ...?" is "if X, how much ...?"
        supposed = context.supposes(previous)
        if not (supposed or context.points_back(texts[index])):
            return keys
        if context.is_question(previous) or not (supposed or _FIGURE.search(previous)):
            return keys
        stated = {f.key for f in self.finder.asked(previous)}
        joined = [
            f.key
            for f in self.finder.asked(context.joined(texts, index - 1, index))
            if f.key not in stated
        ]
        return joined if set(joined) - set(keys) else keys

    def _elaborated(self, texts: list[str], index: int, keys: list[str]) -> list[str]:
        """What a question asks once read with the piece right after it that shows what it
        asks about ("Does A13-03 count? It's all one SKU, four pallets of one batch and one of
        another.", or code pasted after "agreed?"): facts that reading asks for and that
        neither the question nor that piece asks for alone."""
        if index + 1 >= len(texts):
            return []
        after = texts[index + 1]
        if not context.elaborates(texts[index], after):
            return []
        # pasted code asks nothing on its own: what it fires is what the ask before it asks
        shown = [] if is_code(after) else self.finder.asked(after)
        known = set(keys) | {f.key for f in shown}
        # the question itself may be the second half of one ("When you count mixed stacks,
        # does A13-03 count? It's ...")
        for back in range(index, max(index - 1, 0) - 1, -1):
            known |= {f.key for f in self.finder.asked(texts[back])}
            new = [
                f.key
                for f in self.finder.asked(context.joined(texts, back, index + 1))
                if f.key not in known
            ]
            if new:
                return new
        return []

    def _answer(
        self,
        ask: Segment,
        asked: list[Fact],
        voices: dict[str, _Voice],
        asking: bool,
        message: str,
    ) -> None:
        if not asked and asking and not intent.offers_alternatives(message):
            asked = self._subject_rule(ask.text)
        if ask.addressed is not None:
            speaker = self._people[ask.addressed]
            asked = self._yielding_to_colleagues(ask.text, asked, speaker)
            for fact in asked:
                if speaker.id in (fact.stakeholder, *fact.known_by):
                    _add_fact(voices, speaker, fact)
                else:
                    owner = self._people[fact.stakeholder]
                    _add_line(voices, speaker, compose.colleague(owner, ask.text))
            if not asked and asking:
                _add_line(voices, speaker, self._non_answer(ask.text, speaker), asked_back=True)
            elif asking:
                self._not_a_yes(ask.text, message, asked, voices, speaker)
            return
        for fact in asked:
            _add_fact(voices, self._people[fact.stakeholder], fact)
        if not asked and asking:
            speaker = self._area_owner(ask.text) or self.script.default_stakeholder
            _add_line(voices, speaker, self._non_answer(ask.text, speaker), asked_back=True)
        elif asking:
            speaker = self._people[asked[0].stakeholder]
            self._not_a_yes(ask.text, message, asked, voices, speaker)

    def _subject_rule(self, ask: str) -> list[Fact]:
        """The rule a plain "can I use all the columns?" / "any limit on the battery level?"
        asks for when no pattern completed: whether a rule exists on a subject is that rule's
        question. Only when the ask asks whether something is ruled (``intent``), one rule is
        touched more than any other fact (two groups of its pattern or more: its subject and
        more than a passing word), and nothing else the ask says is specific (its other content
        words are rule words or the case's own nouns); else it is asked back."""
        if not intent.asks_whether_ruled(ask) or self.finder.withheld(ask):
            return []
        if self.finder.other_slot(ask) is not None:
            return []
        touched = self.finder.touched(ask)
        if not touched or touched[0].strength < 2:
            return []
        top = [found for found in touched if found.strength == touched[0].strength]
        fact = self._facts[top[0].key]
        if len(top) != 1 or fact.target is None:
            return []
        _, rest = self.finder.coverage(ask, fact.key)
        if any(word not in _RULE_WORDS and stem(word) not in self._vocabulary for word in rest):
            return []
        return [fact]

    def _not_a_yes(
        self,
        ask: str,
        message: str,
        asked: list[Fact],
        voices: dict[str, _Voice],
        speaker: Stakeholder,
    ) -> None:
        """A yes or no asked for a plan that also touches a rule nobody has stated ("park the
        chilled pallets in A01 while I dig, OK?" answered with how digging works): the speaker
        adds that this is not a yes to the rest, so a partial answer is honestly partial and
        never reads as approval (issue 9's confidently wrong answers). It names nobody: an ask
        that merely shares a word with a rule ("stack") must not send the player to its owner."""
        if not intent.seeks_approval(ask):
            return
        said = {key for voice in voices.values() for key in voice.facts} | {f.key for f in asked}
        # A short "Right?" is about the plan stated before it: what that plan touches counts.
        touched = self.finder.touched(message if context.asks_verdict(ask) else ask)
        if any(f.key not in said and self._facts[f.key].target is not None for f in touched):
            _add_line(voices, speaker, compose.partial(ask))

    def _yielding_to_colleagues(
        self, ask: str, asked: list[Fact], speaker: Stakeholder
    ) -> list[Fact]:
        """The facts an addressed speaker answers themselves or points to a colleague.

        A context fact of the speaker's that fired on the same words as a colleague's rule
        does not stand in for that rule ("Tobias, if net import goes negative, is that credited
        at the spot price?" is the export rule's question, not the negative-prices background):
        the speaker points to the colleague instead of answering it as if it were the answer."""
        theirs = [
            fact
            for fact in asked
            if fact.target is not None and speaker.id not in (fact.stakeholder, *fact.known_by)
        ]
        if not theirs:
            return asked
        ruled = set().union(*(self.finder.evidence(ask, fact.key) for fact in theirs))
        # ... nor one that fired on fewer of the ask's words than the colleague's rule: the ask
        # is about the rule, and the side fact would read as its answer.
        return [
            fact
            for fact in asked
            if fact.target is not None
            or fact.misconception is not None
            or (not (own := self.finder.evidence(ask, fact.key)) & ruled and len(own) >= len(ruled))
        ]

    def _non_answer(self, ask: str, speaker: Stakeholder) -> str:
        subject = compose.subject_of(ask, self._vocabulary)
        if intent.background_only(ask):
            return compose.in_the_data(ask, subject)
        withheld = [self._facts[found.key] for found in self.finder.withheld(ask)]
        side = next((fact for fact in withheld if fact.target is None), None)
        slot = self.finder.other_slot(ask)
        if slot is not None:  # the ask names the end; what fired speaks of the start
            return compose.which_slot(ask, subject, slot.other.label, slot.own.label)
        if side is not None and side.topic:
            return compose.which_one(ask, subject, side.topic)
        touched = self.finder.touched(ask)
        owner = self._toucher(touched, speaker) if touched else self._area_owner(ask)
        if owner is not None and owner.id != speaker.id:
            return compose.redirect(ask, subject, owner)
        if touched:
            if _WH_OPEN.match(ask):  # "what time does baking start on friday?"
                return compose.not_to_hand(ask, subject)
            return compose.ask_specific(ask, subject)
        return compose.unsure(ask, subject, speaker)

    def _toucher(self, touched: list[Found], speaker: Stakeholder) -> Stakeholder:
        """Whose subject a near miss touches most: the speaker when a fact of their own is
        among the most touched (they say so themselves instead of sending the player on to a
        colleague over a word that merely sounds like the colleague's area), else the owner of
        the most touched."""
        top = [found for found in touched if found.strength == touched[0].strength]
        if any(self._facts[found.key].stakeholder == speaker.id for found in top):
            return speaker
        return self._people[self._facts[touched[0].key].stakeholder]

    def _area_owner(self, ask: str) -> Stakeholder | None:
        """The stakeholder whose facts' subjects (or listed areas) the ask names, if any."""
        touched = self.finder.touched(ask)
        if touched:
            return self._people[self._facts[touched[0].key].stakeholder]
        stems = {stem(token) for token in raw_tokens(ask)}
        for person in self.script.stakeholders:
            area_stems = {stem(t) for area in person.areas for t in raw_tokens(area)}
            if stems & area_stems - _GENERIC_STEMS:
                return person
        return None

    def _voice_text(
        self, voice: _Voice, said_before: set[str], exhausted: bool, question: str
    ) -> str:
        lines = [
            compose.repeated(self._facts[key].answer, question)
            if key in said_before
            else self._facts[key].answer
            for key in voice.facts
        ]
        lines += voice.lines
        if exhausted:
            lines.insert(0, voice.speaker.impatient)
        return "\n\n".join(lines)


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

# A question that opens with a question word asks something specific.
_WH_OPEN = re.compile(
    r"^\W*(?:(?:and|so|ok|okay|also|but)\W+)*(?:what|what'?s|whats|when|where|which|who|how|"
    r"by when)\b",
    re.IGNORECASE,
)

# A figure in a statement ("812 kg", "536.6 kW", "0.25"): the statement is a scenario.
_FIGURE = re.compile(r"\b[0-9]+(?:[.,][0-9]+)?\b")

# The words an "is there a limit on X?" ask may have besides its subject: whether, not what.
_RULE_WORDS = frozenset(
    [
        "limit",
        "limits",
        "rule",
        "rules",
        "restriction",
        "restrictions",
        "constraint",
        "constraints",
        "requirement",
        "requirements",
        "cap",
        "caps",
        "maximum",
        "max",
        "minimum",
        "min",
        "allowed",
        "permitted",
        "allow",
        "ok",
        "okay",
        "fine",
        "free",
        "anywhere",
        "everywhere",
        "anything",
        "everything",
        "all",
        "every",
        "any",
        "use",
        "using",
        "used",
        "go",
        "goes",
        "going",
        "put",
        "way",
        "like",
        "want",
        "pay",
        "paid",
        "cost",
        "costs",
        "count",
        "counts",
        "matter",
        "matters",
        "really",
        "just",
        "also",
        "special",
        "particular",
        "need",
        "needs",
        "there",
        "thing",
        "things",
        "stuff",
        "issue",
        "issues",
        "problem",
        "problems",
        "else",
        "possible",
        "able",
    ]
)

_GENERIC_STEMS = frozenset({"data", "file", "plan", "question", "site"})


# A sentence without a question mark or a question word in front may still ask ("net_weight is
# that kg or lbs", "not sure whether the chillers take four"); a plain statement ("the export
# shows 61.8 % beside a midnight figure") is context and is not matched on its own.
_EMBEDDED_ASK = re.compile(
    r"\b(?:or|vs|versus|whether|which|what|how|is there|are there|anything|do i|do we|should i|"
    r"should we|can i|can we|need to|"
    r"have to|wondering|not sure|unclear|confirm|clarify|tell me|let me know)\b",
    re.IGNORECASE,
)


_LIST_LEAD = re.compile(
    r"\b(?:questions?|queries|query|checks?|look-?ups?|points|things|ones|clarif\w*|confirm\w*)\b",
    re.IGNORECASE,
)
_LIST_ITEM = re.compile(rf"^\s*{_ITEM_MARKER}")
# A question about a list after it ("Could you tick these off?", "Are the following right?").
_POINTS_FORWARD = re.compile(
    r"\b(?:these|the following|below|this list|my list|the list|tick|check(?:list)?)\b",
    re.IGNORECASE,
)


def _may_ask(part: Segment, asking: bool) -> bool:
    return asking or (not is_code(part.text) and bool(_EMBEDDED_ASK.search(part.text)))


def _asking(parts: list[Segment], *, whole_if_none: bool = True) -> set[int]:
    """The segments that ask something: only these get a non-answer when they match nothing
    (context and courtesies around questions do not). A message with no question at all is one
    ask as a whole."""
    asking = {
        index
        for index, part in enumerate(parts)
        if not is_code(part.text) and (_ASKING.search(part.text) or asks_for(part.text))
    }
    # The items of a list after an asking lead-in ("Please confirm:\n1. ...\n2. ...", "three
    # questions: (1) ..., (2) ...") ask too.
    for index, part in enumerate(parts):
        lead_in = index in asking or _LIST_LEAD.search(part.text)
        # "Could you tick these off?" / "Are these right?" asks about the list that follows
        forward = part.text.rstrip().endswith("?") and _POINTS_FORWARD.search(part.text)
        if lead_in and (part.text.rstrip().endswith(":") or forward):
            following = range(index + 1, len(parts))
            asking.update(i for i in following if _LIST_ITEM.match(parts[i].text))
    # A list of terse items is a list of asks when one of its items asks ("1) weight unit of
    # net_weight 2) tare per pallet_type 3) who signs off the list"): the rest are the same kind.
    items = {i for i, part in enumerate(parts) if _LIST_ITEM.match(part.text)}
    if items & asking:
        asking |= {i for i in items if not parts[i].text.rstrip().endswith(".")}
    return asking or (set(range(len(parts))) if whole_if_none else set())


def _asks_why(asks: list[Segment]) -> bool:
    return bool(asks) and bool(
        re.match(r"\s*(?:but |and |so )?(?:why|how come)\b", asks[0].text, re.I)
    )


def _earlier(history: Sequence[Exchange], person: Stakeholder) -> int:
    return sum(1 for exchange in history if exchange.spoke(person.id))


def _voice(voices: dict[str, _Voice], speaker: Stakeholder) -> _Voice:
    return voices.setdefault(speaker.id, _Voice(speaker))


def _add_fact(voices: dict[str, _Voice], speaker: Stakeholder, fact: Fact) -> None:
    if any(fact.key in v.facts for v in voices.values()):
        return
    _voice(voices, speaker).facts.append(fact.key)


def _add_line(
    voices: dict[str, _Voice], speaker: Stakeholder, line: str, *, asked_back: bool = False
) -> None:
    voice = _voice(voices, speaker)
    if line not in voice.lines:
        voice.lines.append(line)
        if asked_back:
            voice.asked_back.append(line)


def _without_asking_back(voices: dict[str, _Voice]) -> dict[str, _Voice]:
    """A message that got an answer loses the ask-backs of its other pieces: "Is the 6 hours
    one oven or two, and are they both available?" answered in full and then "What exactly
    do you need to know?" reads as if nobody listened; the leftover pieces of one message
    lean on the part that was answered ("150 vs 6.09? typo?", "For allergy maybe?")."""
    if not any(voice.facts for voice in voices.values()):
        return voices
    kept: dict[str, _Voice] = {}
    for key, voice in voices.items():
        voice.lines = [line for line in voice.lines if line not in voice.asked_back]
        voice.asked_back = []
        if voice.facts or voice.lines:
            kept[key] = voice
    return kept


def _spaced(text: str) -> str:
    """``text`` with runs of spaces and tabs as one space and each line stripped: the same
    question typed with a stray double space, or resent with trailing blanks, reads the same.
    Line breaks stay (they separate list items and sentences)."""
    lines = (re.sub(r"[ \t\f\v\u00a0]+", " ", line).strip() for line in text.splitlines())
    return "\n".join(line for line in lines if line)
