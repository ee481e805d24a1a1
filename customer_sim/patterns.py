"""Ask patterns: when does a question ask for a fact (or a clarification target)?

Why patterns and not similarity alone: outside testers' questions share far fewer words with an
author's example questions than the author's own paraphrases do, and a similarity score cannot
tell "asks for the rule" from "touches its topic" (both share the topic's words). A pattern says
what a question must name to ask for the rule: the rule's *subject* and the *aspect* the rule
settles ("efficiency" and "round trip / per direction / how much comes back"), each as a set of
synonyms. Near misses name the subject but not the aspect ("does the efficiency drop in the
heat?"), so they do not fire; paraphrases fire as long as the synonym sets cover their words,
which an author can check against questions they did not write.

Format (``match`` in ``gt.json`` targets and ``customer.json`` facts, documented in
``cases/README.md``)::

    "match": {
      "asks":   [["@efficiency", "round trip|one way|per direction|each way"],
                 ["@efficiency", "how much", "back|out"]],
      "unless": ["degrad*|temperature"]
    }

``asks`` is a list of alternatives; an alternative fires when every one of its groups is present.
A group is ``|``-separated terms: words or phrases matched by stem ("charges" meets "charge"),
a trailing ``*`` matching any word that starts so ("discharg*"), or ``@name`` for a named
concept (``concepts`` at the top of ``gt.json`` or ``customer.json``, or one of ``BUILTIN``).
``unless`` groups veto the pattern (a sibling rule's aspect). Phrases skip articles, so "end of
day" meets "end of the day"; single words of five letters or more tolerate one typo. A ``#`` in
a term stands for any number, so ``# kw`` meets "550 kW", "582.1 kW" and "550kW": a scenario
that names a figure in a column's unit names that column's subject.

Everything here is deterministic and cheap: a question is tokenised once and every pattern's
terms are looked up in it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple

from customer_sim.text import raw_tokens, stem, within_one_edit

# Domain-neutral concepts any case may use. Sector words belong in the case's own concepts.
BUILTIN: dict[str, str] = {
    "limit": (
        "limit|max|cap|ceiling|upper|at most|no more than|exceed*|threshold|bound|"
        "how high|how many|how much|how far|how heavy|how big|restrict*|allow|rule|"
        "constraint|most"
    ),
    "rule": (
        "rule|policy|requirement|regulation|restrict*|constraint|allow|forbid*|prohibit*|"
        "can i|could i|may i|can we|could we|may we|is it ok|ok to|fine to|must|have to|"
        "need to|supposed to|should|mandatory|banned|never|only"
    ),
    "permission": (
        "can i|could i|may i|can we|could we|may we|can it|could it|is it ok|ok to|fine to|"
        "allow|acceptable|alright|all right|permissible|forbid*|prohibit*|banned|legal|"
        "would that be|is that ok|problem if|what happens if|what if|any issue|any problem"
    ),
    "how_much": "how much|how many|how high|how low|what value|what level|what amount|which value",
    "unit_of": "unit|units|measured in|in what|which unit|kg|kilogram|pound*|lb|lbs|tonne*|gram*",
    "time_zone": "utc|gmt|time zone|timezone|local time|local|cest|cet|offset|dst|summer time",
    "meaning": "mean|meaning|stand for|represent*|refer to|defin*|interpret*|what is|what are",
    "goal": (
        "goal|objective|optimi*|minimi*|maximi*|target|kpi|metric|score*|judg*|evaluat*|"
        "measur*|assess*|rank*|success|good result|best|priorit*|trade off|tradeoff|"
        "matter* more|more important|what counts"
    ),
    "start": "start|begin*|initial|first|opening|morning|midnight|00:00|currently|right now",
    "end": "end|finish*|final|last|close|closing|evening|by midnight|24:00|hand over|handover",
    "wrong": "wrong|error*|incorrect|out of date|outdated|stale|old|typo|mistake|inaccura*",
}

# What ``#`` in a term becomes: a word no text has, matched by any number (``_word_matches``).
NUMBER = "0number0"
_NUMERIC = re.compile(r"^[0-9]+(?:\.[0-9]+)?$")
# A number glued to its unit ("550kw", "772.5kg", "2h"): read as the number and the unit.
_GLUED_UNIT = re.compile(r"^([0-9]+(?:\.[0-9]+)?)([a-z]{1,4})$")

# Words a phrase may have in between without changing what it says.
_FILLER = frozenset({"the", "a", "an", "of", "our", "your", "my", "its", "their", "this", "that"})
_MIN_TYPO = 5
# A word of four letters is read as a typo only for two swapped neighbours ("teir" for "tier").
_MIN_SWAP = 4
_MIN_SUBSTITUTION = 7


class PatternError(ValueError):
    """A ``match`` specification or a concept cannot be read (the message names where)."""


class Term(NamedTuple):
    """One term of a group: its words (folded, fillers dropped) and whether the last is a prefix.

    A named tuple, not a dataclass: matching looks terms up in sets millions of times, and a
    tuple hashes in C where a dataclass runs a Python ``__hash__`` per lookup (measured: about
    half of the customer's matching time)."""

    words: tuple[str, ...]
    prefix: bool

    def __str__(self) -> str:
        return " ".join(self.words) + ("*" if self.prefix else "")


Group = tuple[Term, ...]


@dataclass(frozen=True)
class AskPattern:
    """A fact's pattern: alternatives of groups that must all be present, and veto groups."""

    asks: tuple[tuple[Group, ...], ...]
    unless: tuple[Group, ...] = ()

    def terms(self) -> set[Term]:
        groups = [g for alternative in self.asks for g in alternative] + list(self.unless)
        return {term for group in groups for term in group}

    @cached_property
    def ask_terms(self) -> frozenset[Term]:
        """Every term of every alternative: a question that has none of them cannot fire or
        touch the pattern, which settles most patterns for a message in one set operation."""
        return frozenset(
            term for alternative in self.asks for group in alternative for term in group
        )


# A comparison written as a formula ("P_grid >= 0", "soc <= 0.9", "import < 0") reads as its
# words, so a constraint a player writes in maths names the same aspect as one in prose.
_AT_LEAST = re.compile(r"\s*(?:>=|\u2265)\s*")
_AT_MOST = re.compile(r"\s*(?:<=|\u2264)\s*")
_ABOVE = re.compile(r"(?<![<>=-])\s*>\s*(?=[-+]?[0-9])")
_BELOW = re.compile(r"\s*<(?![<=>-])\s*(?=[-+]?[0-9])")


# "lots of moves", "a lot of pallets" mean many, not production lots ("two lots of SKU X" are).
_LOTS_OF = re.compile(
    r"\b(?:a\s+lot|(?<!two )(?<!three )(?<!several )(?<!multiple )(?<!different )"
    r"(?<![0-9] )lots)\s+of\b",
    re.IGNORECASE,
)


def _operators_as_words(text: str) -> str:
    if not any(sign in text for sign in "<>\u2264\u2265"):
        return text
    text = _AT_LEAST.sub(" at least ", text)
    text = _AT_MOST.sub(" at most ", text)
    text = _ABOVE.sub(" above ", text)
    return _BELOW.sub(" below ", text)


_MINUTES = frozenset({"min", "mins"})


# "going to" before a verb is the future ("I'm going to stack four high"), not a movement to a
# place: read as "will", so it cannot stand for where a pallet goes.
_GOING_TO = re.compile(
    r"\bgoing\s+to\s+(?=[a-z]+\b)(?!(?:the|a|an|my|our|your|their|its|this|that|these|those|"
    r"lane|lanes|slot|slots|level|levels|tier|position|bay|floor|top|bottom)\b)",
    re.IGNORECASE,
)


def tokens_of(text: str) -> list[str]:
    """The tokens patterns are matched against: folded, canonicalised, without fillers; a
    number glued to its unit is two tokens ("550kw" is "550 kw"); a comparison sign reads as
    its words (">= 0" is "at least 0"); "min" after a number is minutes ("15-min import")."""
    tokens: list[str] = []
    if "lot" in text.lower():
        text = _LOTS_OF.sub("many", text)
    if "going" in text.lower():
        text = _GOING_TO.sub("will ", text)
    for token in raw_tokens(_operators_as_words(text).replace("-", " ")):
        if token in _FILLER:
            continue
        glued = _GLUED_UNIT.match(token)
        for part in glued.groups() if glued else (token,):
            # "15 min", "15-min", "15min": minutes, not a minimum
            if part in _MINUTES and tokens and _NUMERIC.match(tokens[-1]):
                part = "minutes"
            tokens.append(part)
    return tokens


def parse_pattern(
    spec: Any, concepts: Mapping[str, str] | None = None, *, where: str = "match"
) -> AskPattern:
    """Read a ``match`` specification; concepts are resolved here, so a pattern stands alone."""
    resolver = _Concepts(concepts or {}, where)
    if not isinstance(spec, Mapping):
        raise PatternError(f"{where}: must be an object with an `asks` list")
    asks = spec.get("asks")
    if not isinstance(asks, list) or not asks:
        raise PatternError(f"{where}: `asks` must be a non-empty list of lists of groups")
    alternatives = []
    for index, alternative in enumerate(asks):
        if not isinstance(alternative, list) or not alternative:
            raise PatternError(f"{where}: asks[{index}] must be a non-empty list of groups")
        alternatives.append(tuple(resolver.group(g, f"asks[{index}]") for g in alternative))
    unless = spec.get("unless", [])
    if not isinstance(unless, list):
        raise PatternError(f"{where}: `unless` must be a list of groups")
    vetoes = tuple(resolver.group(g, "unless") for g in unless)
    return AskPattern(asks=tuple(alternatives), unless=vetoes)


class _Concepts:
    """Resolves ``@name`` references (case concepts first, then ``BUILTIN``), catching cycles."""

    def __init__(self, concepts: Mapping[str, str], where: str) -> None:
        self._concepts = {**BUILTIN, **concepts}
        self._where = where

    def group(self, raw: Any, where: str) -> Group:
        if not isinstance(raw, str) or not raw.strip():
            raise PatternError(f"{self._where}: {where}: a group must be a non-empty string")
        terms = self._expand(raw, where, ())
        if not terms:
            raise PatternError(f"{self._where}: {where}: group {raw!r} has no words")
        return tuple(dict.fromkeys(terms))

    def _expand(self, raw: str, where: str, seen: tuple[str, ...]) -> list[Term]:
        terms: list[Term] = []
        for alternative in raw.split("|"):
            alternative = alternative.strip()
            if alternative.startswith("@"):
                name = alternative[1:]
                if name not in self._concepts:
                    raise PatternError(f"{self._where}: {where}: unknown concept @{name}")
                if name in seen:
                    raise PatternError(f"{self._where}: concept @{name} refers to itself")
                terms.extend(self._expand(self._concepts[name], where, (*seen, name)))
            elif alternative:
                spaced = re.sub(r"#", f" {NUMBER} ", alternative.rstrip("*"))
                words = tuple(tokens_of(spaced))
                if words:
                    terms.append(Term(words, alternative.endswith("*")))
        return terms


# Fillers whose loss changes what a phrase names ("this month" is not any month, "part of" is not
# any part); articles are not among them ("end of the day" is still the end of the day).
_MEANINGFUL_FILLERS = _FILLER - {"the", "a", "an"}


def collapsed_terms(document: Any) -> list[str]:
    """Terms of a ``gt.json`` or ``customer.json`` document that phrase matching reads as one
    bare word, because the other words are fillers skipped in phrases ("your drivers" matches
    every "drivers", "this month" every "month"): a pattern that fires far wider than written.
    One line per term, naming where it is."""
    found: list[str] = []
    for where, group in _groups_of(document):
        for raw in group.split("|"):
            term = raw.strip()
            if not term or term.startswith("@"):
                continue
            words = raw_tokens(re.sub(r"#", f" {NUMBER} ", term.rstrip("*")))
            kept = [w for w in words if w not in _FILLER]
            if len(words) > 1 and len(kept) == 1 and set(words) & _MEANINGFUL_FILLERS:
                found.append(f"{where}: {term!r} matches every {kept[0]!r}")
    return list(dict.fromkeys(found))


def _groups_of(document: Any) -> Iterable[tuple[str, str]]:
    if not isinstance(document, Mapping):
        return
    concepts = document.get("concepts")
    if isinstance(concepts, Mapping):
        for name, value in concepts.items():
            if isinstance(value, str):
                yield f"concept @{name}", value
    for kind in ("targets", "facts"):
        for entry in document.get(kind) or []:
            match = entry.get("match") if isinstance(entry, Mapping) else None
            if not isinstance(match, Mapping):
                continue
            where = f"{kind[:-1]} `{entry.get('key')}`"
            for alternative in match.get("asks") or []:
                for group in alternative if isinstance(alternative, list) else []:
                    if isinstance(group, str):
                        yield where, group
            for group in match.get("unless") or []:
                if isinstance(group, str):
                    yield f"{where} (unless)", group


def read_concepts(document: Any, where: str) -> dict[str, str]:
    """The ``concepts`` object of a ``gt.json`` or ``customer.json`` document (may be absent)."""
    raw = document.get("concepts", {}) if isinstance(document, Mapping) else {}
    if not isinstance(raw, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) and v.strip() for k, v in raw.items()
    ):
        raise PatternError(f"{where}: `concepts` must map names to '|'-separated terms")
    return dict(raw)


