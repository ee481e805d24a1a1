"""Playing messages to a customer in order, the history growing as in a run (for tests)."""

from __future__ import annotations

from collections.abc import Iterable

from customer_sim.base import Exchange
from customer_sim.scripted import ScriptedCustomer


def played(customer: ScriptedCustomer, messages: Iterable[str]) -> list[Exchange]:
    """The history after each message got its reply, in order."""
    history: list[Exchange] = []
    for message in messages:
        reply = customer.reply(message, history)
        history.append(Exchange(message, reply.text, reply.stakeholder_id, list(reply.disclosed)))
    return history
