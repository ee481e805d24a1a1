"""The default coverage judge: deterministic, offline.

A target with an ask pattern (``match`` in ``gt.json``) is judged by that pattern, the same one
the scripted customer discloses by (``judging.patterned``). The lexical evidence below is the
fallback for targets written before patterns existed.

For each target it decides, unit by unit, whether answering the unit would reveal the
requirement. The evidence is how much of the target's *distinctive* vocabulary a unit uses.

- A target's vocabulary is the stems of its requirement and trigger examples, plus the synonym
  concepts of those stems ("cap" meets "limit") and the acronyms its own texts spell out
  ("SoC" = "state of charge").
- Every stem weighs its IDF over one document per target of the case plus a fixed background of
  generic delivery questions, scaled so the rarest possible term weighs 1. Words every target
  or every engagement uses ("battery", "data", "file", "schedule") weigh little; a target's
  own words weigh close to 1.
- A unit's *evidence* is the summed weight of the distinct target terms it uses (a synonym
  counts a little less than the word itself; a stem that is one typo or one word form away, by
  character n-gram similarity, counts in proportion). A question asking for a person, a
  place or a document, or about the opposite end of something (start versus end), keeps only
  part of its evidence unless the target's own triggers ask that way.

A unit covers the target when its evidence reaches the threshold, which in practice means two
or three of the target's distinctive terms. That is the keyword gate: a question that only
names the topic ("Where is the tariff sheet?", "Does the efficiency drop in the heat?") shares
one or two of them and stays below it, while a question asking for the rule has to name the
topic and the aspect the requirement settles. A long unit is also judged sentence by sentence
(context a player writes before the ask is not the ask), and its best sentence decides.

Fitted state is cached per target set; ``judge_all`` calls ``prepare`` with the case's targets.
A target judged without ``prepare`` is weighed against the background alone (deterministic,
but without the case-level weighting).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer

from judging.base import Judgment, Target, Unit, Vote, first_turn
from judging.patterned import covering_units
from judging.text import OPPOSITES, acronyms, ask_kind, clauses, concepts, expanded_stems

# Questions any engagement produces; they teach the IDF which words are not distinctive.
BACKGROUND = (
    "What format should the output file have?",
    "Which columns does the deliverable need and in what order?",
    "When do you need the result by?",
    "Who should I ask about the data?",
    "Can you send me the missing file?",
    "What do the columns in the data mean?",
    "What units are the values in?",
    "What exactly should I optimise for?",
    "What is the main goal of this request?",
    "Is the data complete and up to date?",
    "How many rows should the file have?",
    "Is there anything else I should know before I start?",
    "Are there any rules or constraints I should respect?",
    "Can I assume the data in the folder is correct?",
    "How will the result be evaluated?",
    "What time period does the data cover?",
    "Which file is the most important one?",
    "Who will use the schedule or plan?",
    "Should I include a header row in the CSV?",
    "What does a good result look like for you?",
    "How often will this be run in the future?",
    "Is there a previous solution or plan I can compare with?",
    "What system will read the file and how?",
    "Can the values be negative or zero?",
    "What is the number of items in the data?",
    "How many rows are in the training file?",
    "Which model or method should I use?",
    "Can I get more test data?",
    "What does each row of the table represent?",
    "Which fields in the csv can I ignore?",
    "Is there a data dictionary for the columns?",
    "What is the deadline for the deliverable?",
    "Who is the contact person for this project?",
    "Is this a one-off analysis or a recurring process?",
    "What level of detail do you want in the output?",
)


@dataclass(frozen=True)
class OfflineSettings:
    """Knobs of the lexical fallback judge (targets without a ``match`` pattern), calibrated on
    the labels the project kept before outside probe sets replaced them.

    ``threshold``: evidence a unit needs (in units of one fully distinctive term);
    ``synonym_weight``: what a synonym is worth relative to the word itself;
    ``fuzzy_min``: character-n-gram cosine at which an unknown stem counts as a target stem;
    ``specificity_power``: how sharply words shared by several targets lose weight;
    ``background_power``: how sharply words of generic delivery questions lose weight;
    ``mismatch_factor``: what is left of the evidence of a question asking the wrong kind of
    thing (a person, a place, a document) or about the opposite end (start versus end);
    ``cache_size``: fitted target sets kept.
    """

    threshold: float = 1.45
    synonym_weight: float = 0.9
    fuzzy_min: float = 0.7
    specificity_power: float = 2.0
    background_power: float = 3.0
    mismatch_factor: float = 0.5
    cache_size: int = 32


@dataclass(frozen=True)
class Evidence:
    """Why a unit (or one sentence of it) scores what it does against one target."""

    score: float
    matched: dict[str, float]
    text: str


class _Profile:
    """One target's vocabulary: the stems of its examples and their synonym concepts."""

    def __init__(self, target: Target, stems_of: Callable[[str], list[str]]) -> None:
        self.stems = {s for text in _examples(target) for s in stems_of(text)}
        self.concepts = {c for stem in self.stems for c in concepts(stem)}
        self.ordered = sorted(self.stems)
        self.ask_kinds = {ask_kind(trigger) for trigger in target.triggers}


