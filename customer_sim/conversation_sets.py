"""Playing outside conversation sets against the scripted customer, turn by turn.

A probe set asks each question on a fresh customer; a conversation set is what a newcomer
types in a row: greetings, thanks, short plain questions, follow-ups that lean on the last
answer. Each message is played with the history the run would have (every earlier message of
the conversation and the customer's reply to it), so follow-ups are read in context and
patience and repeats apply as in a run.

Files: ``hidden/probes/conversations.<writer>.json`` (``{"conversations": [{"id", "split",
"messages": [{"text", "kind", "asks"}]}]}``); ``kind`` is ``rule``, ``near_miss``, ``data`` or
a dialogue act (``greeting``, ``thanks``, ``ack``, ``farewell``, ``apology``, ``smalltalk``,
``engagement``, ``sweep``, ``meta``). What is counted, per half:

- *revealed in turn*: asked targets whose facts this reply discloses;
- *known by then*: asked targets disclosed in this reply or any earlier one;
- *near-miss leaks*: near-miss messages whose reply discloses a target that was not known yet;
- *volunteered*: social, sweep, engagement and meta messages whose reply discloses a target not
  known yet (the customer does not volunteer, FDE-Bench A.9.2);
- *extra*: rule messages whose reply discloses a target the message did not ask.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from customer_sim.base import Exchange, Reply
from customer_sim.probes import MAX_NEAR_LEAK, gt_of, target_facts
from customer_sim.probes import MIN_HIT_RATE as MIN_REVEALED
from customer_sim.scripted import ScriptedCustomer

SOCIAL_KINDS = frozenset(
    {"greeting", "thanks", "ack", "farewell", "apology", "smalltalk", "engagement", "sweep", "meta"}
)


@dataclass
class Played:
    """One message of a conversation with the reply it got and what that reply revealed."""

    conversation: str
    index: int
    kind: str
    text: str
    asks: list[str]
    reply: Reply
    revealed: list[str]
    known_before: set[str]


@dataclass
class ConversationHalf:
    asked: int = 0
    revealed: int = 0
    known: int = 0
    near: int = 0
    near_leaks: int = 0
    social: int = 0
    volunteered: int = 0
    rules: int = 0
    extra: int = 0
    failures: list[str] = field(default_factory=list)

    def count(self, played: Played) -> None:
        new = [key for key in played.revealed if key not in played.known_before]
        if played.kind == "rule" or played.asks:
            self.rules += 1
            self.asked += len(played.asks)
            self.revealed += sum(key in played.revealed for key in played.asks)
            known = played.known_before | set(played.revealed)
            self.known += sum(key in known for key in played.asks)
            unasked = [key for key in new if key not in played.asks]
            self.extra += bool(unasked)
            missed = [key for key in played.asks if key not in played.revealed]
            if missed or unasked:
                self._fail("MISS" if missed else "EXTRA", played, missed or unasked)
        elif played.kind == "near_miss":
            self.near += 1
            self.near_leaks += bool(new)
            if new:
                self._fail("LEAK", played, new)
        elif played.kind in SOCIAL_KINDS:
            self.social += 1
            self.volunteered += bool(new)
            if new:
                self._fail(f"VOLUNTEERED ({played.kind})", played, new)

    def _fail(self, label: str, played: Played, keys: list[str]) -> None:
        self.failures.append(
            f"{label} {played.conversation}#{played.index} {played.text!r} -> {keys}"
            f" | {played.reply.text[:160]!r}"
        )

    @property
    def revealed_rate(self) -> float:
        return self.revealed / self.asked if self.asked else 1.0

    @property
    def near_leak_rate(self) -> float:
        return self.near_leaks / self.near if self.near else 0.0

    @property
    def passed(self) -> bool:
        return (
            self.revealed_rate >= MIN_REVEALED
            and self.near_leak_rate <= MAX_NEAR_LEAK
            and self.volunteered == 0
        )


def conversation_files(hidden_dir: Path) -> list[Path]:
    return sorted((hidden_dir / "probes").glob("conversations.*.json"))


def conversations(hidden_dir: Path) -> Iterator[dict[str, Any]]:
    for path in conversation_files(hidden_dir):
        data = json.loads(path.read_text(encoding="utf-8"))
        yield from data.get("conversations", [])


def play(
    customer: ScriptedCustomer, conversation: dict[str, Any], facts_of: dict[str, set[str]]
) -> Iterator[Played]:
    """Each message of ``conversation`` with its reply, the history growing as in a run."""
    history: list[Exchange] = []
    known: set[str] = set()
    for index, message in enumerate(conversation["messages"]):
        reply = customer.reply(message["text"], history)
        revealed = sorted(key for key, facts in facts_of.items() if facts & set(reply.disclosed))
        yield Played(
            conversation["id"],
            index,
            message.get("kind", ""),
            message["text"],
            list(message.get("asks") or []),
            reply,
            revealed,
            set(known),
        )
        known |= set(revealed)
        history.append(
            Exchange(
                question=message["text"],
                answer=reply.text,
                stakeholder_id=reply.stakeholder_id,
                disclosed=list(reply.disclosed),
                speakers=tuple(reply.speakers),
            )
        )


def measure(hidden_dir: Path) -> dict[str, ConversationHalf] | None:
    """Both halves of a case's conversation sets, or None when it has none."""
    if not conversation_files(hidden_dir):
        return None
    customer = ScriptedCustomer.from_hidden_dir(hidden_dir)
    facts_of = target_facts(gt_of(hidden_dir))
    halves = {"dev": ConversationHalf(), "test": ConversationHalf()}
    for conversation in conversations(hidden_dir):
        half = halves[conversation.get("split", "dev")]
        for played in play(customer, conversation, facts_of):
            half.count(played)
    return halves


def played_all(hidden_dir: Path) -> Iterator[Played]:
    """Every message of every conversation set of a case, played (for scans and tests)."""
    customer = ScriptedCustomer.from_hidden_dir(hidden_dir)
    facts_of = target_facts(gt_of(hidden_dir))
    for conversation in conversations(hidden_dir):
        yield from play(customer, conversation, facts_of)
