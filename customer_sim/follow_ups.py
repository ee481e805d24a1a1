"""Stage 3 across turns: a follow-up that asks nothing alone is read with the last question.

"and end of day?", "what about the chillers?", "so the heavy ones too?" name a new slot or
subject and borrow the rest of the question from the message before ("what SoC limits apply
during the day?"). Read alone they match nothing and get a non-answer; read after the last
question they ask what that question asked, about the new subject. Only follow-up-shaped
messages are read so (they open with "and", "what about", "so", ... or are a few words long),
and only facts the earlier question did not already ask count: the follow-up asks something
new, and re-answering the last reply would credit the follow-up with a target it never asked.
"""

from __future__ import annotations

import re

_OPENS = re.compile(
    r"^\s*(?:(?:ok(?:ay)?|k|right|hm+|great|thanks|cool)[.,!]*\s+)?"
    r"(?:and|what about|how about|what of|same for|same with|also|so|or|but|then|plus|"
    r"what if|and if|and for|for the|for)\b",
    re.IGNORECASE,
)
MAX_SHORT_WORDS = 5


def is_follow_up(text: str) -> bool:
    words = text.split()
    return bool(words) and (bool(_OPENS.match(text)) or len(words) <= MAX_SHORT_WORDS)


def reading(text: str, previous_question: str) -> str | None:
    """The follow-up read after the question before it, or None when it is no follow-up."""
    if not previous_question.strip() or not is_follow_up(text):
        return None
    return f"{previous_question.strip()} {text.strip()}"