class _FittedSet:
    """Everything fitted for one target set: term weights, acronyms, profiles, char space."""

    def __init__(self, targets: Sequence[Target], settings: OfflineSettings) -> None:
        self.settings = settings
        texts = [text for target in targets for text in _examples(target)]
        self.expansions = acronyms(texts)
        target_documents = [" ".join(self._stems(" . ".join(_examples(t)))) for t in targets]
        background = [" ".join(self._stems(q)) for q in BACKGROUND]
        self._fit_weights(target_documents, background)
        self.profiles = {t.key: _Profile(t, self._stems) for t in targets}
        self._vocabulary = sorted({s for p in self.profiles.values() for s in p.stems})
        self._chars = TfidfVectorizer(analyzer="char_wb", ngram_range=(3, 5))
        self._vocabulary_rows = self._chars.fit_transform(self._vocabulary).T.tocsr()
        position = {stem: i for i, stem in enumerate(self._vocabulary)}
        self._columns = {
            key: np.array([position[s] for s in p.ordered]) for key, p in self.profiles.items()
        }
        self._char_similarity: dict[str, np.ndarray] = {}
        self._text_stems: dict[str, list[str]] = {}

    def _stems(self, text: str) -> list[str]:
        return expanded_stems(text, self.expansions)

    def _fit_weights(self, target_documents: list[str], background: list[str]) -> None:
        """Weight every stem and concept by how specific it is to one target.

        Two factors: its IDF across the case's targets (a word several targets share says
        little about which one is asked), sharpened by ``specificity_power``, and its IDF
        across the background questions (a word any engagement uses says little about any
        target). Each factor is scaled so the rarest possible term gets 1.
        """
        across_targets = _scaled_idf(target_documents)
        across_background = _scaled_idf([*background, " ".join(target_documents)])
        power = self.settings.specificity_power
        generic = self.settings.background_power
        self.weights: dict[str, float] = {
            term: value**power * across_background.get(term, 1.0) ** generic
            for term, value in across_targets.items()
        }

    def stems_of(self, texts: Sequence[str]) -> list[list[str]]:
        """Distinct stems of each text; character similarities of new stems computed at once."""
        result = [self._distinct_stems(text) for text in texts]
        new = sorted({s for stems in result for s in stems if _fuzzy_candidate(s)})
        new = [s for s in new if s not in self._char_similarity]
        if new and self.settings.fuzzy_min <= 1.0:
            similarities = (self._chars.transform(new) @ self._vocabulary_rows).toarray()
            for stem, row in zip(new, similarities, strict=True):
                self._char_similarity[stem] = row
        return result

    def _distinct_stems(self, text: str) -> list[str]:
        stems = self._text_stems.get(text)
        if stems is None:
            if len(self._text_stems) > 4096:  # a long-lived judge must not grow without bound
                self._text_stems.clear()
            stems = self._text_stems[text] = list(dict.fromkeys(self._stems(text)))
        return stems

    def evidence(self, key: str, text: str, stems: list[str]) -> Evidence:
        profile = self.profiles[key]
        matched: dict[str, float] = {}
        for stem in stems:
            term, value = self._match(profile, key, stem)
            if term is not None:
                matched[term] = max(matched.get(term, 0.0), value)
        # A synonym adds nothing when the word it stands for was used as such ("income" and
        # "earnings" in one question are one piece of evidence).
        direct = {c for term in matched if not term.startswith("~") for c in concepts(term)}
        matched = {t: v for t, v in matched.items() if t not in direct}
        score = sum(matched.values())
        if self._mismatched(profile, text, stems):
            score *= self.settings.mismatch_factor
        return Evidence(score=score, matched=matched, text=text)

    @staticmethod
    def _mismatched(profile: _Profile, text: str, stems: list[str]) -> bool:
        """Does the question ask the wrong kind of thing, or about the opposite end?

        A question for a person, a place or a document matches only targets whose triggers ask
        that way; a question about the start of something (or what comes before) does not ask
        for a rule about its end (or what comes after) when the target never speaks of the
        start.
        """
        kind = ask_kind(text)
        if kind is not None and kind not in profile.ask_kinds:
            return True
        used = {c for stem in stems for c in concepts(stem)}
        return any(
            OPPOSITES[c] in profile.concepts and c not in profile.concepts
            for c in used
            if c in OPPOSITES
        )

    def _match(self, profile: _Profile, key: str, stem: str) -> tuple[str | None, float]:
        """The target term a unit stem stands for, and what it is worth."""
        if stem in profile.stems:
            return stem, self.weights.get(stem, 1.0)
        shared = [idea for idea in concepts(stem) if idea in profile.concepts]
        if shared:
            idea = max(shared, key=lambda c: self.weights.get(c, 1.0))
            return idea, self.settings.synonym_weight * self.weights.get(idea, 1.0)
        row = self._char_similarity.get(stem)
        if row is not None:
            columns = self._columns[key]
            best = int(np.argmax(row[columns]))
            near, similarity = profile.ordered[best], float(row[columns[best]])
            if similarity >= self.settings.fuzzy_min and near[:2] == stem[:2]:
                return near, similarity * self.weights.get(near, 1.0)
        return None, 0.0


