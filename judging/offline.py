"""The default coverage judge: deterministic, offline, lexical.

For each target it decides, unit by unit, whether answering the unit would reveal the
requirement. A unit counts when it is close enough to one of the target's examples (its trigger
questions and its requirement) AND it names at least one of the target's distinctive terms.

Closeness is a cosine in two TF-IDF spaces blended together: stemmed words with word pairs and
synonym concepts (what is asked), and character n-grams of the stems (word forms, compounds,
typos). Terms a unit uses that no example uses still count in the unit's norm, so a long
question that shares one topical word with a trigger is not taken for that trigger; this is
what keeps topic-only questions ("Where is the tariff sheet?") below the threshold.

IDF is fitted on one document per target of the case plus a fixed background of generic
delivery questions, so words every target or every engagement shares ("battery", "data",
"file", "schedule") weigh little, and a target's own vocabulary weighs much. Fitted state is
cached per target set; ``judge_all`` prepares the set, and a target judged on its own is fitted
with the background only (deterministic, but without the case-level weighting).

A long unit is also judged clause by clause (the player's context sentences are not the ask),
and the best clause decides.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter, OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer

from judging.base import Judgment, Target, Unit, Vote, first_turn
from judging.text import clauses, concept, content_stems

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
)


@dataclass(frozen=True)
class OfflineSettings:
    """Knobs of the offline judge, calibrated on ``bench/judge_labels``.

    ``threshold``: blended cosine a unit needs; ``char_weight``: share of the character space in
    the blend; ``oov_weight``: how much words no example uses dilute a unit's similarity;
    ``anchor_idf``: minimum IDF (relative to the rarest possible term) for a target's term to
    count as distinctive; ``cache_size``: fitted target sets kept.
    """

    threshold: float = 0.4
    char_weight: float = 0.4
    oov_weight: float = 0.8
    anchor_idf: float = 0.75
    cache_size: int = 32


def word_terms(text: str) -> list[str]:
    """Stems, consecutive stem pairs and synonym concepts: the word space's terms."""
    stems = content_stems(text)
    pairs = [f"{a} {b}" for a, b in itertools.pairwise(stems)]
    concepts = [c for c in map(concept, stems) if c is not None]
    return stems + pairs + concepts


def char_text(text: str) -> str:
    return " ".join(content_stems(text))


class _Space:
    """One TF-IDF space over the examples, answering cosines for unseen questions."""

    def __init__(
        self,
        vectorizer: TfidfVectorizer,
        idf_docs: list[str],
        examples: list[str],
        oov_weight: float,
    ) -> None:
        vectorizer.fit(idf_docs)
        self._analyse: Callable[[str], list[str]] = vectorizer.build_analyzer()
        self.vocabulary: dict[str, int] = vectorizer.vocabulary_
        self.idf: np.ndarray = vectorizer.idf_
        self.max_idf = float(self.idf.max())
        self._oov_idf = self.max_idf * oov_weight
        rows = np.vstack([self._vector(e)[0] for e in examples])
        norms = np.linalg.norm(rows, axis=1, keepdims=True)
        self._rows: np.ndarray = rows / np.where(norms == 0, 1.0, norms)

    def _vector(self, text: str) -> tuple[np.ndarray, float]:
        vector = np.zeros(len(self.vocabulary))
        oov_mass = 0.0
        for term, count in Counter(self._analyse(text)).items():
            weight = 1.0 + math.log(count)
            index = self.vocabulary.get(term)
            if index is None:
                oov_mass += (weight * self._oov_idf) ** 2
            else:
                vector[index] = weight * self.idf[index]
        return vector, oov_mass

    def similarities(self, texts: Sequence[str]) -> np.ndarray:
        """Cosine of every text (rows) with every example (columns)."""
        if not texts:
            return np.zeros((0, self._rows.shape[0]))
        vectors = []
        for text in texts:
            vector, oov_mass = self._vector(text)
            norm = math.sqrt(float(vector @ vector) + oov_mass)
            vectors.append(vector / norm if norm else vector)
        result: np.ndarray = np.vstack(vectors) @ self._rows.T
        return result


