"""Shortcut anchor: what a hurried solve that knows every rule but plans nothing produces.

"Quick wins" walks the floor once, lane by lane. For a mixed stack it looks at the pallets above
the bottom run; if every one of them can go straight onto a pure stack of its own product that
has room, it moves them and the stack is tidy. Otherwise the stack is left alone. Empty
positions are never opened and nothing is ever parked, so the list is valid but leaves most of
the floor mixed. It must score well below the reference (admission: <= 0.8).
"""

from __future__ import annotations

from solver_execute import Move
from solver_world import World


def _pure_homes(world: World, stacks: list[list[int]], kind: int, source: int) -> list[int]:
    return [
        s
        for s, stack in enumerate(stacks)
        if s != source and stack and all(world.kind[q] == kind for q in stack)
    ]


def quick_wins(world: World) -> list[Move]:
    stacks = [list(s) for s in world.initial]
    moves: list[Move] = []
    for s, stack in enumerate(stacks):
        if len({world.kind[p] for p in stack}) < 2:
            continue
        bottom = world.kind[stack[0]]
        run = next(i for i, p in enumerate(stack) if world.kind[p] != bottom)
        plan: list[Move] = []
        trial = [list(x) for x in stacks]
        for p in reversed(stack[run:]):
            homes = [
                h
                for h in _pure_homes(world, trial, world.kind[p], s)
                if world.can_place(p, h, len(trial[h]))
            ]
            if not homes:
                break
            target = homes[0]
            trial[s].pop()
            trial[target].append(p)
            plan.append((p, s, target))
        else:
            stacks = trial
            moves += plan
    return moves
