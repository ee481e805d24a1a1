"""Rebuild ``data/`` for the warehouse-restack case from a fixed seed.

The floor is not drawn at random: it is the result of simulating months of goods-in and
picking at a block-stacked DC, because that is how real floors end up mixed. Put-away drivers
start a fresh stack when an empty position is free and top up a part-used stack when the floor
is full; picking takes whatever pallet is on top. Old batches therefore end up buried under
new ones, exactly the mess the customer wants tidied.

The exported files keep the customer's quirks on purpose (they are clarification targets):
- ``pallets.csv`` numbers ``tier`` from the top of the stack (tier 1 is the pallet a truck
  reaches first), not from the floor;
- ``net_weight`` is in pounds (the WMS was configured by the US parent) and excludes the
  pallet base, while the heavy-pallet rule is about gross kilograms;
- ``lanes.csv`` still records the cold lanes as 4 high, which the evaporator retrofit made
  untrue (the real limit, 3 in the base variant, is what the simulation honours).

Every rule figure (cold limits, heavy weight and level, pallet bases, the pound) and the seed
come from ``params.json`` (docs/variants.md), so a variant changes that file only.

Run: ``python cases/warehouse-restack/hidden/generate.py`` rebuilds the base ``data/`` in place;
``generate.py --params P --out ROOT`` writes ``ROOT/data/`` for the parameters in ``P``.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import json
import random
from dataclasses import dataclass, field
from pathlib import Path

from generate_catalogue import CATEGORIES

HIDDEN = Path(__file__).resolve().parent
SNAPSHOT = dt.date(2024, 6, 20)


@dataclass(frozen=True)
class Rules:
    """The figures of ``params.json`` the simulation honours (and the export misstates)."""

    seed: int
    lb_per_kg: float
    pallet_base_kg: dict[str, float]
    heavy_gross_kg: float
    heavy_max_level: int
    cold_tiers: int
    recorded_cold_tiers: int

    @classmethod
    def read(cls, path: Path) -> Rules:
        params = json.loads(path.read_text(encoding="utf-8"))
        return cls(**{name: params[name] for name in cls.__dataclass_fields__})


# The base variant's figures at import; main() replaces them with those of --params.
RULES = Rules.read(HIDDEN / "params.json")


@dataclass
class Sku:
    code: str
    description: str
    category: str
    supplier: str
    storage: str
    net_kg: float
    sd_kg: float
    cases: int
    shelf_life: int
    lot_size: tuple[int, int]
    interval: tuple[int, int]
    pallet_type: str


@dataclass
class Pallet:
    sku: Sku
    batch: str
    cases: int
    net_kg: float
    pallet_type: str
    received: dt.date
    seq: int
    pallet_id: str = ""

    @property
    def heavy(self) -> bool:
        return self.net_kg + RULES.pallet_base_kg[self.pallet_type] > RULES.heavy_gross_kg


@dataclass
class Floor:
    """The stacks of one temperature zone, bottom pallet first, with their real limits."""

    ids: list[str]
    limits: list[int]
    stacks: list[list[Pallet]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.stacks = [[] for _ in self.ids]

    def fits(self, index: int, pallet: Pallet) -> bool:
        height = len(self.stacks[index])
        if height >= self.limits[index]:
            return False
        return not (pallet.heavy and height >= RULES.heavy_max_level)

    def occupancy(self) -> int:
        return sum(len(s) for s in self.stacks)


def lanes() -> list[dict[str, str]]:
    rows = []
    for n in range(1, 17):
        tiers = 3 if n <= 4 else (4 if n <= 12 else 5)
        remark = {3: "under mezzanine", 4: "", 5: "high bay, sprinkler zone B"}[tiers]
        rows.append(
            {
                "lane_id": f"A{n:02d}",
                "zone": "AMBIENT",
                "temperature_band": "+10..+25C",
                "positions": "26",
                "max_tiers": str(tiers),
                "last_surveyed": "2024-02-06",
                "remarks": remark,
            }
        )
    for n in range(1, 7):
        rows.append(
            {
                "lane_id": f"C{n:02d}",
                "zone": "COLD",
                "temperature_band": "+1..+5C",
                "positions": "22",
                "max_tiers": str(RULES.recorded_cold_tiers),
                "last_surveyed": "2023-09-14",
                "remarks": f"chiller {1 + (n - 1) // 3}",
            }
        )
    return rows


def build_skus(rng: random.Random) -> list[Sku]:
    skus: list[Sku] = []
    code = 410100
    for category, storage, brands, items, net, sd, cases, life, lot, gap in CATEGORIES:
        pallet_types = ["PLASTIC", "PLASTIC", "EUR"] if storage == "CHL" else ["EUR", "CHEP"]
        for brand in brands:
            for item in items:
                code += rng.randint(3, 40)
                skus.append(
                    Sku(
                        str(code),
                        f"{brand} {item}",
                        category,
                        brand,
                        storage,
                        net * rng.uniform(0.97, 1.03),
                        sd,
                        cases,
                        life,
                        lot,
                        gap,
                        rng.choice(pallet_types),
                    )
                )
    return skus


def receive_lot(rng: random.Random, sku: Sku, day: dt.date, counter: list[int]) -> list[Pallet]:
    batch = f"L{day:%y}{day.timetuple().tm_yday:03d}{rng.choice('ABCDEFGH')}"
    size = rng.randint(*sku.lot_size)
    lot = []
    for _ in range(size):
        cases = sku.cases if rng.random() > 0.12 else rng.randint(sku.cases // 3, sku.cases - 1)
        net = max(60.0, rng.gauss(sku.net_kg, sku.sd_kg)) * cases / sku.cases
        counter[0] += 1
        lot.append(Pallet(sku, batch, cases, net, sku.pallet_type, day, counter[0]))
    return lot


def put_away(rng: random.Random, floor: Floor, lot: list[Pallet], reserve: int) -> None:
    """Place a lot like a driver would: fresh stacks while the floor has room, else top up.

    The last pallet or two of a lot rarely get a floor position of their own: drivers drop
    them on top of a part-used stack, which is how most mixed stacks start.
    """
    pending = sorted(lot, key=lambda p: not p.heavy)
    while pending:
        empties = [i for i, s in enumerate(floor.stacks) if not s]
        remainder = len(pending) <= 2 and rng.random() < 0.7
        if empties and not remainder and (len(empties) > reserve or rng.random() < 0.6):
            target = rng.choice(empties)
        else:
            open_ = [i for i, s in enumerate(floor.stacks) if s and floor.fits(i, pending[0])]
            if not open_:
                open_ = empties
            if not open_:
                return  # floor full: the rest goes back on the truck (overflow)
            target = rng.choice(open_)
        placed = False
        for pallet in list(pending):
            if floor.fits(target, pallet):
                floor.stacks[target].append(pallet)
                pending.remove(pallet)
                placed = True
        if not placed:
            return


def pick(rng: random.Random, floor: Floor, sku: Sku) -> None:
    """Ship one pallet of ``sku``: the oldest batch a truck can reach, digging if need be.

    When no pallet of the SKU is on top, the driver digs out the shallowest one and drops the
    pallets above it on whatever stack has room: the single biggest source of mixed stacks.
    """
    holders = [
        (len(s) - 1 - lvl, p.received, i, lvl)
        for i, s in enumerate(floor.stacks)
        for lvl, p in enumerate(s)
        if p.sku is sku
    ]
    if not holders:
        return
    depth, _, index, level = min(holders)
    if depth > 0 and rng.random() < 0.4:
        return  # served from the pick face instead; the buried pallet waits
    stack = floor.stacks[index]
    blockers = stack[level + 1 :]
    del stack[level:]
    for blocker in reversed(blockers):
        options = [i for i in range(len(floor.ids)) if i != index and floor.fits(i, blocker)]
        options.sort(key=lambda i: (len(floor.stacks[i]) == 0, rng.random()))
        target = options[0] if options else index
        floor.stacks[target].append(blocker)


def trim(rng: random.Random, floor: Floor, target: int) -> None:
    """Urgent shipments off the top when the floor is over its working fill."""
    while floor.occupancy() > target:
        used = [i for i, s in enumerate(floor.stacks) if s]
        floor.stacks[rng.choice(used)].pop()


def simulate(
    rng: random.Random,
    floor: Floor,
    skus: list[Sku],
    start: dt.date,
    days: int,
    fill: float,
    reserve: int,
    counter: list[int],
    demand_share: float,
    overflow: list[list[Pallet]] | None = None,
) -> None:
    capacity = sum(floor.limits)
    next_delivery = {s.code: start + dt.timedelta(days=rng.randint(0, s.interval[1])) for s in skus}
    # Demand runs a little under supply (the build-up to summer), so stock piles up until the
    # floor is at its working fill.
    rate = {s.code: demand_share * sum(s.lot_size) / sum(s.interval) for s in skus}
    for offset in range(days):
        day = start + dt.timedelta(days=offset)
        for sku in skus:
            if next_delivery[sku.code] <= day:
                put_away(rng, floor, receive_lot(rng, sku, day, counter), reserve)
                next_delivery[sku.code] = day + dt.timedelta(days=rng.randint(*sku.interval))
        if overflow and offset == days // 2:
            for lot in overflow:
                put_away(rng, floor, lot, reserve=len(floor.ids))
        for sku in skus:
            demand = rate[sku.code] + rng.uniform(-0.5, 0.5) * rate[sku.code]
            for _ in range(int(demand) + (rng.random() < demand % 1)):
                pick(rng, floor, sku)
        trim(rng, floor, int(capacity * fill))


def stack_ids(lane_rows: list[dict[str, str]], zone: str) -> tuple[list[str], list[int]]:
    ids, limits = [], []
    for lane in lane_rows:
        if lane["zone"] != zone:
            continue
        tiers = RULES.cold_tiers if zone == "COLD" else int(lane["max_tiers"])
        for pos in range(1, int(lane["positions"]) + 1):
            ids.append(f"{lane['lane_id']}-{pos:02d}")
            limits.append(tiers)
    return ids, limits


def write_csv(path: Path, header: list[str], rows: list[dict[str, str]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=header, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def export(
    data_dir: Path, lane_rows: list[dict[str, str]], floors: list[Floor], skus: list[Sku]
) -> None:
    data_dir.mkdir(parents=True, exist_ok=True)
    write_csv(data_dir / "lanes.csv", list(lane_rows[0]), lane_rows)
    stack_rows = [
        {"stack_id": sid, "lane_id": sid[:3], "position": sid[4:]} for f in floors for sid in f.ids
    ]
    write_csv(data_dir / "stacks.csv", ["stack_id", "lane_id", "position"], stack_rows)
    write_csv(
        data_dir / "sku_master.csv",
        [
            "sku",
            "description",
            "category",
            "supplier",
            "storage_class",
            "cases_per_pallet",
            "shelf_life_days",
        ],
        [
            {
                "sku": s.code,
                "description": s.description,
                "category": s.category,
                "supplier": s.supplier,
                "storage_class": s.storage,
                "cases_per_pallet": str(s.cases),
                "shelf_life_days": str(s.shelf_life),
            }
            for s in skus
        ],
    )
    located = [
        (p, sid, len(stack) - level)
        for f in floors
        for sid, stack in zip(f.ids, f.stacks, strict=True)
        for level, p in enumerate(stack)
    ]
    # Pallet ids follow goods-in order, as the WMS issues them.
    located.sort(key=lambda item: (item[0].received, item[0].seq))
    rows = []
    for number, (p, sid, tier) in enumerate(located, start=1):
        p.pallet_id = f"P{number:05d}"
        rows.append(
            {
                "pallet_id": p.pallet_id,
                "sku": p.sku.code,
                "batch": p.batch,
                "cases": str(p.cases),
                "net_weight": str(round(p.net_kg * RULES.lb_per_kg)),
                "pallet_type": p.pallet_type,
                "stack_id": sid,
                "tier": str(tier),
                "received": p.received.isoformat(),
                "best_before": (p.received + dt.timedelta(days=p.sku.shelf_life)).isoformat(),
            }
        )
    write_csv(data_dir / "pallets.csv", list(rows[0]), rows)


def main(argv: list[str] | None = None) -> None:
    global RULES
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--params", type=Path, default=HIDDEN / "params.json")
    parser.add_argument("--out", type=Path, default=HIDDEN.parent, help="writes OUT/data/")
    args = parser.parse_args(argv)
    RULES = Rules.read(args.params)
    rng = random.Random(RULES.seed)
    lane_rows = lanes()
    skus = build_skus(rng)
    counter = [0]
    ambient = Floor(*stack_ids(lane_rows, "AMBIENT"))
    cold = Floor(*stack_ids(lane_rows, "COLD"))
    amb_skus = [s for s in skus if s.storage == "AMB"]
    simulate(
        rng, ambient, amb_skus, SNAPSHOT - dt.timedelta(days=150), 150, 0.80, 10, counter, 0.66
    )
    # During the late-May peak a few ambient lots were parked in the chillers.
    peak = SNAPSHOT - dt.timedelta(days=6)
    light = [s for s in amb_skus if s.category in ("Cereals", "Snacks", "Household paper")]
    overflow = [receive_lot(rng, sku, peak, counter)[:4] for sku in rng.sample(light, 5)]
    simulate(
        rng,
        cold,
        [s for s in skus if s.storage == "CHL"],
        SNAPSHOT - dt.timedelta(days=20),
        20,
        0.84,
        4,
        counter,
        0.58,
        overflow,
    )
    export(args.out / "data", lane_rows, [ambient, cold], skus)
    pallets = ambient.occupancy() + cold.occupancy()
    mixed = sum(
        len({(p.sku.code, p.batch) for p in s}) > 1 for f in (ambient, cold) for s in f.stacks
    )
    print(f"pallets={pallets} stacks={len(ambient.ids) + len(cold.ids)} mixed={mixed}")


if __name__ == "__main__":
    main()