class _FittedSet:
    """Everything fitted for one target set: the two spaces and each target's anchors."""

    def __init__(self, targets: Sequence[Target], settings: OfflineSettings) -> None:
        self.settings = settings
        self.position = {target.key: i for i, target in enumerate(targets)}
        examples: list[str] = []
        owners: list[int] = []
        for i, target in enumerate(targets):
            for text in (*target.triggers, target.requirement):
                examples.append(text)
                owners.append(i)
        self.owners = np.array(owners)
        idf_docs = [_target_document(t) for t in targets] + list(BACKGROUND)
        word_vectorizer = TfidfVectorizer(analyzer=word_terms, sublinear_tf=True, norm=None)
        self.words = _Space(word_vectorizer, idf_docs, examples, settings.oov_weight)
        char_vectorizer = TfidfVectorizer(
            analyzer="char_wb", ngram_range=(3, 5), preprocessor=char_text, sublinear_tf=True
        )
        self.chars = _Space(char_vectorizer, idf_docs, examples, settings.oov_weight)
        self.anchors = [self._anchors(t) for t in targets]

    def _anchors(self, target: Target) -> frozenset[str]:
        """The target's stems rare enough across targets and background to be distinctive."""
        floor = self.settings.anchor_idf * self.words.max_idf
        stems = set(content_stems(_target_document(target)))
        return frozenset(
            s
            for s in stems
            if s in self.words.vocabulary and self.words.idf[self.words.vocabulary[s]] >= floor
        )

    def scores(self, pieces: Sequence[str]) -> np.ndarray:
        """Blended similarity of every piece (rows) with every target (columns)."""
        blend = self.settings.char_weight
        combined = (1.0 - blend) * self.words.similarities(pieces) + blend * (
            self.chars.similarities(pieces)
        )
        best = np.full((len(pieces), len(self.position)), -1.0)
        for column in range(len(self.position)):
            mask = self.owners == column
            if mask.any():
                best[:, column] = combined[:, mask].max(axis=1)
        return best


def _target_document(target: Target) -> str:
    return " . ".join((*target.triggers, target.requirement))


def _pieces(text: str) -> list[str]:
    """The unit and, when it has several sentences, each sentence on its own."""
    parts = clauses(text)
    return [text] if len(parts) < 2 else [text, *parts]


class OfflineJudge:
    """Lexical coverage judge; see the module docstring for how it decides."""

    name = "offline"

    def __init__(self, settings: OfflineSettings | None = None, **overrides: float) -> None:
        base = settings or OfflineSettings()
        self.settings = OfflineSettings(**{**base.__dict__, **overrides})
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

    def unit_scores(self, target: Target, units: Sequence[Unit]) -> list[float]:
        """Per unit, the best similarity to the target among its pieces that name an anchor
        (0 when none does). A unit covers the target when this reaches the threshold."""
        context = self._context if target in self._context else (target,)
        fitted = self._fitted_for(context)
        column = fitted.position[target.key]
        anchors = fitted.anchors[column]
        result: list[float] = []
        for unit in units:
            pieces = _pieces(unit.text)
            scores = fitted.scores(pieces)[:, column]
            gated = [
                float(score)
                for score, piece in zip(scores, pieces, strict=True)
                if anchors.intersection(content_stems(piece))
            ]
            result.append(max(gated, default=0.0))
        return result

    def judge(self, target: Target, units: Sequence[Unit]) -> Judgment:
        scores = self.unit_scores(target, units)
        threshold = self.settings.threshold
        matched = [u.index for u, s in zip(units, scores, strict=True) if s >= threshold]
        return Judgment(
            target=target.key,
            covered=bool(matched),
            matched_units=matched,
            first_turn=first_turn(units, matched),
            votes=[Vote(judge=self.name, covered=bool(matched), units=matched)],
        )
