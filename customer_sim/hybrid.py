"""The hybrid customer: the scripted engine decides, a chat model only words the reply.

What a stakeholder discloses must stay deterministic and audited (coverage pages credit the
facts the scripted engine chose, and the same question must disclose the same rule for every
player), but the scripted wording can read stiff in small talk and follow-ups. So with
``CUSTOMER_BACKEND=hybrid`` the scripted reply is made first, exactly as offline, and the model
is asked to say *that* reply again in the speaker's voice, for the message it answers.

The model never sees more than the player will: the last few messages of the dialogue and the
scripted reply (nothing of ``customer.json``, ``information.md`` or the targets), so it cannot
add a fact. Its text is checked before it is used (``faithful``): every figure it writes must
be one the scripted reply has, every figure of the scripted reply must still be there, and it
may not grow far beyond the original. A reply that fails the check, a model that is down, or a
reply with several speakers (their labels carry who said what) keeps the scripted text. The
disclosed facts, speakers, costs and patience are always the scripted reply's.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from customer_sim.base import CustomerUnavailable, Exchange, Reply

if TYPE_CHECKING:  # both are heavy imports; a caller that builds one has them loaded
    from openai.types.chat import ChatCompletionMessageParam

    from customer_sim.llm import LLMCustomer
    from customer_sim.scripted import ScriptedCustomer

logger = logging.getLogger(__name__)

#: How many earlier exchanges the model sees to word the reply in context.
CONTEXT_EXCHANGES = 3
#: A reworded reply may be at most this much longer than the scripted one (plus a little).
MAX_GROWTH = 1.5
_SLACK_CHARS = 80

_SYSTEM = """\
You are {speaker}, talking in a work chat with a forward-deployed engineer who is preparing a
deliverable for your organisation. You will be given the last messages of the chat and the
reply you are about to send. Rewrite that reply so it reads naturally as your answer to the
engineer's last message, in your own voice: short, plain, friendly.

Rules:
- Say exactly what the reply says. Add no facts, numbers, names, rules, reasons or advice, and
  leave none of its facts or numbers out.
- Keep every number, unit, column name and file name exactly as written.
- If the reply asks the engineer something or points them to a colleague, keep that.
- Answer with the rewritten reply only, no preamble.
"""

_FIGURE = re.compile(r"\d+(?:[.,]\d+)*")


def faithful(original: str, worded: str) -> bool:
    """Does ``worded`` keep the figures of ``original`` and add none, and stay about as long?"""
    if not worded.strip():
        return False
    if len(worded) > MAX_GROWTH * len(original) + _SLACK_CHARS:
        return False
    return _figures(worded) == _figures(original)


def _figures(text: str) -> set[str]:
    return {figure.replace(",", "") for figure in _FIGURE.findall(text)}


class HybridCustomer:
    """A ``ScriptedCustomer`` whose single-speaker replies a chat model rewords."""

    def __init__(self, scripted: ScriptedCustomer, voice: LLMCustomer) -> None:
        self.scripted = scripted
        self.voice = voice

    def reply(self, question: str, history: Sequence[Exchange] = ()) -> Reply:
        return self.word(self.scripted.reply(question, history), question, history)

    def word(self, decided: Reply, question: str, history: Sequence[Exchange]) -> Reply:
        """``decided`` (the scripted reply) in the model's words where that is safe (see the
        module docstring), else as it is. Separate from ``reply`` so a caller that shares one
        scripted customer behind a lock holds the lock for the scripted part only."""
        if len(decided.speakers) > 1:
            return decided
        speaker = next(iter(decided.speaker_labels), "") or decided.stakeholder_name
        try:
            worded = self.voice.complete(self.messages(question, history, decided, speaker))
        except CustomerUnavailable:
            return decided  # the scripted reply is always there to fall back on
        if not faithful(decided.text, worded):
            logger.info("hybrid wording dropped: it changed the reply's figures or length")
            return decided
        return replace(decided, text=worded)

    @staticmethod
    def messages(
        question: str, history: Sequence[Exchange], decided: Reply, speaker: str
    ) -> list[ChatCompletionMessageParam]:
        """The chat so far (a few exchanges) and the scripted reply to reword."""
        lines = []
        for exchange in list(history)[-CONTEXT_EXCHANGES:]:
            lines += [f"Engineer: {exchange.question}", f"You: {exchange.answer}"]
        lines.append(f"Engineer: {question}")
        dialogue = "\n".join(lines)
        return [
            {"role": "system", "content": _SYSTEM.format(speaker=speaker)},
            {
                "role": "user",
                "content": f"The chat so far:\n{dialogue}\n\nThe reply to reword:\n{decided.text}",
            },
        ]
