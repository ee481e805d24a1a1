"""Local improvement of a move list: remove the detours the executor had to take.

A pallet parked on a buffer stack and fetched later is two moves where one may do, once the
whole plan is known. Each candidate shortcut is checked by replaying the full list under the
solver's rules; it is kept only when the list stays valid and ends with no more mixed stacks.
"""

from __future__ import annotations

from solver_execute import Move
from solver_world import Outcome, World, replay


def _detours(moves: list[Move]) -> list[tuple[int, int]]:
    """Index pairs (i, j): the same pallet moved at step i and next at step j."""
    last: dict[int, int] = {}
    pairs = []
    for index, (pallet, _, _) in enumerate(moves):
        if pallet in last:
            pairs.append((last[pallet], index))
        last[pallet] = index
    return pairs


def _shortcuts(moves: list[Move], i: int, j: int) -> list[list[Move]]:
    pallet, origin, _ = moves[i]
    destination = moves[j][2]
    before, between, after = moves[:i], moves[i + 1 : j], moves[j + 1 :]
    if origin == destination:
        return [[*before, *between, *after]]
    direct = (pallet, origin, destination)
    return [[*before, direct, *between, *after], [*before, *between, direct, *after]]


def polish(world: World, moves: list[Move], max_rounds: int = 400) -> list[Move]:
    best: Outcome = replay(world, moves)
    tried: set[tuple[Move, Move]] = set()
    for _ in range(max_rounds):
        for i, j in _detours(moves):
            signature = (moves[i], moves[j])
            if signature in tried:
                continue
            tried.add(signature)
            better = next(
                (c for c in _shortcuts(moves, i, j) if replay(world, c).key <= best.key), None
            )
            if better is not None:
                moves, best = better, replay(world, better)
                break
        else:
            return moves
    return moves
