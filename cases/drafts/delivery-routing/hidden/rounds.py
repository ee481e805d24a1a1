"""The delivery day of delivery-routing as the evaluator, the solver and the probes see it.

One module so the three agree on what a van round costs and when it arrives: the receiving
windows, the drop times, the corrected address, the paid shift. Every figure comes from
``params.json`` (hidden rules) or ``data/`` (what the player sees); nothing is a constant.
``Rules`` holds the readings, so the solver can build a counterfactual by changing one of
them (the opening hours taken as the window, a flat drop time, the old address, ...).
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field, replace
from pathlib import Path

DEPOT = "DEPOT"


def minutes_of(text: str) -> int:
    hours, minutes = text.strip().split(":")
    return int(hours) * 60 + int(minutes)


def hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


@dataclass(frozen=True)
class Rules:
    """How the day is read. ``truth(params)`` is the customer's reading; the solver's
    counterfactuals replace one field."""

    receive_lead_min: int
    lez_van: str | None
    lez_district: str
    fridge_down_van: str | None
    moved_stop: str | None
    moved_next_to: str
    moved_extra_km: float
    moved_extra_min: int
    drop_fixed_min: int
    drop_per_crate_min: int
    loading_min: int
    min_paid_min: int
    hire_van: str | None
    hire_fee_eur: float
    window_from_opening: bool = True   # receiving window = [opens - lead, opens]

    @staticmethod
    def truth(params: dict) -> Rules:
        return Rules(
            receive_lead_min=int(params["receive_lead_min"]),
            lez_van=params["lez_van"],
            lez_district=params["lez_district"],
            fridge_down_van=params["fridge_down_van"],
            moved_stop=params["moved_stop"],
            moved_next_to=params["moved_next_to"],
            moved_extra_km=float(params["moved_extra_km"]),
            moved_extra_min=int(params["moved_extra_min"]),
            drop_fixed_min=int(params["drop_fixed_min"]),
            drop_per_crate_min=int(params["drop_per_crate_min"]),
            loading_min=int(params["loading_min"]),
            min_paid_min=round(float(params["min_paid_h"]) * 60),
            hire_van=params["hire_van"],
            hire_fee_eur=float(params["hire_fee_eur"]),
        )

    def but(self, **changes: object) -> Rules:
        return replace(self, **changes)


@dataclass
class Day:
    """The data of the delivery day under one reading of the rules."""

    rules: Rules
    stops: dict[str, dict]
    vans: dict[str, dict]
    km: dict[tuple[str, str], float]
    minutes: dict[tuple[str, str], int]
    driver_eur_per_min: float
    km_eur: float
    courier_eur: float
    ready: int
    back_by: int
    district: dict[str, str] = field(default_factory=dict)

    def window(self, stop_id: str) -> tuple[int, int]:
        stop = self.stops[stop_id]
        opens = minutes_of(stop["opens"])
        if self.rules.window_from_opening:
            return opens - self.rules.receive_lead_min, opens
        return opens, minutes_of(stop["closes"])

    def drop(self, stop_id: str) -> int:
        stop = self.stops[stop_id]
        crates = int(stop["crates_ambient"]) + int(stop["crates_chilled"])
        return self.rules.drop_fixed_min + self.rules.drop_per_crate_min * crates

    def crates(self, stop_id: str) -> int:
        stop = self.stops[stop_id]
        return int(stop["crates_ambient"]) + int(stop["crates_chilled"])

    def chilled(self, stop_id: str) -> int:
        return int(self.stops[stop_id]["crates_chilled"])

    def may_carry_chilled(self, van_id: str) -> bool:
        return self.vans[van_id]["body"] == "refrigerated" and van_id != self.rules.fridge_down_van

    def may_enter(self, van_id: str, stop_id: str) -> bool:
        return not (van_id == self.rules.lez_van and self.district[stop_id] == self.rules.lez_district)

    def fixed_eur(self, van_id: str) -> float:
        return self.rules.hire_fee_eur if van_id == self.rules.hire_van else 0.0


def read_csv(path: Path) -> list[dict]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def load_day(data_dir: Path, rules: Rules) -> Day:
    """Read ``data/`` and apply ``rules``: the moved customer's legs are its new neighbour's
    plus the short walk between them, and its district is the neighbour's."""
    stops = {row["stop_id"]: row for row in read_csv(data_dir / "stops.csv")}
    vans = {row["van_id"]: row for row in read_csv(data_dir / "vans.csv")}
    km: dict[tuple[str, str], float] = {}
    minutes: dict[tuple[str, str], int] = {}
    for row in read_csv(data_dir / "travel_matrix.csv"):
        key = (row["from_id"], row["to_id"])
        km[key], minutes[key] = float(row["km"]), int(row["minutes"])
    district = {stop_id: row["district"] for stop_id, row in stops.items()}
    moved, near = rules.moved_stop, rules.moved_next_to
    if moved:
        district[moved] = district[near]
        for other in [DEPOT, *stops]:
            if other == moved:
                continue
            if other == near:
                leg_km, leg_min = rules.moved_extra_km, rules.moved_extra_min
                km[(moved, near)] = km[(near, moved)] = leg_km
                minutes[(moved, near)] = minutes[(near, moved)] = leg_min
                continue
            km[(moved, other)] = round(km[(near, other)] + rules.moved_extra_km, 1)
            km[(other, moved)] = round(km[(other, near)] + rules.moved_extra_km, 1)
            minutes[(moved, other)] = minutes[(near, other)] + rules.moved_extra_min
            minutes[(other, moved)] = minutes[(other, near)] + rules.moved_extra_min
    rates = json.loads((data_dir / "cost_rates.json").read_text(encoding="utf-8"))
    depot = json.loads((data_dir / "depot.json").read_text(encoding="utf-8"))
    return Day(
        rules=rules, stops=stops, vans=vans, km=km, minutes=minutes,
        driver_eur_per_min=float(rates["driver_eur_per_hour"]) / 60.0,
        km_eur=float(rates["van_eur_per_km"]),
        courier_eur=float(rates["courier_eur_per_drop"]),
        ready=minutes_of(depot["vans_ready_from"]), back_by=minutes_of(depot["vans_back_by"]),
        district=district,
    )


