"""Which runs count on the main board, fixed when a run starts (FDE-Bench counts every planned
run; a player who has seen the answers is no longer measured the same way).

- ``counted``: the first k ranked runs (``RANKED_RUNS_COUNTED``, default 3) of a player on a
  case and condition; for agents, of one board label. Every counted run stays counted whatever
  happens to it: abandoned, expired or empty, it scores 0 (FDE-Bench §4.2 counts all 147 runs).
- ``extra``: later ranked runs; shown on the player's own pages, never on the board, so a
  player cannot retry until lucky and keep the best.
- ``informed``: a ranked run started after the player saw the case's hidden side (an
  ``Exposure``: a practice score and verdict, a run under Full, the targets, another player's
  transcript). Boards show informed runs only when asked, apart from the main board. A Full
  exposure does not inform a later Full run: Full hands out everything anyway.

The configuration a run belongs to also carries what it was measured with: ``setup`` names a
customer backend or judge other than the defaults (scripted customer, offline judge), so runs
measured differently never share a row; ``board_label`` is the agent label, suffixed with the
account name when another account used the label first.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User

from fdeplatform.cases.models import Case
from fdeplatform.runs.models import AgentLabel, Condition, Exposure, Mode, Run, Standing

DEFAULT_SETUP = ("scripted", "offline")


def counted_runs_per_case() -> int:
    return int(getattr(settings, "RANKED_RUNS_COUNTED", 3))


def record_exposure(*, player: User, case: Case, kind: str) -> None:
    """Remember that ``player`` saw ``kind`` of ``case``'s hidden side (once per kind)."""
    if player.is_authenticated:
        Exposure.objects.get_or_create(player=player, case=case, kind=kind)


def board_label_for(*, player: User, label: str, is_agent: bool) -> str:
    """The label as boards show it: the first account to use a label owns it."""
    if not is_agent:
        return ""
    owner, _ = AgentLabel.objects.get_or_create(label=label, defaults={"owner": player})
    return label if owner.owner_id == player.pk else f"{label} [{player.get_username()}]"[:240]


def setup_of(*, customer: str, judge: str) -> str:
    """ "" for the default measurement, else what differs ("customer=llm:m · judge=llm")."""
    if (customer, judge) == DEFAULT_SETUP:
        return ""
    return f"customer={customer} · judge={judge}"[:200]


_LEVELS = (Exposure.LEVEL_L0, Exposure.LEVEL_L1, Exposure.LEVEL_L2)
#: What a run under a condition is told anyway: having seen it elsewhere does not inform it
#: (otherwise a player's second Full or L1 run would be informed by their first).
ALREADY_TOLD: dict[str, tuple[str, ...]] = {
    Condition.FULL: (Exposure.FULL, *_LEVELS),
    Condition.GYM_L0: (Exposure.FULL, *_LEVELS),
    Condition.GYM_L1: (Exposure.LEVEL_L1,),
    Condition.GYM_L2: (Exposure.LEVEL_L2,),
}


#: Conditions that hand out part of the hidden side at the start (``runs.services``).
_HIDDEN_SIDE_CONDITIONS = {
    c for c in Condition.values if (c.startswith("oracle_") and c != Condition.ORACLE_0)
} | {c for c in Condition.values if c.startswith("gym_")}
_PRACTICE_NOTE = (
    "Practice uploads are scored with the evaluator's verdict. After your first scored "
    "practice upload, your later ranked runs on {case} count as informed and stay off the "
    "main board. Play your ranked runs first if you want them on the board."
)
_HIDDEN_SIDE_NOTE = (
    "This condition hands you part of {case}'s hidden side when the run starts. Your later "
    "ranked runs on it (under other conditions) then count as informed and stay off the "
    "main board."
)


def informed_after(*, case: Case, condition: str, mode: str) -> str | None:
    """What a run started this way will make of the player's later ranked runs, or None.

    Said before the exposure happens (the start response, a confirmation in the browser), so
    nobody spoils their own ranked runs by trying a case out first. A tutorial has no board.
    """
    if case.tutorial:
        return None
    if condition == Condition.FULL or condition in _HIDDEN_SIDE_CONDITIONS:
        return _HIDDEN_SIDE_NOTE.format(case=case.title)
    if mode == Mode.PRACTICE:
        return _PRACTICE_NOTE.format(case=case.title)
    return None


def already_informed(*, player: User, case: Case) -> bool:
    return (
        bool(player.is_authenticated) and Exposure.objects.filter(player=player, case=case).exists()
    )


def standing_for(*, player: User, case: Case, condition: str, mode: str, board_label: str) -> str:
    """A new run's standing (see the module docstring)."""
    if mode != Mode.RANKED:
        return Standing.PRACTICE
    exposures = Exposure.objects.filter(player=player, case=case).exclude(
        kind__in=ALREADY_TOLD.get(condition, ())
    )
    if exposures.exists():
        return Standing.INFORMED
    earlier = Run.objects.filter(
        player=player,
        case_version__case=case,
        condition=condition,
        board_label=board_label,
        standing=Standing.COUNTED,
    ).count()
    return Standing.COUNTED if earlier < counted_runs_per_case() else Standing.EXTRA
