"""Which facts of a script one ask (a segment of a message) asks for, and which it only touches.

Facts with an ask pattern (``customer_sim.patterns``) are decided by their pattern: a fact is
asked for when one of its alternatives is complete. Facts without one (older packages) fall back
to the lexical matcher over their example questions. "Touched" facts are those whose pattern's
subject appears without the ask: the customer uses them to answer a near miss in kind ("what do
you need to know about heavy pallets?") without disclosing the rule.

A side answer never stands in for a rule's answer. A context fact (background, no target) whose
pattern fires on a few incidental words of an ask that is mostly about a rule's subject ("If I
charge 100 kWh from the grid, how many kWh come back?" is about the efficiency, not about
whether grid charging is allowed) would read as the answer to that rule: a wrong answer, or
one that seems to waive the rule. Such a fact is *withheld* when its pattern's words cover less
than ``SIDE_COVERAGE`` of the ask's content words and a rule's pattern, not fired, covers more;
the customer then asks back instead (``withheld``). A stakeholder's designed misconception is
never withheld: answering the rule's question with it is what it is for.

A pronoun in a pattern ("can I leave it at 30 %?") stands for what the conversation is about
only in a short follow-up (``MAX_PRONOUN_ASK`` tokens); in a longer ask that names its own
subjects ("the demand charge is monthly, so do I leave it out of the day?") it refers to one
of them, and only the subjects the ask names count.

The converse holds for near misses: a rule that fires on words it shares with a context fact
that covers more of the ask ("Does a stack with a single pallet count as mixed?" is answered
by the single-pallet fact, not by the batch rule that also speaks of "mixed") is withheld, and
the context fact answers.

A near rule: when a rule misses by one group (its pattern's best alternative is complete but
for one group, no veto of it present) and the words its present groups cover go beyond what
the fired facts account for, the ask may well be that rule's question in words its pattern
does not know. Answering it with what did fire would be confidently wrong on a miss (the
start-of-day level for an end-of-day question, the stacking rule for a heavy-pallet one), so:

- a context fact that fired is withheld when the near rule has ``NEAR_SIDE_OWN`` content words
  of its own (background never stands in for a rule the ask nearly asks for) and the customer
  asks back;
- a rule that fired is withheld only when the near rule shares its words (same subject),
  covers more of the ask, misses one group of an alternative of ``NEAR_RULE_GROUPS`` or more,
  and has ``NEAR_RULE_OWN`` content words of its own: the ask's aspect words belong to the
  sibling, not to the rule that fired on the shared subject.

Such an ask is not read with the sentences around it to find something else to answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from customer_sim.context import FRAMING, set_aside
from customer_sim.matching import FactExamples, LexicalMatcher
from customer_sim.names import filter_names, name_asked_about, names_in, strength_with_names
from customer_sim.patterns import AskPattern, Term, TermIndex, strength, tokens_of, touches
from customer_sim.script import Fact
from customer_sim.slots import OneSided, one_sided, other_slot
from customer_sim.text import STOPWORDS

# A short plain question, the only kind whose wording alone may spare a background fact from a
# near rule: in a longer message the examples' words come up for other reasons.
PLAIN_ASK_TOKENS = 16
# How near an ask must be to one fact's examples, and how much nearer than to the next one's,
# for that fact to stand out of a tie (cosine similarity, 0-1).
_NEAREST_FLOOR = 0.25
_NEAREST_MARGIN = 1.4

_MAX_CACHE = 4096
# Below this share of an ask's content words, a context fact's words are incidental to it.
SIDE_COVERAGE = 0.2
# A pronoun names a rule's subject only in an ask of at most this many tokens.
MAX_PRONOUN_ASK = 8
_PRONOUNS = frozenset(
    (word,) for word in ("it", "its", "they", "them", "this", "that", "these", "those", "one")
)
# A context fact must cover at least this many content words to take a question from a rule.
_MIN_SIDE_WORDS = 3
# A fired rule gives way to a near sibling only when the sibling's alternative has this many
# groups or more (one short of it is still two groups present) and its present groups cover
# at least NEAR_RULE_OWN content words that no fired fact accounts for.
NEAR_RULE_GROUPS = 3
NEAR_RULE_OWN = 3
# A context fact that fired gives way to a near rule with this many content words of its own.
NEAR_SIDE_OWN = 2


@dataclass(frozen=True)
class Found:
    """A fact an ask fired, with how strongly (groups of the completed alternative)."""

    key: str
    strength: float


@dataclass(frozen=True)
class _Decision:
    """What one ask asks for, touches, fired only incidentally, and the slot conflict if any."""

    asked: list[Found]
    touched: list[Found]
    withheld: list[Found]
    slot: OneSided | None
    rivalled: list[Found]
    near_rules: frozenset[str]


class FactFinder:
    """Decides, for one script, which facts an ask is asking for (see module docstring)."""

    def __init__(self, facts: Sequence[Fact]) -> None:
        self._patterned = [fact for fact in facts if fact.pattern is not None]
        self._index = TermIndex(
            term for fact in self._patterned if fact.pattern for term in fact.pattern.terms()
        )
        rest = [f for f in facts if f.pattern is None and f.triggers]
        self._lexical = (
            LexicalMatcher([FactExamples(f.key, f.triggers, f.requires_any) for f in rest])
            if rest
            else None
        )
        self._order = {fact.key: i for i, fact in enumerate(facts)}
        self._by_key = {fact.key: fact for fact in self._patterned}
        self._owners: dict[Term, list[str]] = {}
        for fact in self._patterned:
            for term in fact.pattern.terms() if fact.pattern else ():
                self._owners.setdefault(term, []).append(fact.key)
        self._rules = {fact.key for fact in facts if fact.target is not None}
        self._sides = {
            fact.key for fact in facts if fact.target is None and fact.misconception is None
        }
        # Facts whose pattern names one slot of an axis only (start, not end): withheld from an
        # ask that names the other (``customer_sim.slots``); designed misconceptions never are.
        self._one_sided = {
            fact.key: sides
            for fact in self._patterned
            if fact.pattern and fact.misconception is None and (sides := one_sided(fact.pattern))
        }
        self._cache: dict[str, _Decision] = {}
        self._examples = [FactExamples(f.key, f.triggers) for f in self._patterned if f.triggers]
        self._nearest: LexicalMatcher | None = None

    def asked(self, text: str) -> list[Found]:
        """Facts the ask asks for, strongest first (ties in script order)."""
        return self._decide(text).asked

    def nearest(self, text: str, keys: Sequence[str]) -> str | None:
        """Of ``keys`` (facts an ask touches equally), the one whose example questions the ask
        is clearly nearest to, or None when none stands out.

        Group counts cannot tell "Is there a height limit?" (the chiller limit's question)
        from the heavy-pallet rule whose pattern also has a height and a limit; the authors'
        example questions can: the first is worded like one of the chiller limit's.
        """
        if self._nearest is None and self._examples:
            self._nearest = LexicalMatcher(self._examples)
        if self._nearest is None:
            return None
        wanted = set(keys)
        ranked = [m for m in self._nearest.similarities(text) if m.key in wanted]
        if not ranked or ranked[0].score < _NEAREST_FLOOR:
            return None
        runner_up = ranked[1].score if len(ranked) > 1 else 0.0
        return ranked[0].key if ranked[0].score >= _NEAREST_MARGIN * runner_up else None

    def touched(self, text: str) -> list[Found]:
        """Facts whose subject the ask names without asking for them, most touched first."""
        return self._decide(text).touched

    def other_slot(self, text: str) -> OneSided | None:
        """When a fact was withheld because the ask names the other slot of a sibling pair
        (the end, where the fact speaks of the start): which slots (``customer_sim.slots``)."""
        return self._decide(text).slot

    def withheld(self, text: str) -> list[Found]:
        """Facts the ask fired only by incidental words (see the module docstring): a context
        fact grazed by a rule's question, a rule grazed by a question a context fact answers.
        They are not asked for, so a side answer never stands for the one asked. Also the
        facts withheld because the ask names the other slot of a sibling pair."""
        return self._decide(text).withheld

    def rivalled(self, text: str) -> list[Found]:
        """The fired facts withheld because a rule one group short of firing may be what the
        ask is about (a subset of ``withheld``)."""
        return self._decide(text).rivalled

    def near_rules(self, text: str) -> frozenset[str]:
        """The rules one group short of firing that made the ask withhold what it fired."""
        return self._decide(text).near_rules

    def _decide(self, text: str) -> _Decision:
        if text not in self._cache:
            if len(self._cache) >= _MAX_CACHE:
                self._cache.clear()
            self._cache[text] = self._compute(text)
        return self._cache[text]

    def _compute(self, text: str) -> _Decision:
        # What the ask sets aside ("Besides X, ...") is not what it asks about.
        aside = set_aside(text)
        tokens = tokens_of(aside)
        starts = self._index.starts(tokens)
        if len(tokens) > MAX_PRONOUN_ASK:
            # "it" is what the conversation is about only in a short follow-up; in a longer
            # ask that names its own subjects, it refers to one of them.
            starts = {t: p for t, p in starts.items() if t.words not in _PRONOUNS}
        positions = {
            term: {i for start in where for i in range(start, start + len(term.words))}
            for term, where in starts.items()
        }
        found_terms = set(positions)
        # Column names count whole, and a name the ask is about decides what it asks.
        names = names_in(aside, tokens)
        about = name_asked_about(tokens, names)
        if about is not None and about in filter_names(aside, tokens):
            about = None  # "storage_class AMB pallets": the ask is about those pallets
        asked: list[Found] = []
        near: list[Found] = []
        for fact in self._patterned:
            assert fact.pattern is not None
            fired = strength(fact.pattern, found_terms)
            if fired and names:
                fired = strength_with_names(fact.pattern, starts, names, about)
            if fired:
                asked.append(Found(fact.key, float(fired)))
            elif touched := touches(fact.pattern, found_terms):
                near.append(Found(fact.key, float(touched)))
        withheld = self._withheld(asked, tokens, positions)
        # A sibling's slot: the ask names the end, the fact speaks of the start only.
        slot: OneSided | None = None
        for found in asked:
            sides = self._one_sided.get(found.key)
            conflict = other_slot(sides, tokens) if sides else None
            if conflict is not None and found not in withheld:
                withheld.append(found)
                slot = slot or conflict
        asked = [found for found in asked if found not in withheld]
        rivalled, near_rules = self._rivalled(text, asked, withheld, found_terms, positions, tokens)
        withheld += rivalled
        asked = [found for found in asked if found not in rivalled]
        if self._lexical is not None:
            asked.extend(Found(m.key, m.score) for m in self._lexical.match(text))
        return _Decision(
            self._ranked(asked), self._ranked(near), withheld, slot, rivalled, near_rules
        )

    def evidence(self, text: str, key: str) -> set[int]:
        """The content words (token positions) of the ask that fire ``key``'s pattern: those
        of its complete alternatives; empty when it does not fire on the ask alone."""
        fact = self._by_key.get(key)
        if fact is None or fact.pattern is None:
            return set()
        tokens = tokens_of(set_aside(text))
        positions = self._index.positions(tokens)
        found = set(positions)
        content = _content_positions(tokens)
        words: set[int] = set()
        for alternative in fact.pattern.asks:
            if all(any(term in found for term in group) for group in alternative):
                for term in (t for group in alternative for t in group if t in positions):
                    words |= positions[term] & content
        return words

    def coverage(self, text: str, key: str) -> tuple[list[str], list[str]]:
        """The ask's content words that ``key``'s pattern terms cover, and those they do not:
        what an ask that fired nothing says of that fact's subject, and what else it asks."""
        tokens = tokens_of(set_aside(text))
        content = _content_positions(tokens)
        words: set[int] = set()
        for term, where in self._index.positions(tokens).items():
            if key in self._owners.get(term, ()):
                words |= where & content
        return [tokens[i] for i in sorted(words & content)], [
            tokens[i] for i in sorted(content - words)
        ]

    def _withheld(
        self, asked: list[Found], tokens: list[str], positions: dict[Term, set[int]]
    ) -> list[Found]:
        """The fired facts that only graze what the ask is about (see the module docstring):
        a context fact incidental to a rule's question, and a rule incidental to a question a
        context fact answers more fully."""
        fired = {found.key for found in asked}
        if not fired & self._sides:
            return []
        content = _content_positions(tokens)
        covered: dict[str, set[int]] = {}
        for term, where in positions.items():
            for key in self._owners.get(term, ()):
                covered.setdefault(key, set()).update(where & content)
        rule = max((len(covered[k]) for k in self._rules - fired if k in covered), default=0)
        sides = [covered.get(key, set()) for key in fired & self._sides]
        withheld = []
        for found in asked:
            mine = covered.get(found.key, set())
            if found.key in self._sides:
                incidental = len(mine) < SIDE_COVERAGE * len(content) and rule > len(mine)
            else:
                incidental = found.key in self._rules and any(
                    len(side) > max(len(mine), _MIN_SIDE_WORDS - 1) and side & mine
                    for side in sides
                )
            if incidental:
                withheld.append(found)
        return withheld

    def _rivalled(
        self,
        text: str,
        asked: list[Found],
        withheld: list[Found],
        found_terms: set[Term],
        positions: dict[Term, set[int]],
        tokens: list[str],
    ) -> tuple[list[Found], frozenset[str]]:
        """The fired facts a rule that did not fire may be what the ask is about (see the
        module docstring, "a near rule"): withheld, so a miss gets an honest ask-back instead
        of a sibling's answer stated as if it were the one asked."""
        if not asked:
            return [], frozenset()
        content = _content_positions(tokens)
        evidence = {
            found.key: _evidence(self._by_key[found.key].pattern, found_terms, positions) & content
            for found in asked
            if found.key in self._by_key
        }
        explained = set().union(*evidence.values()) if evidence else set()
        shut = {found.key for found in (*asked, *withheld)}
        rivals = [
            near
            for key in sorted(self._rules - shut)
            if (near := _near_rule(self._by_key.get(key), found_terms, positions, content))
            and near.words - explained
        ]
        if not rivals:
            return [], frozenset()
        rivalled = []
        for found in asked:
            fact = self._by_key.get(found.key)
            if fact is None or fact.misconception is not None:
                continue
            mine = evidence.get(found.key, set())
            if found.key in self._rules:
                # a rule gives way only to a sibling on its own subject (they share words) that
                # explains more of the ask, with words of its own, one group short of firing
                beaten = any(
                    near.size >= NEAR_RULE_GROUPS
                    and len(near.words) > len(mine)
                    and near.words & mine
                    and len(near.words - explained) >= NEAR_RULE_OWN
                    for near in rivals
                )
            else:
                # background never stands in for a rule the ask nearly asks for in two or more
                # words of its own - unless the ask is worded like the background's own
                # examples, clearly more than like the rules', in a short plain question ("how
                # fast can the battery charge?" is the power rating's, whatever the SoC rules
                # nearly fire on)
                strong = [near for near in rivals if len(near.words - explained) >= NEAR_SIDE_OWN]
                beaten = bool(strong) and (
                    len(tokens) > PLAIN_ASK_TOKENS
                    or self.nearest(text, [found.key, *(near.key for near in strong)]) != found.key
                )
            if beaten:
                rivalled.append(found)
        return rivalled, frozenset(near.key for near in rivals) if rivalled else frozenset()

    def _ranked(self, found: list[Found]) -> list[Found]:
        return sorted(found, key=lambda f: (-f.strength, self._order[f.key]))


@dataclass(frozen=True)
class _Near:
    """A rule one group short of an alternative: the alternative's size and the content words
    its present groups cover."""

    key: str
    size: int
    words: frozenset[int]


def _near_rule(
    fact: Fact | None, found_terms: set[Term], positions: dict[Term, set[int]], content: set[int]
) -> _Near | None:
    """The largest alternative of a rule's pattern that the ask completes but for one group
    (none when a veto of the rule is present: a veto is an authored sibling contrast)."""
    if fact is None or fact.pattern is None:
        return None
    pattern = fact.pattern
    if any(not found_terms.isdisjoint(group) for group in pattern.unless):
        return None
    best: _Near | None = None
    for alternative in pattern.asks:
        present = [group for group in alternative if not found_terms.isdisjoint(group)]
        if len(alternative) < 2 or len(present) != len(alternative) - 1:
            continue
        words = {i for group in present for t in group if t in positions for i in positions[t]}
        near = _Near(fact.key, len(alternative), frozenset(words & content))
        if best is None or near.size > best.size:
            best = near
    return best


def _evidence(
    pattern: AskPattern | None, found_terms: set[Term], positions: dict[Term, set[int]]
) -> set[int]:
    """Token positions of the terms of a pattern's complete alternatives."""
    words: set[int] = set()
    if pattern is None:
        return words
    for alternative in pattern.asks:
        if all(not found_terms.isdisjoint(group) for group in alternative):
            for term in (t for group in alternative for t in group if t in positions):
                words |= positions[term]
    return words


def _content_positions(tokens: list[str]) -> set[int]:
    """Positions of the words that say what an ask is about (not its phrasing or figures)."""
    return {
        i
        for i, token in enumerate(tokens)
        if token not in STOPWORDS and token not in FRAMING and not token[:1].isdigit()
    }
