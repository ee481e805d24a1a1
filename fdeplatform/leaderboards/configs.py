"""What a leaderboard row stands for: a configuration, and how the database groups runs into one.

Agents are grouped by the free-text ``label`` their client sends (scaffold / model), so one agent
set-up run by several accounts is one row. Humans are grouped per person, or, on request, all
together as "humans" (the comparison the papers make between agents and people). The information
condition is part of the configuration: mixing a Hidden run with an Interact-Req run in one mean
would hide the very effect FDE-Bench's Table 2 measures.

A configuration is written ``<kind>:<key>@<condition>`` in URLs and exports, e.g.
``agent:react / gpt-5@interact_req``. The key may contain ``:`` or ``@`` (usernames, labels), so
the kind is split off at the first ``:`` and the condition at the last ``@``.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Case, CharField, F, Value, When
from django.db.models.expressions import Combinable
from django.db.models.functions import Concat

from fdeplatform.runs.models import Condition

AGENT, HUMAN, HUMANS = "agent", "human", "humans"
KINDS = (AGENT, HUMAN, HUMANS)
#: The key of the single group of all humans when they are shown together.
ALL_HUMANS = "all"
#: Agent runs without a label still need a row; this key cannot be confused with a real label
#: because labels are shown verbatim and the brackets mark it as ours.
NO_LABEL = "(no label)"
CONDITIONS = tuple(value for value, _ in Condition.choices)


@dataclass(frozen=True, order=True)
class ConfigId:
    """One leaderboard row's identity: who played (kind, key) under which condition."""

    kind: str
    key: str
    condition: str

    def __str__(self) -> str:
        return f"{self.kind}:{self.key}@{self.condition}"

    @property
    def participant(self) -> tuple[str, str]:
        """The player or agent set-up, across conditions (for condition deltas)."""
        return (self.kind, self.key)

    @property
    def display(self) -> str:
        if self.kind == HUMANS:
            return "Humans (all)"
        return self.key


def parse_config_id(text: str) -> ConfigId | None:
    """The ConfigId written as ``kind:key@condition``; None when it is not one."""
    kind, colon, rest = text.partition(":")
    key, at, condition = rest.rpartition("@")
    if not colon or not at or kind not in KINDS or condition not in CONDITIONS or not key:
        return None
    return ConfigId(kind=kind, key=key, condition=condition)


def kind_expression(*, humans_together: bool, run: str = "") -> Combinable:
    """SQL for the configuration kind of a run (agent, or human / humans).

    ``run`` is the lookup path to the run from the queried model, e.g. ``"coverage__run__"``.
    """
    return Case(
        When(**{f"{run}is_agent": True}, then=Value(AGENT)),
        default=Value(HUMANS if humans_together else HUMAN),
    )


def key_expression(*, humans_together: bool, run: str = "") -> Combinable:
    """SQL for the configuration key of a run: the agent's board label (``runs.standing``) or
    the human's username, followed by the measurement setup when it is not the default
    ("react / gpt-5 [customer=llm:m · judge=llm:...]"), so differently measured runs never
    share a row."""
    human_key = Value(ALL_HUMANS) if humans_together else F(f"{run}player__username")
    agent = {f"{run}is_agent": True}
    base = Case(
        When(**agent, **{f"{run}board_label": ""}, then=Value(NO_LABEL)),
        When(**agent, then=F(f"{run}board_label")),
        default=human_key,
    )
    return Case(
        When(**{f"{run}setup": ""}, then=base),
        default=Concat(base, Value(" ["), F(f"{run}setup"), Value("]")),
        output_field=CharField(),
    )


def run_filter_for(kind: str, key: str) -> dict[str, object]:
    """ORM filter selecting the runs of a participant (the inverse of the two expressions)."""
    key, setup = _split_setup(key)
    if kind == AGENT:
        return {"is_agent": True, "board_label": "" if key == NO_LABEL else key, "setup": setup}
    if kind == HUMAN:
        return {"is_agent": False, "player__username": key, "setup": setup}
    if kind == HUMANS and key == ALL_HUMANS:
        return {"is_agent": False, "setup": setup}
    raise ValueError(f"unknown configuration {kind}:{key}")


def _split_setup(key: str) -> tuple[str, str]:
    """``"label [setup]"`` into label and setup (setup "" for the default measurement)."""
    if key.endswith("]") and " [customer=" in key:
        base, _, setup = key.rpartition(" [")
        return base, setup[:-1]
    return key, ""
