"""Deciding which script facts a question actually asks for.

The scripted customer only knows its facts' example questions (``triggers``). A matcher turns a
question unit into the facts it asks for, and must say "none" for questions that merely touch a
fact's topic: disclosing on topic alone would let a player sweep the script with vague
questions, which is exactly what the clarification metrics must not reward.

Interface: a matcher is built from ``FactExamples`` and answers ``match(unit)`` with the accepted
facts, best first (``scores`` gives every fact's score, for diagnostics and benchmarks).
``MATCHERS`` maps a name to a factory, so another matcher plugs in without touching the
customer. The default is ``LexicalMatcher`` (light, offline, deterministic). An embedding
matcher (e.g. sentence-transformers with all-MiniLM-L6-v2, not installed here) would be a class
in its own module with the same two methods and its own calibrated threshold, registered with
``register_matcher("embedding", factory)``; nothing else changes.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer

from customer_sim.concepts import concept
from customer_sim.text import (
    STOPWORDS,
    has_stem_parts,
    raw_tokens,
    stem_parts,
    stems_of,
    within_one_edit,
)


@dataclass(frozen=True)
class FactExamples:
    """What a matcher knows about one fact: its key, example questions and gate stems."""

    key: str
    triggers: tuple[str, ...]
    requires_any: tuple[str, ...] = ()


@dataclass(frozen=True)
class Match:
    key: str
    score: float


class Matcher:
    """Base of all matchers: the two questions the customer asks of one."""

    def scores(self, unit: str) -> list[Match]:
        """Every fact that passes its gate with its similarity to ``unit``, best first."""
        raise NotImplementedError

    def match(self, unit: str) -> list[Match]:
        """The facts ``unit`` asks for, best first (usually none or one)."""
        raise NotImplementedError


MatcherFactory = Callable[[Sequence[FactExamples]], Matcher]


@dataclass(frozen=True)
class LexicalSettings:
    """Knobs of the lexical matcher, calibrated on the three cases' matching benchmarks.

    ``threshold``: the score a unit needs to disclose a fact. Below ``confident``, two more
    conditions apply: the unit shares at least ``min_evidence`` distinct words (or synonyms)
    with the fact's examples, or is made only of such words (at least two); and the best fact
    leads the runner-up by ``margin`` (a tie means we cannot tell which fact is meant). The
    evidence rule is what keeps near misses out; on the benchmarks any threshold from 0.20 to
    0.30 gives the same leak rate, and 0.27 sits inside the range where accuracy is flat.
    ``char_weight`` blends character n-grams (typos, word forms) with word n-grams (word
    order, phrases). ``oov_weight`` scales how much words unknown to every trigger dilute the
    similarity. ``centroid_weight`` mixes the similarity to the fact's trigger centroid into
    the nearest-trigger one (it did not help on the benchmarks, hence 0). ``min_clause_stems``:
    how long a clause ("... and ...") must be to be matched on its own. ``use_concepts``
    switches the synonym groups of ``concepts.py``.
    """

    threshold: float = 0.27
    margin: float = 0.01
    confident: float = 0.55
    char_weight: float = 0.5
    oov_weight: float = 0.6
    centroid_weight: float = 0.0
    use_concepts: bool = True
    min_clause_stems: int = 2
    min_evidence: int = 3


class _Space:
    """One TF-IDF feature space (words or characters) with out-of-vocabulary aware queries.

    IDF is fitted on one document per fact (its triggers joined), so a word that every trigger
    of one fact uses is a strong signal, and a word all facts share is a weak one.
    """

    def __init__(
        self,
        vectorizer: TfidfVectorizer,
        fact_docs: list[str],
        triggers: list[str],
        owner: np.ndarray,
    ):
        vectorizer.fit(fact_docs)
        self._analyse = vectorizer.build_analyzer()
        self._vocabulary: dict[str, int] = vectorizer.vocabulary_
        self._idf: np.ndarray = vectorizer.idf_
        self.oov_idf = math.log(len(fact_docs) + 1) + 1.0
        rows = _unit_rows(np.vstack([self._weights(t, oov_weight=0.0)[0] for t in triggers]))
        centroids = np.vstack([rows[owner == i].sum(axis=0) for i in range(len(fact_docs))])
        # One matrix: trigger rows first, then one centroid row per fact.
        self._rows = np.vstack([rows, _unit_rows(centroids)])

    def _weights(self, text: str, *, oov_weight: float) -> tuple[np.ndarray, float]:
        vector = np.zeros(len(self._vocabulary))
        oov_mass = 0.0
        for term, count in Counter(self._analyse(text)).items():
            tf = 1.0 + math.log(count)
            index = self._vocabulary.get(term)
            if index is None:
                oov_mass += (tf * self.oov_idf * oov_weight) ** 2
            else:
                vector[index] = tf * self._idf[index]
        return vector, oov_mass

    def similarities(self, text: str, *, oov_weight: float) -> np.ndarray:
        """Cosine of ``text`` with every trigger, then with every fact's centroid.

        Terms no trigger uses still count in the query's norm, so a long question that shares
        one word with a trigger is not mistaken for that trigger.
        """
        vector, oov_mass = self._weights(text, oov_weight=oov_weight)
        norm = math.sqrt(float(vector @ vector) + oov_mass)
        if norm == 0:
            return np.zeros(self._rows.shape[0])
        result: np.ndarray = self._rows @ (vector / norm)
        return result


def _unit_rows(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    result: np.ndarray = matrix / np.where(norms == 0, 1.0, norms)
    return result


_MAX_CORRECTIONS = 20000  # remembered typo corrections per matcher; a bound on memory


class LexicalMatcher(Matcher):
    """Nearest-trigger TF-IDF similarity over stemmed word n-grams and character n-grams."""

    def __init__(
        self, facts: Sequence[FactExamples], settings: LexicalSettings | None = None
    ) -> None:
        self.facts = list(facts)
        self.settings = settings or LexicalSettings()
        triggers = [t for fact in self.facts for t in fact.triggers]
        self._owner = np.array([i for i, fact in enumerate(self.facts) for _ in fact.triggers])
        # Correction targets: the words the triggers use, and function words (so "tose" is
        # read as "those", not as an unknown word that dilutes the match).
        self._known_words = frozenset(w for t in triggers for w in raw_tokens(t)) | STOPWORDS
        self._corrections: dict[str, str] = {}
        self._gates = {f.key: tuple(stem_parts(w) for w in f.requires_any) for f in self.facts}
        fact_docs = [" . ".join(fact.triggers) for fact in self.facts]
        self._vocabulary = {f.key: self._terms_and_concepts(f.triggers) for f in self.facts}
        self._words = _Space(
            TfidfVectorizer(analyzer=self._word_terms, sublinear_tf=True),
            fact_docs,
            triggers,
            self._owner,
        )
        self._chars = _Space(
            TfidfVectorizer(
                analyzer="char_wb",
                ngram_range=(3, 5),
                preprocessor=self._char_text,
                sublinear_tf=True,
            ),
            fact_docs,
            triggers,
            self._owner,
        )

    def _tokens(self, text: str) -> list[str]:
        return [self._corrected(token) for token in raw_tokens(text)]

    def _stems(self, text: str) -> list[str]:
        return stems_of(self._tokens(text))

    def _corrected(self, word: str) -> str:
        """Read a typo as the known word one edit away from it, when there is exactly one.

        Four-letter words are only corrected for swapped letters ("pirce" is five): one
        substituted letter turns "cost" into "most" too easily.
        """
        if len(word) < 4 or word in self._known_words or not word.isalpha():
            return word
        if word not in self._corrections:
            near = [
                known
                for known in self._known_words
                if abs(len(known) - len(word)) <= 1
                and within_one_edit(word, known)
                and (len(word) >= 5 or sorted(known) == sorted(word))
            ]
            if len(self._corrections) >= _MAX_CORRECTIONS:
                self._corrections.clear()
            self._corrections[word] = near[0] if len(near) == 1 else word
        return self._corrections[word]

    def _enough_evidence(self, text: str, key: str) -> bool:
        """Does ``text`` share enough words (as such or as synonyms) with the fact's examples?

        A question that merely touches a fact's topic shares a word or two with it and brings
        words of its own ("What is the peak load tomorrow?"); one that asks for the fact shares
        at least ``min_evidence`` words, or is short and made only of the fact's words ("are the
        prices in UTC?").
        """
        known = self._vocabulary[key]
        stems = set(self._stems(text))
        shared = sum(1 for s in stems if s in known or concept(s) in known)
        short_and_all_known = shared == len(stems) and shared >= 2
        return shared >= self.settings.min_evidence or short_and_all_known

    def _terms_and_concepts(self, texts: Iterable[str]) -> frozenset[str]:
        stems = {s for text in texts for s in self._stems(text)}
        return frozenset(stems | {c for c in map(concept, stems) if c is not None})

    def _word_terms(self, text: str) -> list[str]:
        stems = self._stems(text)
        terms = stems + [f"{a} {b}" for a, b in itertools.pairwise(stems)]
        if self.settings.use_concepts:
            terms += [c for c in map(concept, stems) if c is not None]
        return terms

    def _char_text(self, text: str) -> str:
        return " ".join(self._stems(text))

    def _similarities(self, unit: str) -> list[Match]:
        """Every fact's score, best first, before the gates."""
        weight = self.settings.oov_weight
        blend = self.settings.char_weight
        combined = (1.0 - blend) * self._words.similarities(
            unit, oov_weight=weight
        ) + blend * self._chars.similarities(unit, oov_weight=weight)
        count = len(self._owner)
        nearest = np.full(len(self.facts), -1.0)
        np.maximum.at(nearest, self._owner, combined[:count])
        centre = self.settings.centroid_weight
        fact_scores = (1.0 - centre) * nearest + centre * combined[count:]
        ranked = [
            Match(fact.key, round(float(fact_scores[i]), 4)) for i, fact in enumerate(self.facts)
        ]
        return sorted(ranked, key=lambda m: (-m.score, m.key))

    def _gated(self, unit: str, limit: int | None = None) -> list[Match]:
        """The best-scoring facts whose gate the unit passes (at most ``limit`` of them).

        Gates are checked lazily from the top, since usually only the first two matter.
        """
        tokens = self._tokens(unit)
        passed: list[Match] = []
        for candidate in self._similarities(unit):
            if _passes_gate(tokens, self._gates[candidate.key]):
                passed.append(candidate)
                if limit is not None and len(passed) >= limit:
                    break
        return passed

    def scores(self, unit: str) -> list[Match]:
        return self._gated(unit)

    def similarities(self, unit: str) -> list[Match]:
        """Every fact's similarity to ``unit``, best first, gates not applied."""
        return self._similarities(unit)

    def match(self, unit: str) -> list[Match]:
        accepted: dict[str, Match] = {}
        for piece in self._pieces(unit):
            for found in self._best(piece):
                if found.key not in accepted:
                    accepted[found.key] = found
        return sorted(accepted.values(), key=lambda m: (-m.score, m.key))

    def _pieces(self, unit: str) -> list[str]:
        """The unit itself, plus its clauses when it strings several asks together."""
        clauses = [c for c in _CLAUSE_BREAK.split(unit) if c and c.strip()]
        if len(clauses) < 2:
            return [unit]
        enough = [c for c in clauses if len(self._stems(c)) >= self.settings.min_clause_stems]
        return [unit, *enough]

    def _best(self, piece: str) -> list[Match]:
        ranked = self._gated(piece, limit=2)
        if not ranked or ranked[0].score < self.settings.threshold:
            return []
        top = ranked[0]
        if top.score >= self.settings.confident:
            return [top]
        # Below the confident level, a one-word question ("Tell me about your trays") only
        # names a topic, and a near tie between two facts means we cannot tell which is meant.
        runner_up = ranked[1].score if len(ranked) > 1 else 0.0
        if not self._enough_evidence(piece, top.key):
            return []
        if top.score - runner_up < self.settings.margin:
            return []
        return [top]


_CLAUSE_BREAK = re.compile(r"[;.!]\s+|,?\s+(?:and also|and|also|plus|as well as)\s+")


def _passes_gate(tokens: list[str], gate: tuple[tuple[str, ...], ...]) -> bool:
    return not gate or any(has_stem_parts(tokens, parts) for parts in gate)


MATCHERS: dict[str, MatcherFactory] = {"lexical": LexicalMatcher}


def register_matcher(name: str, factory: MatcherFactory) -> None:
    """Make another matcher available by name (e.g. an optional embedding matcher)."""
    MATCHERS[name] = factory


def build_matcher(facts: Sequence[FactExamples], name: str = "lexical") -> Matcher:
    try:
        factory = MATCHERS[name]
    except KeyError:
        raise ValueError(f"unknown matcher {name!r}; known: {sorted(MATCHERS)}") from None
    return factory(facts)


__all__ = [
    "MATCHERS",
    "FactExamples",
    "LexicalMatcher",
    "LexicalSettings",
    "Match",
    "Matcher",
    "build_matcher",
    "register_matcher",
]
