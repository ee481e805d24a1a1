"""Stage 6, wording: the reply as the player reads it, and the run's bookkeeping.

What each voice says was decided in stage 5; this stage decides how the reply reads:

- each fact in its owner's words; a fact said in an earlier turn is said as a repeat ("As I
  said: ...", the sentence the follow-up asks about rather than always the opening:
  ``compose.repeated``);
- past a stakeholder's patience (messages they took part in before), their reply opens with
  their impatient line. Patience shortens the tone, never the fact: every fact counted as
  disclosed is in the text whole;
- several speakers: each voice under its speaker's label, one label per speaker;
- a non-answer that would repeat the last reply word for word says so in other words;
- the bookkeeping: facts disclosed in speaking order, the message's question units (FDE-Bench
  A.3), the summed contact cost, and whether anyone was past their patience.
"""

from __future__ import annotations

from collections.abc import Sequence

from customer_sim import compose
from customer_sim.base import Exchange, Reply, split_units
from customer_sim.script import Stakeholder
from customer_sim.stages.case import Case
from customer_sim.stages.decision import Decision
from customer_sim.stages.voices import Voice


def word(case: Case, decision: Decision, history: Sequence[Exchange]) -> Reply:
    question = decision.candidates.readings.asks.heard.question
    said_before = {key for exchange in history for key in exchange.disclosed}
    ordered = list(decision.voices.values())
    exhausted = [
        v.speaker.id for v in ordered if _earlier(history, v.speaker) >= v.speaker.patience
    ]
    texts = [
        _voice_text(case, v, said_before, v.speaker.id in exhausted, question) for v in ordered
    ]
    first = ordered[0].speaker
    if decision.kind == "non-answer" and history and texts == [history[-1].answer]:
        texts = [compose.still_unsure(question)]
    return Reply(
        text=texts[0]
        if len(texts) == 1
        else "\n\n".join(f"{v.speaker.label}: {t}" for v, t in zip(ordered, texts, strict=True)),
        stakeholder_id=first.id,
        stakeholder_name=first.name,
        stakeholder_role=first.role,
        disclosed=[key for v in ordered for key in v.facts],
        units=split_units(question),
        contact_cost=round(sum(v.speaker.contact_cost for v in ordered), 6),
        exhausted=bool(exhausted),
        speakers=[v.speaker.id for v in ordered],
        speaker_labels=[v.speaker.label for v in ordered],
    )


def _voice_text(
    case: Case, voice: Voice, said_before: set[str], exhausted: bool, question: str
) -> str:
    lines = [
        compose.repeated(case.facts[key].answer, question)
        if key in said_before
        else case.facts[key].answer
        for key in voice.facts
    ]
    lines += voice.lines
    if exhausted:
        lines.insert(0, voice.speaker.impatient)
    return "\n\n".join(lines)


def _earlier(history: Sequence[Exchange], person: Stakeholder) -> int:
    return sum(1 for exchange in history if exchange.spoke(person.id))