class TermIndex:
    """Finds which terms of many patterns occur in a text, in one pass over its tokens.

    Built once per script; ``present(tokens)`` returns the set of terms found. Exact words are
    looked up by stem, prefixes by scanning the (few) prefix terms, and an unknown word of five
    letters or more is read as the known word one typo away when there is exactly one.
    """

    def __init__(self, terms: Iterable[Term]) -> None:
        self._by_stem: dict[str, list[Term]] = {}
        self._prefixed: list[Term] = []
        self._numbered: list[Term] = []  # terms that open with a number ("# kw")
        for term in set(terms):
            if term.words[0] == NUMBER:
                self._numbered.append(term)
            elif term.prefix and len(term.words) == 1:
                self._prefixed.append(term)
            else:
                self._by_stem.setdefault(_stem(term.words[0]), []).append(term)
        long_stems = [s for s in self._by_stem if len(s) >= _MIN_TYPO - 1 and s.isalpha()]
        # The words as written too: "incme" is one typo from "income", not from its stem "incom".
        long_words = {
            term.words[0]: _stem(term.words[0])
            for terms in self._by_stem.values()
            for term in terms
            if len(term.words[0]) >= _MIN_SWAP and term.words[0].isalpha()
        }
        self._long_stems_by_letter: dict[str, list[str]] = {}
        for long_stem in long_stems:
            self._long_stems_by_letter.setdefault(long_stem[0], []).append(long_stem)
        self._long_words_by_letter: dict[str, list[tuple[str, str]]] = {}
        for word, word_stem in long_words.items():
            self._long_words_by_letter.setdefault(word[0], []).append((word, word_stem))
        self._typos: dict[str, str | None] = {}
        self._prefix_hits: dict[str, tuple[Term, ...]] = {}

    def present(self, tokens: Sequence[str]) -> set[Term]:
        found: set[Term] = set()
        for position, token in enumerate(tokens):
            terms, checked = self._starting_with(token)
            for term in terms:
                if _matches_at(term, tokens, position, checked):
                    found.add(term)
            found.update(self._prefixes_of(token))
            if self._numbered and _NUMERIC.match(token):
                found.update(t for t in self._numbered if _matches_at(t, tokens, position))
        return found

    def positions(self, tokens: Sequence[str]) -> dict[Term, set[int]]:
        """The terms found (as ``present``) with the token positions each covers."""
        return {
            term: {i for start in starts for i in range(start, start + len(term.words))}
            for term, starts in self.starts(tokens).items()
        }

    def starts(self, tokens: Sequence[str]) -> dict[Term, set[int]]:
        """The terms found (as ``present``) with the token positions each occurrence starts at
        (an occurrence covers ``len(term.words)`` tokens from there)."""
        found: dict[Term, set[int]] = {}
        for position, token in enumerate(tokens):
            terms, checked = self._starting_with(token)
            for term in terms:
                if _matches_at(term, tokens, position, checked):
                    found.setdefault(term, set()).add(position)
            for term in self._prefixes_of(token):
                found.setdefault(term, set()).add(position)
            if self._numbered and _NUMERIC.match(token):
                for term in self._numbered:
                    if _matches_at(term, tokens, position):
                        found.setdefault(term, set()).add(position)
        return found

    def _prefixes_of(self, token: str) -> tuple[Term, ...]:
        """The one-word prefix terms a token matches (cached: a word's answer never changes)."""
        hits = self._prefix_hits.get(token)
        if hits is None:
            if len(self._prefix_hits) > 20000:  # bounded memory for a long-lived process
                self._prefix_hits.clear()
            hits = tuple(t for t in self._prefixed if _word_matches(token, t.words[0], prefix=True))
            self._prefix_hits[token] = hits
        return hits

    def _starting_with(self, token: str) -> tuple[list[Term], int]:
        """The terms whose first word may be ``token``, and how many of their words that
        already settles: 1 when the stems are equal (``_word_matches`` holds for a first word,
        never a prefix), 0 when the token was read as a typo and is still to be checked."""
        key = _stem(token)
        if key in self._by_stem:
            return self._by_stem[key], 1
        corrected = self._typo_of(token)
        return (self._by_stem.get(corrected, []) if corrected else []), 0

    def _typo_of(self, token: str) -> str | None:
        if len(token) < _MIN_SWAP or not token.isalpha():
            return None
        if token not in self._typos:
            key = _stem(token)
            # is_typo wants the same first letter, so only stems and words that start with the
            # token's (or its stem's) letter can be one typo away.
            stems = self._long_stems_by_letter.get(token[0], ())
            if key[:1] != token[0]:
                stems = [*stems, *self._long_stems_by_letter.get(key[:1], ())]
            near = [s for s in stems if is_typo(key, s) or is_typo(token, s)]
            words = self._long_words_by_letter.get(token[0], ())
            near += [s for w, s in words if is_typo(token, w) and s not in near]
            if len(self._typos) > 20000:  # bounded memory for a long-lived process
                self._typos.clear()
            self._typos[token] = near[0] if len(near) == 1 else None
        return self._typos[token]


