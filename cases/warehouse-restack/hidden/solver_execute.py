"""Turn a target layout into an executable move list, one reachable pallet at a time.

The layout says what every stack should become; this module finds an order in which a reach
truck can get there. A pallet is *dirty* while it sits above the part of its stack that stays
(the kept bottom run, or nothing for a stack that is cleared). Each step takes a dirty pallet
that can go straight to its final place (a home of its product, a mixed stack chosen to stay
mixed, or a leftover empty position).

On a nearly full floor that soon deadlocks: pallet A waits for a stack that B sits on, B waits
for the stack A sits on. The executor then looks for the stack most wanted by waiting pallets
and parks its top pallet on a working-space position (kept free by the layout) or on a stack
nobody waits for. A pallet is parked at most twice, so the loop always ends. When the floor has
no room left at all for a pallet, a clean stack is given up and becomes mixed.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict

from solver_layout import Layout, stack_facts
from solver_world import World

HOME, JUNK, CLEAR, SPARE = "home", "junk", "clear", "spare"
MAX_PARKING = 2
Move = tuple[int, int, int]  # (pallet, from stack, to stack)


class Executor:
    def __init__(self, world: World, layout: Layout, variant: int) -> None:
        self.world = world
        self.variant = variant
        self.rng = random.Random(variant)
        self.stacks = [list(s) for s in world.initial]
        self.where = {p: s for s, stack in enumerate(self.stacks) for p in stack}
        n = len(self.stacks)
        self.role = [CLEAR] * n
        self.home_kind: list[int | None] = [None] * n
        self.clean = [0] * n
        self.homes: dict[int, list[int]] = defaultdict(list)
        self.junk: dict[str, set[int]] = defaultdict(set)
        self.leftover: dict[str, set[int]] = defaultdict(set)  # emptied, unplanned positions
        self.parked: Counter[int] = Counter()
        self.moves: list[Move] = []
        self.strict_top = world.reading.knows("top_only")
        self.kind_zone = {k: world.zone_of_pallet(p) for p, k in enumerate(world.kind)}
        self._assign_roles(layout)
        self.rank = self._sequence()
        dirty_pallets = [p for s, stack in enumerate(self.stacks) for p in stack[self.clean[s] :]]
        self.waiting = Counter(world.kind[p] for p in dirty_pallets)
        self.pending_heavy = Counter(world.kind[p] for p in dirty_pallets if world.heavy[p])

    # -- roles -------------------------------------------------------------------------------

    def _assign_roles(self, layout: Layout) -> None:
        facts = stack_facts(self.world)
        for s in layout.keep:
            self._make_home(s, facts[s].bottom_kind, facts[s].run)
        for s in layout.junk:
            self._make_junk(s)
            self.clean[s] = len(self.stacks[s])
        for s in layout.reserve:
            self.role[s] = SPARE
        free: dict[tuple[str, int], list[int]] = defaultdict(list)
        for s in range(len(self.stacks)):
            if self.role[s] == CLEAR:
                free[self.world.zone_of_stack(s), self.world.limit[s]].append(s)
        sizes = Counter(self.world.kind)
        for key, stacks in sorted(free.items()):
            tie = {s: self.rng.random() if self.variant else float(s) for s in stacks}
            stacks.sort(key=lambda s: (len(self.stacks[s]), tie[s]))
            # Bigger products get the positions that are empty already.
            homes = sorted(layout.fresh_homes.get(key, []), key=lambda k: -sizes[k])
            demand: list[int | None] = [*homes, *[None] * layout.fresh_junk.get(key, 0)]
            for s, kind in zip(stacks, demand, strict=False):
                if kind is None:
                    self._make_junk(s)
                else:
                    self._make_home(s, kind, 0)
            self.leftover[key[0]].update(s for s in stacks[len(demand) :] if not self.stacks[s])

    def _make_home(self, s: int, kind: int | None, keep: int) -> None:
        assert kind is not None
        self.role[s], self.home_kind[s], self.clean[s] = HOME, kind, keep
        self.homes[kind].append(s)
        self.leftover[self.world.zone_of_stack(s)].discard(s)

    def _make_junk(self, s: int) -> None:
        kind = self.home_kind[s]
        if kind is not None:
            self.homes[kind].remove(s)
        self.role[s], self.home_kind[s] = JUNK, None
        self.junk[self.world.zone_of_stack(s)].add(s)
        self.leftover[self.world.zone_of_stack(s)].discard(s)

    def _sequence(self) -> list[int]:
        """The order in which stacks are scanned: wanted stacks with little to remove first."""
        tie = [self.rng.random() if self.variant % 2 else float(s) for s in range(len(self.stacks))]

        def key(s: int) -> tuple[float, ...]:
            # Working space always comes last; variants differ in whether the role or the
            # amount to remove decides first among the others.
            needed = {CLEAR: 1, SPARE: 2}.get(self.role[s], 0)
            if self.variant % 4 >= 2:
                return (needed == 2, self.dirty(s), needed, tie[s])
            return (needed, self.dirty(s), tie[s])

        order = sorted(range(len(self.stacks)), key=key)
        rank = [0] * len(order)
        for position, s in enumerate(order):
            rank[s] = position
        return rank

    # -- state helpers -----------------------------------------------------------------------

    def dirty(self, s: int) -> int:
        return len(self.stacks[s]) - self.clean[s]

    def is_clean(self, s: int) -> bool:
        return len(self.stacks[s]) == self.clean[s]

    def heavy_slots(self, kind: int) -> int:
        return sum(max(0, self.world.heavy_max_level - self.clean[s]) for s in self.homes[kind])

    def junk_heavy_spare(self, zone: str) -> int:
        """Low junk slots left once heavy pallets without a home slot have taken theirs."""
        slots = sum(max(0, self.world.heavy_max_level - self.clean[s]) for s in self.junk[zone])
        homeless = sum(
            max(0, waiting - self.heavy_slots(kind))
            for kind, waiting in self.pending_heavy.items()
            if waiting and self.kind_zone[kind] == zone
        )
        return slots - homeless

    def _apply(self, p: int, target: int, final: bool) -> None:
        source = self.where[p]
        self.stacks[source].remove(p)
        self.stacks[target].append(p)
        self.where[p] = target
        self.moves.append((p, source, target))
        if self.role[source] == CLEAR and not self.stacks[source]:
            self.leftover[self.world.zone_of_stack(source)].add(source)
        if final:
            self.clean[target] += 1
            self.waiting[self.world.kind[p]] -= 1
            if self.world.heavy[p]:
                self.pending_heavy[self.world.kind[p]] -= 1
        else:
            self.parked[p] += 1

    # -- destinations ------------------------------------------------------------------------

    def _fits_now(self, p: int, s: int) -> bool:
        return (
            s != self.where[p]
            and self.is_clean(s)
            and self.world.can_place(p, s, len(self.stacks[s]))
        )

    def _keep_low_slots(self, p: int, options: list[int], spare_low_slots: int) -> list[int]:
        """Light pallets take a level-1/2 slot only when no heavy pallet still needs it."""
        if self.world.heavy[p]:
            return options
        high = [s for s in options if len(self.stacks[s]) >= self.world.heavy_max_level]
        return high or (options if spare_low_slots > 0 else [])

    def final_destination(self, p: int) -> int | None:
        kind, zone = self.world.kind[p], self.world.zone_of_pallet(p)
        homes = [s for s in self.homes[kind] if self._fits_now(p, s)]
        homes = self._keep_low_slots(p, homes, self.heavy_slots(kind) - self.pending_heavy[kind])
        if homes:
            return max(homes, key=lambda s: (len(self.stacks[s]), -s))
        junk = [s for s in self.junk[zone] if self._fits_now(p, s)] if self.surplus(p) else []
        junk = self._keep_low_slots(p, junk, self.junk_heavy_spare(zone))
        if junk:
            return max(junk, key=lambda s: (len(self.stacks[s]), -s))
        if self.leftover[zone]:
            spare = min(self.leftover[zone])
            self._make_home(spare, kind, 0)
            return spare
        return None

    def future_places(self, p: int) -> list[int]:
        """Dirty stacks that could take ``p`` once the pallets above their kept part are gone."""
        world, kind, zone = self.world, self.world.kind[p], self.world.zone_of_pallet(p)
        candidates = [*self.homes[kind], *(self.junk[zone] if self.surplus(p) else [])]
        return [
            s
            for s in candidates
            if not self.is_clean(s)
            and s != self.where[p]
            and self.clean[s] < world.limit[s]
            and world.zone_of_stack(s) == zone
            and not (world.heavy[p] and self.clean[s] >= self.world.heavy_max_level)
        ]

    def parking_place(self, p: int, wanted: Counter[int]) -> int | None:
        """Where to park ``p``: working space first, else a dirty stack nobody waits for."""
        if self.parked[p] >= MAX_PARKING:
            return None
        source, heavy = self.where[p], self.world.heavy[p]
        options = []
        for s, stack in enumerate(self.stacks):
            if s == source or not self.world.can_place(p, s, len(stack)):
                continue
            if self.role[s] == SPARE and self.role[source] != SPARE:
                low = len(stack) < self.world.heavy_max_level
                options.append((0, low != heavy, -len(stack), s))
            elif (
                self.role[s] != SPARE
                and self.parked[p] == 0
                and not self.is_clean(s)
                and not wanted[s]
            ):
                options.append((1, self.role[s] != CLEAR, -self.rank[s], s))
        return min(options)[-1] if options else None

    def give_up_stack(self, p: int) -> int | None:
        """No room left anywhere for ``p``: open a working-space position for good, or let a
        clean stack become mixed."""
        for s, stack in enumerate(self.stacks):
            if self.role[s] == SPARE and not stack and self.world.can_place(p, s, 0):
                self._make_home(s, self.world.kind[p], 0)
                return s
        options = []
        for s, stack in enumerate(self.stacks):
            if self._fits_now(p, s) and self.role[s] != SPARE:
                kind = self.home_kind[s]
                still_needed = kind is not None and self.waiting[kind] > 0
                options.append((still_needed, len(stack) - self.world.limit[s], s))
        if not options:
            return None
        s = min(options)[2]
        self._make_junk(s)
        return s

    def surplus(self, p: int) -> bool:
        """Will ``p``'s product run out of home room (or of low slots, if heavy)?

        Only such pallets may take junk room; the others wait for their homes, so the junk
        room the layout planned for leftovers is not eaten by pallets that have a home.
        """
        kind = self.world.kind[p]
        room = sum(self.world.limit[s] - self.clean[s] for s in self.homes[kind])
        if self.waiting[kind] > room:
            return True
        return self.world.heavy[p] and self.pending_heavy[kind] > self.heavy_slots(kind)

    # -- main loop ---------------------------------------------------------------------------

    def pickable(self, s: int) -> list[int]:
        stack = self.stacks[s]
        if self.strict_top:
            return [stack[-1]]
        return list(reversed(stack[self.clean[s] :]))

    def step(self) -> bool:
        dirty = sorted(
            (s for s in range(len(self.stacks)) if not self.is_clean(s)),
            key=self.rank.__getitem__,
        )
        if not dirty:
            return False
        for s in dirty:
            for p in self.pickable(s):
                target = self.final_destination(p)
                if target is not None:
                    self._apply(p, target, final=True)
                    return True
        if self._unblock(dirty):
            return True
        p = self.stacks[dirty[0]][-1]
        target = self.give_up_stack(p)
        if target is None:
            raise RuntimeError(f"no legal place at all for pallet {self.world.pallet_ids[p]}")
        self._apply(p, target, final=True)
        return True

    def _unblock(self, dirty: list[int]) -> bool:
        """Park the top pallet of the stack that most waiting pallets need cleared."""
        wanted: Counter[int] = Counter()
        for s in dirty:
            places = self.future_places(self.stacks[s][-1])
            for place in places:
                wanted[place] += 1
        ranked = sorted(dirty, key=lambda s: (-wanted[s] / self.dirty(s), self.rank[s]))
        for s in ranked:
            if not wanted[s] and self.role[s] != SPARE:
                continue
            p = self.stacks[s][-1]
            target = self.parking_place(p, wanted)
            if target is not None:
                self._apply(p, target, final=False)
                return True
        return False

    def run(self) -> list[Move]:
        while self.step():
            pass
        return self.moves


def execute(world: World, layout: Layout, variant: int = 0) -> list[Move]:
    return Executor(world, layout, variant).run()
