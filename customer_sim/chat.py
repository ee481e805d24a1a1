"""Stage 1, case-aware: chat that is about nothing in the case, recognised by its topic.

``customer_sim.acts`` knows courtesies by their phrases ("how are you?", "lovely weather"), but
people chat in endless ways: "Weather is very cold here today, is it cold there also?",
"Morning! How's the ward today?", "Love that you're a juice company by the way, I drink your
cloudy apple all the time haha". Read as questions, they match no fact and get a planning
deflection ("what would it change in your plan?"), which reads as a robot. A piece is chat here
when it speaks of a chat topic (the weather, how a place is today), asks about the person
("how long have you had the café?"), wishes someone well or is a compliment, and the
case's facts do not claim it: no fact is asked for and none is touched by more than a word in
passing, so "is the cold store colder at night?" or "do we work at weekends?" stay questions;
a compliment (never a question) only has to ask for no fact.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from customer_sim import acts

_WEATHER = re.compile(
    r"\b(?:weather|sunshine|sunny|raining|rainy|snow|snowing|snowy|drizzle|heatwave|windy"
    r"|(?:so|very|really|freezing|boiling|bitterly) (?:cold|hot|warm)"
    r"|(?:cold|hot|warm|chilly|grey|miserable) (?:here|there|today|outside|out there)"
    r"|is it (?:cold|hot|warm|sunny|raining) (?:there|where you are|with you))\b"
)
_HOW_TODAY = re.compile(
    r"\bhow(?:'?s| is| are) (?:the|your|things (?:on|at|in) the) [a-z]+(?: [a-z]+)?"
    r" (?:today|doing|going|this (?:morning|week|afternoon)|at the moment)\b"
    # "how's the bank holiday prep going, sounds hectic", "how are things at the depot?"
    r"|\bhow(?:'?s| is| are) (?:the|your|things)\b[a-z' ]{0,30}\b(?:going|coming along|holding up"
    r"|treating you)\b|\bhow are things (?:at|in|on|with) (?:the|your) [a-z]+\W*$"
)
# A question about the person rather than the work: "how long have you had the café?", "have
# you always worked nights?", "do you enjoy it?"
_ABOUT_THEM = re.compile(
    r"\bhow long (?:have|'?ve) (?:you|u) (?:been|had|worked|run|owned|lived|done)\b"
    r"|\bhave (?:you|u) (?:always )?(?:worked|been) (?:here|there|at|with|on)\b"
    r"|\bdo (?:you|u) (?:like|enjoy|love) (?:it|the job|working|your job)\b"
)
# A kind word about something that happened: "I heard about the milk thing last month, hope
# nobody got ill", "hope you're feeling better". Never a question.
_WELL_WISH = re.compile(
    r"\bhope (?:nobody|no one|noone|everyone|everybody|you'?re|you are|they'?re|it) "
    r"(?:got|was|were|is|are|feeling|gets|okay|ok|alright|all right|recovered|better)\b"
    r"|\b(?:glad|relieved) (?:nobody|no one|everyone) (?:got|was)\b|\bsorry to hear\b"
)
_COMPLIMENT = re.compile(
    r"\b(?:i|we) (?:love|loved|really like|adore)\b|^love\b|\blove (?:that|how|your|the)\b|\bloving\b|\bbig fan\b|\bi'?m a fan\b"
    r"|\b(?:super|so|really|nice and|very) (?:clean|tidy|neat)\b|\bnice (?:work|job)\b"
    r"|\b(?:great|amazing|lovely) (?:company|product|team|place)\b"
)
# A piece this long is doing more than chatting.
MAX_WORDS = 30


def chat_act(
    text: str, asks_fact: Callable[[str], bool], names_subject: Callable[[str], bool]
) -> str | None:
    """``acts.CHAT`` or ``acts.COMPLIMENT`` for a piece that chats about nothing the case
    knows, else None. The case claims chat that asks for one of its facts; weather or "how's
    the X today" that names a fact's subject is claimed too ("so cold in the chillers - how
    high?"), while a compliment on the files may name their subjects and still only be kind."""
    folded = text.lower().replace("\u2019", "'")
    if len(folded.split()) > MAX_WORDS:
        return None
    # an emoji is no compliment: "please bear with me 😊", "sounds stressful 😅"
    if _COMPLIMENT.search(folded) and "?" not in folded:
        return None if asks_fact(text) else acts.COMPLIMENT
    if _WELL_WISH.search(folded) and "?" not in folded:
        return None if asks_fact(text) else acts.WELL_WISH
    if _ABOUT_THEM.search(folded):
        return None if asks_fact(text) or names_subject(text) else acts.ABOUT_THEM
    if _WEATHER.search(folded) or _HOW_TODAY.search(folded):
        return None if asks_fact(text) or names_subject(text) else acts.CHAT
    return None
