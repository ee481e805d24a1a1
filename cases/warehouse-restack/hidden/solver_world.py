"""The floor as the solver reads it, under a chosen reading of the customer's rules.

The reference solve knows every clarification target. A counterfactual solve "ignores" one
target: it falls back to the reading a player would have without the customer's answer (the
data's own column meanings, the request's literal words). Everything downstream (layout model,
move executor) asks this module what is allowed, so one flag changes the whole solve.
"""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

# What a solve falls back to when it ignores a target (the reading without the customer's answer):
TARGETS = (
    "batch_is_mixed",  # a product type is the SKU alone
    "mixed_first",  # one move weighs as much as one mixed stack
    "top_only",  # any pallet can be pulled out of a stack
    "tier_from_top",  # tier 1 is the floor pallet
    "cold_height_limit",  # lanes.csv's max_tiers (4) holds for the chillers too
    "temperature_zones",  # any pallet may go to any lane
    "heavy_low_levels",  # no weight rule at all
    "heavy_gross_weight",  # the 800 kg applies to net_weight alone
    "weight_in_pounds",  # net_weight is read as kg
)


@dataclass(frozen=True)
class Rules:
    """The rule figures of one variant (``hidden/params.json``, docs/variants.md)."""

    lb_per_kg: float
    pallet_base_kg: dict[str, float]
    heavy_gross_kg: float
    heavy_max_level: int
    cold_tiers: int  # the chillers' real limit; lanes.csv records an older, higher one

    @classmethod
    def read(cls, path: Path) -> Rules:
        params = json.loads(path.read_text(encoding="utf-8"))
        return cls(**{name: params[name] for name in cls.__dataclass_fields__})


@dataclass(frozen=True)
class Reading:
    """Which of the customer's answers the solve takes into account."""

    ignored: frozenset[str] = frozenset()

    def knows(self, key: str) -> bool:
        return key not in self.ignored


@dataclass
class World:
    reading: Reading
    stack_ids: list[str]
    cold: list[bool]  # physical lane type of each stack
    limit: list[int]  # height limit as this reading believes it
    pallet_ids: list[str]
    kind: list[int]  # product type per pallet, as this reading defines a product type
    chilled: list[bool]
    heavy: list[bool]  # as this reading computes weight (False everywhere without the rule)
    initial: list[list[int]]  # pallet indices per stack, floor first, as this reading stacks them
    heavy_max_level: int  # the highest level (from the floor) a heavy pallet may stand on

    @property
    def n_kinds(self) -> int:
        return max(self.kind) + 1

    def zone_of_stack(self, s: int) -> str:
        if not self.reading.knows("temperature_zones"):
            return "ALL"
        return "COLD" if self.cold[s] else "AMB"

    def zone_of_pallet(self, p: int) -> str:
        if not self.reading.knows("temperature_zones"):
            return "ALL"
        return "COLD" if self.chilled[p] else "AMB"

    def can_place(self, p: int, s: int, height: int) -> bool:
        """May pallet ``p`` go on top of stack ``s`` that currently holds ``height`` pallets?"""
        if height >= self.limit[s]:
            return False
        if self.heavy[p] and height >= self.heavy_max_level:
            return False
        return self.zone_of_stack(s) == self.zone_of_pallet(p)

    def mixed_count(self, stacks: list[list[int]]) -> int:
        return sum(len({self.kind[p] for p in stack}) > 1 for stack in stacks)


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def _is_heavy(row: dict[str, str], reading: Reading, rules: Rules) -> bool:
    if not reading.knows("heavy_low_levels"):
        return False
    net = float(row["net_weight"])
    net_kg = net / rules.lb_per_kg if reading.knows("weight_in_pounds") else net
    base = rules.pallet_base_kg[row["pallet_type"]] if reading.knows("heavy_gross_weight") else 0.0
    return net_kg + base > rules.heavy_gross_kg


def load_world(data_dir: Path, reading: Reading, rules: Rules) -> World:
    lanes = {row["lane_id"]: row for row in _rows(data_dir / "lanes.csv")}
    stack_rows = _rows(data_dir / "stacks.csv")
    stack_ids = [row["stack_id"] for row in stack_rows]
    cold = [lanes[row["lane_id"]]["zone"] == "COLD" for row in stack_rows]
    limit = [int(lanes[row["lane_id"]]["max_tiers"]) for row in stack_rows]
    if reading.knows("cold_height_limit"):
        limit = [min(h, rules.cold_tiers) if c else h for h, c in zip(limit, cold, strict=True)]
    chilled_sku = {
        row["sku"]: row["storage_class"] == "CHL" for row in _rows(data_dir / "sku_master.csv")
    }
    pallet_rows = _rows(data_dir / "pallets.csv")
    kinds: dict[tuple[str, str], int] = {}
    kind, chilled, heavy, pallet_ids = [], [], [], []
    tiers: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for index, row in enumerate(pallet_rows):
        key = (row["sku"], row["batch"] if reading.knows("batch_is_mixed") else "")
        kind.append(kinds.setdefault(key, len(kinds)))
        chilled.append(chilled_sku[row["sku"]])
        heavy.append(_is_heavy(row, reading, rules))
        pallet_ids.append(row["pallet_id"])
        tiers[row["stack_id"]].append((int(row["tier"]), index))
    from_top = reading.knows("tier_from_top")
    initial = [[p for _, p in sorted(tiers.get(sid, []), reverse=from_top)] for sid in stack_ids]
    return World(
        reading,
        stack_ids,
        cold,
        limit,
        pallet_ids,
        kind,
        chilled,
        heavy,
        initial,
        rules.heavy_max_level,
    )


@dataclass(frozen=True)
class Outcome:
    """How a move list fares in the solver's own reading of the rules."""

    valid: bool
    mixed: int
    moves: int

    @property
    def key(self) -> tuple[int, int, int]:
        return (0 if self.valid else 1, self.mixed, self.moves)


def replay(world: World, moves: list[tuple[int, int, int]]) -> Outcome:
    """Apply ``(pallet, from, to)`` moves under the world's own rules."""
    stacks = [list(s) for s in world.initial]
    where = {p: s for s, stack in enumerate(stacks) for p in stack}
    strict_top = world.reading.knows("top_only")
    for p, source, target in moves:
        stack = stacks[source]
        if where.get(p) != source or (strict_top and stack[-1] != p):
            return Outcome(False, world.mixed_count(stacks), len(moves))
        if source == target or not world.can_place(p, target, len(stacks[target])):
            return Outcome(False, world.mixed_count(stacks), len(moves))
        stack.remove(p)
        stacks[target].append(p)
        where[p] = target
    return Outcome(True, world.mixed_count(stacks), len(moves))
