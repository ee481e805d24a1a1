"""Decide the target layout with a MIP (HiGHS): which stacks stay, which are cleared, which stay mixed.

Every stack gets one of three fates:

- *keep*: it becomes (or stays) a pure home of its floor pallet's product; the run of that
  product at the bottom stays put, everything above it moves off; it may receive more of the
  same product up to the height limit;
- *junk*: a stack that is already mixed stays exactly as it is and may take leftovers on top;
  it counts as a mixed stack;
- *clear*: every pallet moves off; the empty position becomes a fresh home for some product,
  a fresh junk stack, or a spare.

The model counts fresh positions per (zone, height limit) instead of naming them, which keeps
it small (a few thousand variables for ~550 stacks). It minimises ``weight * mixed + moves``,
where moves is the number of pallets that leave their position (buffer moves come later, in the
executor). Heavy pallets need a slot at level 1 or 2, which the model counts separately.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import highspy
from solver_world import World

MIXED_WEIGHT = 1000


@dataclass
class StackFacts:
    """What the model needs to know about one stack's current content."""

    height: int
    bottom_kind: int | None
    run: int  # pallets of the bottom kind from the floor up, uninterrupted
    run_heavy: int
    counts: dict[int, tuple[int, int]] = field(default_factory=dict)  # kind -> (heavy, light)

    @property
    def mixed(self) -> bool:
        return len(self.counts) > 1


@dataclass
class Layout:
    keep: set[int]
    junk: set[int]
    fresh_homes: dict[tuple[str, int], list[int]]  # (zone, limit) -> kinds, one per position
    fresh_junk: dict[tuple[str, int], int]
    reserve: set[int]  # empty positions kept free as working space for the night shift
    objective: float


def stack_facts(world: World) -> list[StackFacts]:
    facts = []
    for stack in world.initial:
        if not stack:
            facts.append(StackFacts(0, None, 0, 0))
            continue
        bottom = world.kind[stack[0]]
        run = next((i for i, p in enumerate(stack) if world.kind[p] != bottom), len(stack))
        counts: dict[int, list[int]] = defaultdict(lambda: [0, 0])
        for p in stack:
            counts[world.kind[p]][0 if world.heavy[p] else 1] += 1
        facts.append(
            StackFacts(
                height=len(stack),
                bottom_kind=bottom,
                run=run,
                run_heavy=sum(world.heavy[p] for p in stack[:run]),
                counts={k: (v[0], v[1]) for k, v in counts.items()},
            )
        )
    return facts