def _stem(word: str) -> str:
    return stem(word)


def is_typo(word: str, known: str) -> bool:
    """Is ``word`` a plausible typo of ``known``? One dropped, doubled or swapped letter in a
    word of five letters or more, two neighbours swapped in a word of four ("teir", "paek"),
    or one wrong letter in a word of seven or more, never in the first letter: "effciency",
    "capcity" and "recieve" are typos, while "stock"/"stack", "weight"/"height",
    "pound"/"found" and "matter"/"master" are other words."""
    if word == known or len(word) < _MIN_SWAP or len(known) < _MIN_SWAP:
        return False
    if word[0] != known[0] or not within_one_edit(word, known):
        return False
    short = min(len(word), len(known)) < _MIN_TYPO
    if len(word) != len(known):
        return not short
    diffs = [i for i, (a, b) in enumerate(zip(word, known, strict=True)) if a != b]
    swapped = len(diffs) == 2 and diffs[1] == diffs[0] + 1
    return swapped or (not short and len(word) >= _MIN_SUBSTITUTION)


def _matches_at(term: Term, tokens: Sequence[str], position: int, checked: int = 0) -> bool:
    """Does ``term`` occur at ``position`` (its first ``checked`` words known to match)?"""
    words = term.words
    if position + len(words) > len(tokens):
        return False
    last = len(words) - 1
    return all(
        _word_matches(tokens[position + i], words[i], prefix=term.prefix and i == last)
        for i in range(checked, len(words))
    )


