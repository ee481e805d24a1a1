"""Light, dependency-free text normalisation for matching questions to facts.

Players write "what's", "What is", "whats" and "wat is" for the same thing, and "batches",
"batch" and "batched" for the same idea. This module folds those differences away (case,
accents, contractions, plural and verb endings, function words) so the lexical matcher compares
what a question is about rather than how it is typed. It is deliberately small and predictable:
a rule-based suffix stripper, not a full stemmer, so a case author can reason about what it does
to their ``requires_any`` stems.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_CONTRACTIONS = (
    (re.compile(r"\bcan'?t\b"), "can not"),
    (re.compile(r"\bwon'?t\b"), "will not"),
    (re.compile(r"\b(\w+)n't\b"), r"\1 not"),
    (re.compile(r"\b(what|that|where|who|how|it|there|here|when)'?s\b"), r"\1 is"),
    (re.compile(r"'re\b"), " are"),
    (re.compile(r"'ll\b"), " will"),
    (re.compile(r"'ve\b"), " have"),
    (re.compile(r"'d\b"), " would"),
    (re.compile(r"'m\b"), " am"),
    (re.compile(r"'s\b"), ""),
)
# The contractions people also write without an apostrophe ("cant", "whats").
_BARE_CONTRACTIONS = tuple(c for c in _CONTRACTIONS if "'?" in c[0].pattern)

# Spellings and abbreviations that mean the same thing in any business domain; case-specific
# vocabulary belongs in the facts' trigger examples, not here.
_CANONICAL = {
    "maximum": "max",
    "maximal": "max",
    "minimum": "min",
    "minimal": "min",
    "qty": "quantity",
    "percentage": "percent",
    "pct": "percent",
    "%": "percent",
    "okay": "ok",
    "allowed": "allow",
    "permitted": "allow",
    "permit": "allow",
    "colour": "color",
    "behaviour": "behavior",
    "hrs": "hour",
    "hr": "hour",
    "mins": "minute",
    "secs": "second",
    "kms": "km",
    "wks": "week",
    "yr": "year",
    "yrs": "year",
    "nr": "number",
    "num": "number",
    "approx": "approximately",
    "info": "information",
    # chat shorthand
    "tmrw": "tomorrow",
    "tmr": "tomorrow",
    "tmrow": "tomorrow",
    "tmw": "tomorrow",
    "calc": "calculate",
    "calcs": "calculations",
    "avg": "average",
    "thru": "through",
    "tho": "though",
    "u": "you",
    "ur": "your",
    "r": "are",
    "pls": "please",
    "plz": "please",
    "thx": "thanks",
    "wanna": "want",
}

# Function words that say how a question is phrased, not what it is about.
_FUNCTION_WORDS = """
    a an the and or but if then so than of to in on at by for with from into onto about as
    is are was were be been being am do does did doing done have has had having will would
    shall should can could may might must i me my mine we us our ours you your yours he him his
    she her hers it its they them their theirs this that these those there here what which who
    whom whose when where why how whether any some all each every just also only very really
    quite please thanks thank hi hello hey ok yes no not there s t d ll ve re m
    one get got go going want wanted need needed know tell let like
"""
STOPWORDS = frozenset(_FUNCTION_WORDS.split())

# A figure with thousands separators ("1,700", "12,500.5") is one number, not "1" and "700"
# (a leading 0 is a decimal comma: "0,925" stays apart).
_TOKEN = re.compile(
    r"[1-9][0-9]{0,2}(?:,[0-9]{3})+(?!,?[0-9])(?:\.[0-9]+)?|[a-z0-9]+(?:\.[0-9]+)?|%"
)


def fold(text: str) -> str:
    """Lower-case, strip accents, unify apostrophes and expand contractions.

    Plain ASCII skips the accent stripping and text without an apostrophe the contractions that
    need one: the customer folds every message many times, and these were a fifth of its time.
    """
    if text.isascii():
        text = text.lower()
    else:
        text = unicodedata.normalize("NFKD", text)
        text = "".join(ch for ch in text if not unicodedata.combining(ch)).lower()
        text = text.replace("\u2019", "'").replace("\u2018", "'")
    text = text.replace("`", "'")
    for pattern, replacement in _CONTRACTIONS if "'" in text else _BARE_CONTRACTIONS:
        text = pattern.sub(replacement, text)
    return text


# British spellings folded into American ones ("optimising" -> "optimizing", "kilometres" ->
# "kilometers"); both sides of every comparison go through this, so only consistency matters.
_BRITISH = (
    (re.compile(r"(?<=[a-z]{3})is(e|es|ed|ing|ation|ations)$"), r"iz\1"),
    (re.compile(r"(?<=[a-z]{3})ys(e|es|ed|ing)$"), r"yz\1"),
    (re.compile(r"(?<=[a-z]{2})tre(s?)$"), r"ter\1"),
)


@lru_cache(maxsize=65536)
def _canonical(token: str) -> str:
    if token in _CANONICAL:
        return _CANONICAL[token]
    for pattern, replacement in _BRITISH:
        token = pattern.sub(replacement, token)
    return _CANONICAL.get(token, token)


def raw_tokens(text: str) -> list[str]:
    """Folded word tokens with abbreviations and spellings canonicalised, before stemming."""
    return [_canonical(token.replace(",", "")) for token in _TOKEN.findall(fold(text))]


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Strip common English inflections so "batches", "batched" and "batching" meet.

    Rules run in order: plural, then "-ing"/"-ed" (keeping a vowel in what is left, so "bring"
    and "red" survive), "-ly", "-ation", and finally a silent "e", so "use", "used", "uses" and
    "using" all become "us". A doubled final consonant left by "-ing"/"-ed" ("stopped") is
    undoubled. Numbers and very short words are returned as they are.
    """
    if len(word) <= 2 or not word.isalpha():
        return word
    word = _strip_plural(word)
    word = _strip_verb_ending(word)
    if word.endswith("ly") and len(word) >= 6:
        word = word[:-2]
    if word.endswith("ation") and len(word) >= 8:
        word = word[:-5] + "at"
    if word.endswith("e") and not word.endswith("ee") and len(word) >= 3:
        word = word[:-1]
    return word