class LayoutModel:
    """Builds and solves the MIP for one world."""

    def __init__(self, world: World, mixed_weight: int, reserve: set[int]) -> None:
        self.world = world
        self.reserve = reserve
        self.facts = stack_facts(world)
        self.weight = mixed_weight
        self.model = highspy.Highs()  # type: ignore[no-untyped-call]
        self.model.silent()
        self.model.setOptionValue("threads", 1)
        self.model.setOptionValue("random_seed", 7)
        self.kind_zone = self._kind_zones()
        self.classes = self._height_classes()
        self.keep: dict[int, Any] = {}
        self.junk: dict[int, Any] = {}
        self.fresh: dict[tuple[int, int], Any] = {}
        self.fresh_junk: dict[tuple[str, int], Any] = {}

    def total(self, terms: list[Any]) -> Any:
        """Sum of linear terms as one HiGHS expression (an empty sum is zero)."""
        return self.model.qsum(terms)

    def _kind_zones(self) -> dict[int, str]:
        return {k: self.world.zone_of_pallet(p) for p, k in enumerate(self.world.kind)}

    def _height_classes(self) -> dict[str, dict[int, list[int]]]:
        classes: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
        for s in range(len(self.world.stack_ids)):
            if s not in self.reserve:
                classes[self.world.zone_of_stack(s)][self.world.limit[s]].append(s)
        return classes

    def build(self) -> None:
        m = self.model
        for s, f in enumerate(self.facts):
            if f.height:
                self.keep[s] = m.addBinary()
            if f.mixed:
                self.junk[s] = m.addBinary()
                m.addConstr(self.keep[s] + self.junk[s] <= 1)
        totals: dict[int, list[int]] = defaultdict(lambda: [0, 0])
        for p, k in enumerate(self.world.kind):
            totals[k][0 if self.world.heavy[p] else 1] += 1
        for zone, by_limit in self.classes.items():
            for limit in by_limit:
                self.fresh_junk[zone, limit] = m.addIntegral(0, len(by_limit[limit]))
        for k, zone in self.kind_zone.items():
            n = sum(totals[k])
            for limit in self.classes[zone]:
                self.fresh[k, limit] = m.addIntegral(0, n)
        self._position_budget()
        self._flows(totals)

    def _position_budget(self) -> None:
        for zone, by_limit in self.classes.items():
            for limit, stacks in by_limit.items():
                used = [self.keep[s] for s in stacks if s in self.keep]
                used += [self.junk[s] for s in stacks if s in self.junk]
                fresh = [self.fresh[k, limit] for k, z in self.kind_zone.items() if z == zone]
                budget = self.total([*used, *fresh, self.fresh_junk[zone, limit]])
                self.model.addConstr(budget <= len(stacks))

    def _flows(self, totals: dict[int, list[int]]) -> None:
        """Every pallet that leaves its position needs a home slot or a junk slot."""
        m, world = self.model, self.world
        junk_in: dict[str, list[Any]] = defaultdict(list)
        junk_heavy_in: dict[str, list[Any]] = defaultdict(list)
        for k, zone in self.kind_zone.items():
            heavy, light = totals[k]
            kept_heavy, kept_light, room, heavy_room = [], [], [], []
            for s, f in enumerate(self.facts):
                if f.bottom_kind == k:
                    kept_heavy.append(f.run_heavy * self.keep[s])
                    kept_light.append((f.run - f.run_heavy) * self.keep[s])
                    if world.zone_of_stack(s) == zone:
                        room.append(max(0, world.limit[s] - f.run) * self.keep[s])
                        heavy_room.append(max(0, world.heavy_max_level - f.run) * self.keep[s])
                if s in self.junk and k in f.counts:
                    kept_heavy.append(f.counts[k][0] * self.junk[s])
                    kept_light.append(f.counts[k][1] * self.junk[s])
            xh, xl = m.addIntegral(0, heavy), m.addIntegral(0, light)
            yh, yl = m.addIntegral(0, heavy), m.addIntegral(0, light)
            m.addConstr(self.total([xh, yh, *kept_heavy]) == heavy)
            m.addConstr(self.total([xl, yl, *kept_light]) == light)
            fresh = [(limit, self.fresh[k, limit]) for limit in self.classes[zone]]
            m.addConstr(xh + xl <= self.total([*room, *(limit * v for limit, v in fresh)]))
            if heavy:
                slots = [*heavy_room, *(world.heavy_max_level * v for _, v in fresh)]
                m.addConstr(xh <= self.total(slots))
            junk_in[zone] += [yh, yl]
            junk_heavy_in[zone].append(yh)
        for zone, by_limit in self.classes.items():
            room, heavy_room = [], []
            for s in self.junk:
                if world.zone_of_stack(s) == zone:
                    room.append(max(0, world.limit[s] - self.facts[s].height) * self.junk[s])
                    heavy_room.append(
                        max(0, world.heavy_max_level - self.facts[s].height) * self.junk[s]
                    )
            fresh = [(limit, self.fresh_junk[zone, limit]) for limit in by_limit]
            capacity = self.total([*room, *(limit * v for limit, v in fresh)])
            m.addConstr(self.total(junk_in[zone]) <= capacity)
            heavy_slots = self.total([*heavy_room, *(world.heavy_max_level * v for _, v in fresh)])
            m.addConstr(self.total(junk_heavy_in[zone]) <= heavy_slots)

    def solve(self, gap: float) -> Layout:
        self.build()
        m = self.model
        mixed = self.total([*self.junk.values(), *self.fresh_junk.values()])
        kept = [self.facts[s].run * v for s, v in self.keep.items()]
        kept += [self.facts[s].height * v for s, v in self.junk.items()]
        pallets = len(self.world.kind)
        m.setOptionValue("mip_rel_gap", gap)
        m.setOptionValue("time_limit", 300.0)  # a safety net only; solves take seconds
        m.minimize(self.weight * mixed + pallets - self.total(kept))
        if m.getModelStatus() not in (highspy.HighsModelStatus.kOptimal,):
            raise RuntimeError(f"the layout model stopped with {m.getModelStatus()}")
        return self._extract()

    def _extract(self) -> Layout:
        m = self.model

        def value(v: Any) -> int:
            level: float = m.val(v)
            return round(level)

        homes: dict[tuple[str, int], list[int]] = defaultdict(list)
        for (k, limit), v in self.fresh.items():
            homes[self.kind_zone[k], limit] += [k] * value(v)
        return Layout(
            keep={s for s, v in self.keep.items() if value(v)},
            junk={s for s, v in self.junk.items() if value(v)},
            fresh_homes=dict(homes),
            fresh_junk={key: value(v) for key, v in self.fresh_junk.items()},
            reserve=self.reserve,
            objective=m.getInfo().objective_function_value,
        )


def working_space(world: World, per_zone: int) -> set[int]:
    """Empty positions to keep free while restacking: the tallest ones of each zone.

    Without them a nearly full floor deadlocks (every pallet waits for a stack that waits for
    it); a few free positions let the truck park a pallet and break the cycle.
    """
    chosen: set[int] = set()
    zones = {world.zone_of_stack(s) for s in range(len(world.stack_ids))}
    for zone in sorted(zones):
        empty = [
            s
            for s, stack in enumerate(world.initial)
            if not stack and world.zone_of_stack(s) == zone
        ]
        empty.sort(key=lambda s: (-world.limit[s], s))
        chosen.update(empty[:per_zone])
    return chosen


def plan_layout(world: World, reserve_per_zone: int = 6, gap: float = 1e-4) -> Layout:
    weight = MIXED_WEIGHT if world.reading.knows("mixed_first") else 1
    reserve = working_space(world, reserve_per_zone)
    return LayoutModel(world, weight, reserve).solve(gap)