@dataclass
class Round:
    """One van's round as driven: arrivals, lateness, shift and cost."""

    van_id: str
    stops: list[str]
    arrivals: list[int]
    depart: int
    back: int
    km: float
    late: list[tuple[str, int, int]]   # (stop, arrival, window end)
    paid_min: int
    cost_eur: float


def drive(day: Day, van_id: str, stops: list[str], planned: list[int]) -> Round:
    """Drive a round the way the driver does: leave the depot in time for the first planned
    arrival (not before the vans are ready), never arrive before a planned time (the customer
    has it as the ETA), wait at the kerb until the receiving window opens, unload, go on."""
    first = stops[0]
    depart = max(day.ready, planned[0] - day.minutes[(DEPOT, first)])
    clock, here, km = depart, DEPOT, 0.0
    arrivals, late = [], []
    for stop_id, plan in zip(stops, planned, strict=True):
        arrive = max(plan, clock + day.minutes[(here, stop_id)])
        km += day.km[(here, stop_id)]
        start, end = day.window(stop_id)
        if arrive > end:
            late.append((stop_id, arrive, end))
        arrivals.append(arrive)
        clock = max(arrive, start) + day.drop(stop_id)
        here = stop_id
    back = clock + day.minutes[(here, DEPOT)]
    km += day.km[(here, DEPOT)]
    if van_id == day.rules.hire_van:
        paid = 0   # the hire firm's driver comes with the van, in its day rate
    else:
        paid = max(day.rules.min_paid_min, back - depart + day.rules.loading_min)
    cost = paid * day.driver_eur_per_min + km * day.km_eur + day.fixed_eur(van_id)
    return Round(van_id, stops, arrivals, depart, back, round(km, 1), late, paid, cost)


def tightest(day: Day, van_id: str, stops: list[str]) -> Round:
    """The round with the latest departure that still makes every window and the return time
    (the shortest shift for this sequence); the earliest departure if none does."""
    def at(depart: int) -> Round:
        planned, clock, here = [], depart, DEPOT
        for stop_id in stops:
            arrive = clock + day.minutes[(here, stop_id)]
            planned.append(arrive)
            clock = max(arrive, day.window(stop_id)[0]) + day.drop(stop_id)
            here = stop_id
        return drive(day, van_id, stops, planned)

    best = at(day.ready)
    if best.late or best.back > day.back_by:
        return best
    for depart in range(day.ready + 1, day.back_by):
        trial = at(depart)
        if trial.late or trial.back > day.back_by:
            break
        best = trial
    return best
