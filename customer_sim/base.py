"""The one interface every simulated-customer backend implements.

The site, the agent API and the benchmarks only ever talk to a ``Customer``: they pass the new
question and the run's earlier exchanges and get a ``Reply`` back. Keeping the backend behind
this seam is what lets a run switch between the offline scripted customer and an LLM customer
without the caller knowing which one answered.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from metrics.clarification import split_units as _split_units


@dataclass(frozen=True)
class Exchange:
    """One earlier round of the dialogue, as the run recorded it."""

    question: str
    answer: str
    stakeholder_id: str = ""
    disclosed: list[str] = field(default_factory=list)
    speakers: tuple[str, ...] = ()

    def spoke(self, stakeholder_id: str) -> bool:
        """Did this stakeholder take part in the exchange (one reply may have several)?"""
        return stakeholder_id in self.speakers or stakeholder_id == self.stakeholder_id


@dataclass(frozen=True)
class Reply:
    """What a customer says back, plus the bookkeeping the run needs to record.

    ``disclosed`` holds the script fact keys released by this reply (always empty for backends
    that have no script); ``units`` the question units of the message (FDE-Bench A.3), so the
    clarification metrics count the same units the customer saw. A message with asks for
    several people is answered by each of them: ``speakers`` lists them in order (the first is
    ``stakeholder_id``) and ``contact_cost`` is the sum of their costs.
    """

    text: str
    stakeholder_id: str
    stakeholder_name: str
    stakeholder_role: str
    disclosed: list[str] = field(default_factory=list)
    units: list[str] = field(default_factory=list)
    contact_cost: float = 0.0
    exhausted: bool = False
    speakers: list[str] = field(default_factory=list)
    speaker_labels: list[str] = field(default_factory=list)


class Customer(Protocol):
    """A simulated customer: answers one question given the dialogue so far."""

    def reply(self, question: str, history: Sequence[Exchange] = ()) -> Reply: ...


class CustomerUnavailable(Exception):
    """The customer cannot answer right now (a temporary backend failure).

    The message is shown to the player as is, so it never quotes hidden material, URLs or keys.
    Callers should let the player retry rather than count the round.
    """


# One definition of a question unit (FDE-Bench A.3) for the customer, the judge and the metrics,
# so the units scored are exactly the units the customer answered.
split_units = _split_units
