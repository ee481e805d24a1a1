"""Text normalisation for the offline judge: fold spelling variants, stem, map synonyms.

Players write "what's", "What is" and "whats"; "batches", "batched" and "batch"; "timezone" and
"time zone"; "%" and "percent". A lexical judge only sees overlap, so these differences are
folded away before comparing a question with a requirement and its trigger examples. The stemmer
is a small rule-based suffix stripper rather than a full Porter stemmer: its behaviour is easy to
predict, and over-stemming ("general" = "generate") would make near misses look like matches.

Synonyms live in ``judging.lexicon``; ``concepts`` maps a stem to its groups.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from judging.lexicon import SYNONYMS

_CONTRACTIONS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bcan'?t\b"), "can not"),
    (re.compile(r"\bwon'?t\b"), "will not"),
    (re.compile(r"\b(\w+)n't\b"), r"\1 not"),
    (re.compile(r"'(s|re|ll|ve|d|m)\b"), ""),
)

# Spelling variants and abbreviations that mean the same in any business conversation.
_CANONICAL: dict[str, str] = {
    "%": "percent",
    "pct": "percent",
    "percentage": "percent",
    "maximum": "max",
    "maximal": "max",
    "minimum": "min",
    "minimal": "min",
    "qty": "quantity",
    "timezone": "time zone",
    "timezones": "time zone",
    "tz": "time zone",
    "roundtrip": "round trip",
    "optimise": "optimize",
    "minimise": "minimize",
    "maximise": "maximize",
    "prioritise": "prioritize",
    "behaviour": "behavior",
    "colour": "color",
    "centre": "center",
    "metre": "meter",
    "litre": "liter",
    "hrs": "hour",
    "hr": "hour",
    "mins": "minute",
    "info": "information",
    "approx": "approximately",
    "okay": "ok",
    "vs": "versus",
    "kg": "kilogram",
    "kgs": "kilogram",
    "kilo": "kilogram",
    "kilos": "kilogram",
    "kilograms": "kilogram",
    "lb": "pound",
    "lbs": "pound",
    "pounds": "pound",
    "tradeoff": "trade off",
    "tradeoffs": "trade off",
}

_FUNCTION_WORDS = """
    a an the and or nor but if then so than of to in on at by for with from into onto about as
    is are was were be been being am do does did doing done have has had having will would shall
    should can could may might must i me my mine we us our ours you your yours he him his she
    her it its they them their this that these those there here what which who whom whose when
    where why how whether any some just also very really quite please thanks
    thank hi hello hey ok yes not s t d ll ve re m get got go going want wanted need needed know
    tell let like exactly actually currently right sure etc many much
"""
STOPWORDS = frozenset(_FUNCTION_WORDS.split())

# An identifier such as "max_dpd_12m" is one token: naming a column is one piece of evidence,
# not three.
# "1,700" is the number 1700, not the numbers 1 and 700.
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
_TOKEN = re.compile(r"[a-z0-9]+(?:_[a-z0-9]+)+|[a-z]+|[0-9]+(?:\.[0-9]+)?|%")
_VOWEL = re.compile(r"[aeiouy]")


def fold(text: str) -> str:
    """Lower-case, strip accents, unify apostrophes and expand or drop contractions."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).lower()
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("`", "'")
    for pattern, replacement in _CONTRACTIONS:
        text = pattern.sub(replacement, text)
    return _THOUSANDS.sub("", text)


def words(text: str) -> list[str]:
    """Folded tokens with spelling variants canonicalised (one token may become several)."""
    out: list[str] = []
    for token in _TOKEN.findall(fold(text)):
        out.extend(_CANONICAL.get(token, token).split())
    return out


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Strip common English inflections so "charges", "charged" and "charging" meet.

    Plural first, then "-ing"/"-ed" (only when a vowel is left, so "bring" and "red" survive),
    then "-ly", "-ation"/"-ion", "-ment", "-ness", and a final silent "e". Numbers and short
    words are left alone.
    """
    if len(word) <= 3 or not word.isalpha():
        return word
    word = _strip_plural(word)
    word = _strip_verb(word)
    for suffix, replacement, keep in (
        ("ally", "al", 6),
        ("ly", "", 6),
        ("ation", "ate", 8),
        ("ment", "", 8),
        ("ness", "", 7),
    ):
        if word.endswith(suffix) and len(word) >= keep:
            word = word[: -len(suffix)] + replacement
            break
    if word.endswith("e") and not word.endswith("ee") and len(word) >= 4:
        word = word[:-1]
    return word


def _strip_plural(word: str) -> str:
    if word.endswith("ies") and len(word) >= 5:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if word.endswith(("ss", "us", "is", "as")):
        return word
    if word.endswith("s"):
        return word[:-1]
    return word


def _strip_verb(word: str) -> str:
    if word.endswith("eed"):
        return word
    for ending in ("ing", "ed"):
        base = word[: -len(ending)]
        if word.endswith(ending) and len(base) >= 3 and _VOWEL.search(base):
            if base[-1] == base[-2] and base[-1] not in "aeiouls":
                base = base[:-1]
            return base
    return word


@lru_cache(maxsize=1)
def _concepts() -> dict[str, tuple[str, ...]]:
    table: dict[str, list[str]] = {}
    for name, members in SYNONYMS.items():
        for member in members:
            for token in words(member):
                found = table.setdefault(stem(token), [])
                if f"~{name}" not in found:
                    found.append(f"~{name}")
    return {key: tuple(value) for key, value in table.items()}


def concepts(word_stem: str) -> tuple[str, ...]:
    """The concept tokens a stem belongs to ("~limit", ...), possibly none."""
    return _concepts().get(word_stem, ())


def content_stems(text: str) -> list[str]:
    """Stems of a text's content words in order; function words and lone letters dropped."""
    return [
        stem(token)
        for token in words(text)
        if token not in STOPWORDS and (len(token) > 1 or token.isdigit())
    ]