def _word_matches(token: str, word: str, *, prefix: bool) -> bool:
    if word == NUMBER:
        return bool(_NUMERIC.match(token))
    if prefix:
        if token.startswith(word):
            return True
        return (
            len(word) >= _MIN_TYPO
            and token[:1] == word[:1]
            and any(is_typo(token[:width], word) for width in (len(word) - 1, len(word) + 1))
        )
    if token == word:
        return True
    token_stem, word_stem = _stem(token), _stem(word)
    if token_stem == word_stem:
        return True
    # is_typo wants the same first letter: most pairs fail here without a call.
    return token.isalpha() and (
        (token[0] == word[0] and is_typo(token, word))
        or (token_stem[:1] == word_stem[:1] and is_typo(token_stem, word_stem))
    )


def strength(pattern: AskPattern, found: set[Term]) -> int:
    """How strongly the present terms fire ``pattern``: 0 when no alternative is complete or a
    veto is present, else the number of groups of the largest complete alternative."""
    if found.isdisjoint(pattern.ask_terms) or any(_has(group, found) for group in pattern.unless):
        return 0
    complete = [len(alt) for alt in pattern.asks if all(_has(group, found) for group in alt)]
    return max(complete, default=0)


def touches(pattern: AskPattern, found: set[Term]) -> int:
    """How many groups of the pattern's best alternative are present (topic without the ask)."""
    if found.isdisjoint(pattern.ask_terms):
        return 0
    return max((sum(_has(group, found) for group in alt) for alt in pattern.asks), default=0)


def _has(group: Group, found: set[Term]) -> bool:
    return not found.isdisjoint(group)


__all__ = [
    "BUILTIN",
    "AskPattern",
    "PatternError",
    "Term",
    "TermIndex",
    "parse_pattern",
    "read_concepts",
    "strength",
    "tokens_of",
    "touches",
]
