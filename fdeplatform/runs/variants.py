"""Which variant a new run plays (docs/variants.md, "A run is assigned a variant").

Deterministic from (player, case, run index): each player gets their own order of the case's
variants (a seeded shuffle, so players do not all meet them in the same order and a leaked
"run 1 is variant X" is worth nothing), and their n-th ranked run under a configuration takes
the n-th variant of that order. So a player's k counted ranked runs get k different variants
when the case has k or more, and a retried start (same index) gets the same one. Practice
runs draw from the same pool with their own order and index, so practising does not reveal
which variant the next ranked run will be.
"""

from __future__ import annotations

import hashlib

from django.contrib.auth.models import User

from fdeplatform.cases.models import Case, CaseVersion
from fdeplatform.runs.models import Mode, Run


def variant_order(variants: list[str], *, player_id: int, case_slug: str, mode: str) -> list[str]:
    """The player's own order of the variants (stable across processes and releases)."""

    def key(variant: str) -> str:
        return hashlib.sha256(f"{player_id}\0{case_slug}\0{mode}\0{variant}".encode()).hexdigest()

    return sorted(variants, key=key)


def pick_variant(
    variants: list[str], *, player_id: int, case_slug: str, mode: str, index: int
) -> str:
    order = variant_order(variants, player_id=player_id, case_slug=case_slug, mode=mode)
    return order[index % len(order)]


def run_index(*, player: User, case: Case, condition: str, mode: str, board_label: str) -> int:
    """How many runs of this kind the player started before: ranked runs of the same
    configuration (what ``standing`` counts k of), or any practice run on the case."""
    runs = Run.objects.filter(player=player, case_version__case=case, mode=mode)
    if mode == Mode.RANKED:
        runs = runs.filter(condition=condition, board_label=board_label)
    return runs.count()


def assign_variant(
    *, player: User, version: CaseVersion, condition: str, mode: str, board_label: str
) -> str:
    case = version.case
    index = run_index(
        player=player, case=case, condition=condition, mode=mode, board_label=board_label
    )
    return pick_variant(
        version.variants, player_id=player.pk, case_slug=case.slug, mode=mode, index=index
    )
