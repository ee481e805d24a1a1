"""Names in an ask: a data column written as one word (``income_period``, ``monthly_debt_payments``).

Players quote column names from the files. A name is one word of the data, not several words of
the question: ``income_period`` names the income column's period, it does not say "period" in
the sense a test file's collection period would, and ``monthly_debt_payments`` is not a
question about "payments" in general. Two consequences, both for every case:

- **A name counts whole.** A pattern that uses a part of a name must cover all its word parts
  (``income`` and ``period`` of ``income_period`` do; ``period`` alone does not). Parts that
  only give a unit or a qualifier (``_kw``, ``_pct``, ``_id``, ``_days``, ``_per_portion``)
  need not be covered: ``efficiency_pct`` is the efficiency, ``price_per_portion`` the price.
- **A name the ask is about decides what it asks.** "Does monthly_debt_payments include rent or
  mortgage payments?" asks what that column holds; a rule answers it only when the words that
  fire it include the name ("Does net_weight include the pallet?" is still the gross-weight
  rule's question, whose pattern names ``net_weight``). The name is what the ask is about when
  it is the first thing the ask names after its question word.

Positions are token positions of ``patterns.tokens_of`` of the same text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from customer_sim.patterns import AskPattern, Term, tokens_of
from customer_sim.text import STOPWORDS

# A snake_case name as prose quotes it: letters and digits joined by underscores. An attribute
# in code ("df.monthly_debt_payments / df.income") is left alone: code is read as a scenario,
# where what the expression computes matters more than how its names are spelt.
_NAME = re.compile(r"(?<![A-Za-z0-9_.])[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+")

# Parts of a name that give its unit or a qualifier, not what it is.
_QUALIFIER_WORDS = """
    pct percent kw kwh mw mwh kg kgs lb lbs id ids nr no num number flag cnt eur usd gbp
    day days hour hours h m min mins minute minutes csv json
"""
_QUALIFIERS = frozenset(_QUALIFIER_WORDS.split())

# An ask that opens with one of these is about the first thing it names after them.
_OPENER_WORDS = "does do did is are was were what which how can could should will would"
_OPENERS = frozenset(_OPENER_WORDS.split())

Name = frozenset[int]


def names_in(text: str, tokens: Sequence[str]) -> list[Name]:
    """The names in ``text`` as sets of the token positions of their word parts (in
    ``tokens``, which must be ``tokens_of(text)``); empty when the text names none."""
    if "_" not in text:
        return []
    names: list[Name] = []
    rebuilt: list[str] = []
    at = 0
    for match in _NAME.finditer(text):
        rebuilt += tokens_of(text[at : match.start()])
        parts = tokens_of(match.group(0))
        # "per <unit>" gives a rate's unit ("price_per_portion", "eur_per_mwh"): not what it is
        rate = parts.index("per") if "per" in parts else len(parts)
        words = frozenset(
            len(rebuilt) + i for i, part in enumerate(parts[:rate]) if _is_name_word(part)
        )
        if len(words) >= 2:
            names.append(words)
        rebuilt += parts
        at = match.end()
    rebuilt += tokens_of(text[at:])
    # The names' positions are only valid if reading the text piecewise gives its tokens.
    return names if rebuilt == list(tokens) else []


# A name followed by a value in capitals and the word it qualifies ("storage_class AMB pallets",
# "pallet_type CHEP pallets"): the name picks rows by their value, the ask is about those rows.
_FILTER_VALUE = re.compile(r"""^\s*(?:=|==|:)?\s*['"]?[A-Z][A-Z0-9]+['"]?\s+[a-z]""")


def filter_names(text: str, tokens: Sequence[str]) -> list[Name]:
    """The names in ``text`` used to pick rows by a value ("storage_class AMB pallets"), as
    ``names_in`` gives them: an ask naming one first is about the rows, not the column."""
    if "_" not in text:
        return []
    names = names_in(text, tokens)
    if not names:
        return []
    filters = []
    for name, match in zip(names, _named(text), strict=False):
        if _FILTER_VALUE.match(text[match.end() :]):
            filters.append(name)
    return filters


def _named(text: str) -> list[re.Match[str]]:
    """The name matches of ``text`` that ``names_in`` keeps (two or more name words)."""
    kept = []
    for match in _NAME.finditer(text):
        parts = tokens_of(match.group(0))
        rate = parts.index("per") if "per" in parts else len(parts)
        if sum(1 for part in parts[:rate] if _is_name_word(part)) >= 2:
            kept.append(match)
    return kept


def _is_name_word(token: str) -> bool:
    return (
        token.isalpha()
        and len(token) >= 2
        and token not in STOPWORDS
        and (token not in _QUALIFIERS)
    )


def name_asked_about(tokens: Sequence[str], names: Sequence[Name]) -> Name | None:
    """The name the ask is about: the first thing it names after its question word
    ("Does monthly_debt_payments include ...?"), or None."""
    if not names or not tokens or tokens[0] not in _OPENERS:
        return None
    for position, token in enumerate(tokens[1:], start=1):
        if token in STOPWORDS:
            continue
        return next((name for name in names if position in name), None)
    return None


def strength_with_names(
    pattern: AskPattern,
    starts: Mapping[Term, Iterable[int]],
    names: Sequence[Name],
    about: Name | None,
) -> int:
    """``patterns.strength`` of an ask that quotes names (vetoes are checked by the caller):
    the groups of the largest alternative that fires with each name counted whole, and, when
    the ask is about a name, with that name among the words that fire it."""
    best = 0
    for alternative in pattern.asks:
        if len(alternative) <= best:
            continue
        spans = [
            [
                frozenset(range(start, start + len(term.words)))
                for term in group
                for start in starts.get(term, ())
            ]
            for group in alternative
        ]
        if not all(spans):
            continue
        used = frozenset().union(*(span for group in spans for span in group))
        broken = [name for name in names if name & used and not name <= used]
        if broken:
            spans = [[s for s in group if not any(s & name for name in broken)] for group in spans]
            if not all(spans):
                continue
            used = frozenset().union(*(span for group in spans for span in group))
        if about is not None and not about & used:
            continue
        best = len(alternative)
    return best


__all__ = ["Name", "filter_names", "name_asked_about", "names_in", "strength_with_names"]