def _strip_plural(word: str) -> str:
    if word.endswith("ies") and len(word) >= 5:
        return word[:-3] + "y"
    if word.endswith("sses"):
        return word[:-2]
    if word.endswith(("ss", "us", "is")):
        return word
    if word.endswith("es") and word[-3:-2] in {"x", "h"} and len(word) >= 5:
        return word[:-2]
    if word.endswith("s") and len(word) >= 4:
        return word[:-1]
    return word


_VOWEL = re.compile(r"[aeiouy]")


def _strip_verb_ending(word: str) -> str:
    if word.endswith("eed"):
        return word
    for ending in ("ing", "ed"):
        base = word[: -len(ending)]
        if word.endswith(ending) and len(base) >= 2 and _VOWEL.search(base):
            if len(base) >= 4 and base[-1] == base[-2] and base[-1] not in "aeiouls":
                base = base[:-1]
            return base
    return word


def content_stems(text: str) -> list[str]:
    """The stems of a text's content words, in order."""
    return stems_of(raw_tokens(text))


def stems_of(tokens: list[str]) -> list[str]:
    """Stem the content words among folded tokens.

    Function words and single letters ("lot A and lot B") are dropped: they say how something
    is asked or name an example, not what is asked.
    """
    return [
        stem(token)
        for token in tokens
        if token not in STOPWORDS and (len(token) > 1 or token.isdigit())
    ]


def within_one_edit(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` differ by at most one insertion, deletion, substitution or
    swap of neighbouring letters (the typos people actually make)."""
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diffs = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        if len(diffs) == 1:
            return True
        i = diffs[0]
        return len(diffs) == 2 and diffs[1] == i + 1 and a[i] == b[i + 1] and a[i + 1] == b[i]
    shorter, longer = (a, b) if len(a) < len(b) else (b, a)
    i = 0
    while i < len(shorter) and shorter[i] == longer[i]:
        i += 1
    return shorter[i:] == longer[i + 1 :]


def has_stem(tokens: list[str], wanted: str) -> bool:
    """Does a question (its folded tokens) contain the stem ``wanted``?

    A token matches when it starts with the stem ("batch" in "batches"), when both stem to the
    same root, or, for stems of five letters or more, when the token's prefix is one typo away
    ("btach"). Multi-word stems ("same sku") match as a phrase of consecutive tokens.
    """
    return has_stem_parts(tokens, stem_parts(wanted))


@lru_cache(maxsize=4096)
def stem_parts(wanted: str) -> tuple[str, ...]:
    """A ``requires_any`` entry as the folded tokens ``has_stem_parts`` compares."""
    return tuple(raw_tokens(wanted))


def has_stem_parts(tokens: list[str], parts: tuple[str, ...]) -> bool:
    if len(parts) == 1:
        wanted = parts[0]
        return any(_token_has(token, wanted) for token in tokens)
    if not parts:
        return False
    width = len(parts)
    return any(
        all(_token_has(tokens[i + j], parts[j]) for j in range(width))
        for i in range(len(tokens) - width + 1)
    )


@lru_cache(maxsize=65536)
def _token_has(token: str, wanted: str) -> bool:
    if token.startswith(wanted) or stem(token).startswith(stem(wanted)):
        return True
    if len(wanted) < 5 or len(token) < len(wanted) - 1:
        return False
    return any(
        within_one_edit(token[:width], wanted)
        for width in (len(wanted) - 1, len(wanted), len(wanted) + 1)
        if width <= len(token)
    )
