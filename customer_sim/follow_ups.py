"""Stage 3 across turns: a follow-up that asks nothing alone is read with the last question.

"and end of day?", "what about the chillers?", "so the heavy ones too?" name a new slot or
subject and borrow the rest of the question from the message before ("what SoC limits apply
during the day?"). Read alone they match nothing and get a non-answer; read after the last
question they ask what that question asked, about the new subject. Only follow-up-shaped
messages are read so (they open with "and", "what about", "so", ... or are a few words long),
and only facts the earlier question did not already ask count: the follow-up asks something
new, and re-answering the last reply would credit the follow-up with a target it never asked.
The last rule is said again ("As I said: ...") only when the message leans on it
(``leans_back``): "is that firm?" does, "when was the base extracted?" asks something of its own.
"""

from __future__ import annotations

import re

from customer_sim.slots import AXES
from customer_sim.text import content_stems

_OPENS = re.compile(
    r"^\s*(?:(?:ok(?:ay)?|k|right|hm+|great|thanks|cool)[.,!]*\s+)?"
    r"(?:and|what about|how about|what of|same for|same with|also|so|or|but|then|plus|"
    r"what if|and if|and for|for the|for|same (?:thing|rule|goes)"
    # "is it the same for the hotels?", "does that apply on Sundays?": the last question's
    # rule asked of another subject
    r"|(?:is|does|would|will|do) (?:it|that|this|the same|those|these|they)(?: also| still)? "
    r"(?:the same|same|apply|applies|hold|holds|count|go|work))\b",
    re.IGNORECASE,
)
# "... on Sundays as well?", "the hotels too?": a short question leaning on the last one.
_LEANS = re.compile(r"\b(?:as well|too|also|either)\W*$", re.IGNORECASE)
MAX_SHORT_WORDS = 5
MAX_LEANING_WORDS = 10


def is_follow_up(text: str) -> bool:
    words = text.split()
    return bool(words) and (
        bool(_OPENS.match(text))
        or len(words) <= MAX_SHORT_WORDS
        or (len(words) <= MAX_LEANING_WORDS and bool(_LEANS.search(text)))
    )


_WHO = re.compile(r"^\W*(?:(?:and|so|ok|okay)\W+)?(?:who|whom|whose)\b", re.I)
# Words that point back at the last exchange: "is that firm?", "same for those?".
_POINTING = re.compile(
    r"\b(?:that|this|it|its|those|these|they|them|same|also|too|as well|either|other|else)\b",
    re.IGNORECASE,
)


def asks_who(text: str) -> bool:
    """Does the message ask who ("who installed it?")? A rule just given names no one to
    answer with, however many of its words the question repeats ("where do they sit then?"
    can be the rule's question: a place is often what a rule says)."""
    return bool(_WHO.match(text))


def leans_back(text: str, last_question: str, last_answer: str) -> bool:
    """Does a follow-up-shaped message lean on the last exchange rather than ask its own
    question? It does when it opens like a follow-up ("and ...", "what about ..."), points
    back ("is that firm?") or says nothing the last exchange did not ("the 30 days?"). "When
    was the base extracted?" is short, but its words are its own: it asks something new, and
    answering it with the last rule again would read as not listening."""
    if asks_who(text):
        return False  # "who bakes them?": the rule just given names no one to answer with
    if _OPENS.match(text) or _POINTING.search(text):
        return True
    before = set(content_stems(f"{last_question} {last_answer}"))
    own = set(content_stems(text)) - _DETAIL_STEMS
    # a clipped word ("tues" for the answer's "Tuesday") is the answer's word
    return all(any(said.startswith(word) for said in before) for word in own)


# "What's the cut-off date exactly?", "what time tuesday?": a detail of what was just said.
_DETAIL_STEMS = frozenset(
    content_stems(
        "time date day exactly exact precisely cut off hour hours minutes long much many often "
        "amount figure number"
    )
)


def reading(text: str, previous_question: str) -> str | None:
    """The follow-up read after the question before it, or None when it is no follow-up."""
    if not previous_question.strip() or not is_follow_up(text):
        return None
    return f"{previous_question.strip()} {text.strip()}"


def slot_swapped(text: str, previous_question: str) -> str | None:
    """ "and end of day?" after "whats soc at start of day": the previous question with its
    slot words of one side of an axis (``customer_sim.slots``) replaced by the follow-up's, or
    None when the follow-up names no slot the previous question has the sibling of. Read
    together, both slots are named and the sibling rules veto each other; the question meant
    is the earlier one about the new slot."""
    if not previous_question.strip() or not is_follow_up(text):
        return None
    said = _words(text)
    for first, second in AXES:
        for new, old in ((first, second), (second, first)):
            if said & new.words and not said & old.words:
                before = previous_question.split()
                if any(_bare(word) in old.words for word in before):
                    kept = [w for w in before if _bare(w) not in old.words]
                    return f"{' '.join(kept)} {text.strip()}"
    return None


def _words(text: str) -> set[str]:
    return {_bare(word) for word in text.split()}


def _bare(word: str) -> str:
    return word.strip(".,;:!?()'\"").lower()