_SENTENCE = re.compile(r"(?<=[.!;:])\s+|\s+-\s+|\n+")


def clauses(text: str) -> list[str]:
    """A unit's sentences, so context a player wrote before the actual ask is judged apart."""
    return [piece.strip() for piece in _SENTENCE.split(text) if piece.strip()]


_ACRONYM = re.compile(r"\b[A-Za-z]*[A-Z][A-Za-z]*\b")
_WORD = re.compile(r"[A-Za-z]+")


def acronyms(texts: list[str]) -> dict[str, tuple[str, ...]]:
    """Acronyms the texts spell out, mapped to the stems of their expansion.

    "SoC" next to "state of charge" somewhere in the same texts gives {"soc": ("stat",
    "charg")}: an acronym of 2-5 letters whose letters are the initials of consecutive words
    (function words included, so "of" supplies the "o"). Only acronyms the case's own texts
    define are expanded, so no sector vocabulary is built in.
    """
    candidates = {
        m.group(0)
        for text in texts
        for m in _ACRONYM.finditer(text)
        if 2 <= len(m.group(0)) <= 5 and sum(ch.isupper() for ch in m.group(0)) >= 2
    }
    sequences = [[w.lower() for w in _WORD.findall(text)] for text in texts]
    table: dict[str, tuple[str, ...]] = {}
    for candidate in candidates:
        letters = candidate.lower()
        for seq in sequences:
            expansion = _spelled_out(letters, seq)
            if expansion:
                stems = tuple(stem(w) for w in expansion if w not in STOPWORDS)
                if len(stems) >= 2:
                    table[letters] = stems
                    break
    return table


def _spelled_out(letters: str, sequence: list[str]) -> list[str] | None:
    width = len(letters)
    for start in range(len(sequence) - width + 1):
        window = sequence[start : start + width]
        if "".join(w[0] for w in window) == letters and all(len(w) > 1 for w in window):
            return window
    return None


def expanded_stems(text: str, expansions: dict[str, tuple[str, ...]]) -> list[str]:
    """``content_stems`` with known acronyms replaced by the stems of what they stand for."""
    out: list[str] = []
    for token in content_stems(text):
        out.extend(expansions.get(token, (token,)))
    return out


_ASKS_FOR_PERSON_OR_PLACE = re.compile(
    r"^\W*(?:(?:and|also|so|ok|then|but)\W+)*(who|whom|whose|where)\b"
)
_ASKS_FOR_DOCUMENT = re.compile(
    r"\b(?:can|could|would|will)\s+(?:you|someone)\s+(?:please\s+)?"
    r"(?:send|share|forward|email|upload|provide)\b"
)


def ask_kind(text: str) -> str | None:
    """What a question asks for when that is not a rule: a person, a place or a document.

    "Who downloads the prices?", "Where is the tariff sheet?" and "Can you send me the
    invoice?" name a topic but ask for someone, somewhere or something to read; the judge
    treats them as covering only when the target's own triggers ask that way.
    """
    folded = fold(text).strip()
    found = _ASKS_FOR_PERSON_OR_PLACE.search(folded)
    if found:
        return "place" if found.group(1) == "where" else "person"
    if _ASKS_FOR_DOCUMENT.search(folded):
        return "document"
    return None


# Concepts that point the opposite way: a question about the start of the day does not ask
# for a rule about its end.
OPPOSITES: dict[str, str] = {
    "~start": "~finish",
    "~finish": "~start",
    "~before": "~after",
    "~after": "~before",
}
