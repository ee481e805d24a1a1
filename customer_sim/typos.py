"""Typing slips in a message put right before it is read, using the case's own words.

People on a phone type "whats the deadlien", "when i dischrge in the evenig", "the incmoe
column". The fact patterns forgive a slip in a long content word, but the readings around them
do not: whether a message is a farewell, asks for the deadline or opens a follow-up is decided
by exact words, so one slip turned a plain question into a non-answer. A slip is put right only
when that is safe:

- the word is not English (pyspellchecker's frequency list, British spellings included), not
  one of the case's own words (its answers, example questions, topics, areas, people) and not
  the start of one ("calib"), so no real word, jargon, abbreviation or name is changed, and
  words with capitals, digits or underscores are left;
- exactly one reading is one edit away (a swap, a missing, an extra or a wrong letter) and keeps
  the first letter; a case word wins over a plain English one (the player is talking about the
  case), a swap over any other edit, and a four-letter word is only ever un-swapped ("tiem"),
  since a short word one edit from two others is a guess.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from spellchecker import SpellChecker

_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9_']*")
_MIN_LENGTH = 4
_CASE_WORD = re.compile(r"[a-z]{3,}")


@lru_cache(maxsize=1)
def _english() -> SpellChecker:
    """The English word list, loaded once per process (about 0.1 s)."""
    return SpellChecker(language="en", distance=1)


class Corrector:
    """Puts slips right against one case's words (see the module docstring)."""

    def __init__(self, case_texts: Iterable[str]) -> None:
        counts: Counter[str] = Counter()
        for text in case_texts:
            counts.update(_CASE_WORD.findall(text.lower().replace("_", " ")))
        self._case_words = counts

    def fixed(self, text: str) -> str:
        """``text`` with each slip that can safely be put right put right."""
        return _TOKEN.sub(lambda found: self._word(found.group(0)), text)

    def _word(self, word: str) -> str:
        if len(word) < _MIN_LENGTH or not word.isalpha() or not word.islower():
            return word
        if word in self._case_words or _is_english(word) or self._abbreviates(word):
            return word
        return self._best(word) or word

    def _abbreviates(self, word: str) -> bool:
        """Is ``word`` the start of a case word ("calib" for calibration)? A shortened word is
        no slip, and the nearest full word to it is another word ("caleb")."""
        return any(known.startswith(word) for known in self._case_words)

    def _best(self, word: str) -> str | None:
        """The one reading that clearly beats every other (score: how common the word is, a
        case word's bonus, a swap's bonus), or None when two are close."""
        scored = []
        for edit in _english().edit_distance_1(word):
            if edit[:1] != word[:1] or edit == word:
                continue
            swap = sorted(edit) == sorted(word)
            if len(word) == _MIN_LENGTH and not swap:
                continue
            in_case = edit in self._case_words
            if not in_case and not _is_english(edit):
                continue
            score = math.log10(_english()[edit] + 1) + (2.0 if in_case else 0.0) + swap
            scored.append((score, edit))
        scored.sort(reverse=True)
        if not scored or (len(scored) > 1 and scored[0][0] - scored[1][0] < _MARGIN):
            return None
        # A rare word of the list ("colum" and "afternoon" share its floor count) gives way
        # only to a reading clearly more common than itself.
        if scored[0][0] - math.log10(_english()[word] + 1) < _MARGIN:
            return None
        return scored[0][1]


#: How far the best reading must beat the next (in log10 frequency units).
_MARGIN = 1.0
#: Below this count pyspellchecker's list holds rare forms and slips ("colum"): not English here.
_RARE = 100
# British endings and their American forms; "our" may sit anywhere ("colours", "favourite"),
# the rest only end a word ("centre", "analyse"), so a slip such as "aftrenoon" is not read as
# a British "afternoon".
_BRITISH = ((r"isation$", "ization"), (r"ising$", "izing"), (r"ised$", "ized"),
            (r"iser$", "izer"), (r"ise$", "ize"), (r"yse$", "yze"), (r"our", "or"),
            (r"tres?$", "ter"), (r"lled$", "led"), (r"lling$", "ling"), (r"ogue$", "og"))  # fmt: skip


def _is_english(word: str) -> bool:
    """Is ``word`` a common English word, British spellings included ("optimiser", "colour":
    the list is American)?"""
    english = _english()
    if english[word] >= _RARE:
        return True
    return any(
        english[american] > 0
        for british, ending in _BRITISH
        if (american := re.sub(british, ending, word)) != word
    )