def _fuzzy_candidate(stem: str) -> bool:
    """Only longer alphabetic stems are compared by spelling; short ones collide too easily."""
    return len(stem) >= 5 and stem.isalpha()


def _scaled_idf(documents: list[str]) -> dict[str, float]:
    vectorizer = TfidfVectorizer(analyzer=_terms_of_document)
    vectorizer.fit(documents)
    top = float(np.max(vectorizer.idf_))
    names = vectorizer.get_feature_names_out()
    return {term: float(idf) / top for term, idf in zip(names, vectorizer.idf_, strict=True)}


def _terms_of_document(document: str) -> list[str]:
    """A stem document's terms for the IDF: its stems and their synonym concepts."""
    stems = document.split()
    return stems + [c for stem in stems for c in concepts(stem)]


def _examples(target: Target) -> tuple[str, ...]:
    return (*target.triggers, target.requirement)


def _pieces(text: str) -> list[str]:
    """The unit and, when it has several sentences, each sentence on its own."""
    parts = clauses(text)
    return [text] if len(parts) < 2 else [text, *parts]


class OfflineJudge:
    """Lexical coverage judge; see the module docstring for how it decides."""

    name = "offline"

    def __init__(self, settings: OfflineSettings | None = None, **overrides: float) -> None:
        known = {f.name for f in fields(OfflineSettings)}
        unknown = sorted(set(overrides) - known)
        if unknown:
            raise TypeError(f"unknown offline judge settings: {unknown}")
        self.settings = replace(settings or OfflineSettings(), **overrides)  # type: ignore[arg-type]
        self._fitted: OrderedDict[tuple[Target, ...], _FittedSet] = OrderedDict()
        self._context: tuple[Target, ...] = ()

    def prepare(self, targets: Sequence[Target]) -> None:
        """Fit (or fetch) the state for a case's target set and judge its targets with it."""
        self._context = tuple(targets)
        self._fitted_for(self._context)

    def _fitted_for(self, targets: tuple[Target, ...]) -> _FittedSet:
        fitted = self._fitted.get(targets)
        if fitted is None:
            fitted = _FittedSet(targets, self.settings)
            self._fitted[targets] = fitted
            while len(self._fitted) > self.settings.cache_size:
                self._fitted.popitem(last=False)
        else:
            self._fitted.move_to_end(targets)
        return fitted

    def explain(self, target: Target, unit: Unit) -> Evidence:
        """The best-scoring piece of a unit against a target, with the terms it matched."""
        return self._best_evidence(target, [unit])[0]

    def _best_evidence(self, target: Target, units: Sequence[Unit]) -> list[Evidence]:
        context = self._context if target in self._context else (target,)
        fitted = self._fitted_for(context)
        pieces = [_pieces(unit.text) for unit in units]
        # One call for the whole run, so new words are compared by spelling in one batch.
        stems = iter(fitted.stems_of([piece for unit_pieces in pieces for piece in unit_pieces]))
        return [
            max(
                (fitted.evidence(target.key, piece, next(stems)) for piece in unit_pieces),
                key=lambda evidence: evidence.score,
            )
            for unit_pieces in pieces
        ]

    def judge(self, target: Target, units: Sequence[Unit]) -> Judgment:
        if target.pattern is not None:
            matched = covering_units(target.pattern, units)
        else:
            threshold = self.settings.threshold
            evidence = self._best_evidence(target, units)
            matched = [
                u.index for u, e in zip(units, evidence, strict=True) if e.score >= threshold
            ]
        return Judgment(
            target=target.key,
            covered=bool(matched),
            matched_units=matched,
            first_turn=first_turn(units, matched),
            votes=[Vote(judge=self.name, covered=bool(matched), units=matched)],
        )
