"""warehouse-restack: every hard rule of the night shift, fired by a move added to the reference.

Each test replays the reference move list on the visible floor data to know where every pallet
stands afterwards, appends one crafted move, and scores the file through the runtime. The
reference alone is valid, so whatever the result reports comes from the appended move.
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from evaluators.runtime import Result, score_file
from tests.cases.deliverables import (
    assert_schema_error_names_the_column,
    case_dir,
    only_rule_broken,
    read_rows,
    score_rows,
    write_rows,
)

CASE = case_dir("warehouse-restack")
COLUMNS = ["step", "pallet_id", "from_stack", "to_stack"]
# The customer's rules as told in the clarification answers (hidden/gt.json).
COLD_TIERS = 3
HEAVY_KG = 800.0
LB_PER_KG = 2.20462262
PALLET_BASE_KG = {"EUR": 25.0, "CHEP": 30.0, "PLASTIC": 18.0}

Move = tuple[str, str, str]


@dataclass
class Floor:
    """The floor from the visible data, with the moves replayed: floor-first pallet lists."""

    stacks: dict[str, list[str]]
    cold: dict[str, bool]
    max_tiers: dict[str, int]
    chilled: dict[str, bool] = field(default_factory=dict)
    net_lb: dict[str, int] = field(default_factory=dict)
    base: dict[str, str] = field(default_factory=dict)
    product: dict[str, tuple[str, str]] = field(default_factory=dict)

    def gross_kg(self, pallet: str) -> float:
        return self.net_lb[pallet] / LB_PER_KG + PALLET_BASE_KG[self.base[pallet]]

    def heavy(self, pallet: str) -> bool:
        return self.gross_kg(pallet) > HEAVY_KG

    def limit(self, stack: str) -> int:
        return min(self.max_tiers[stack], COLD_TIERS) if self.cold[stack] else self.max_tiers[stack]

    def move(self, pallet: str, source: str, target: str) -> None:
        self.stacks[source].remove(pallet)
        self.stacks[target].append(pallet)

    def where(self, *, cold: bool, height: int | None = None) -> list[str]:
        return [
            sid
            for sid, pallets in self.stacks.items()
            if self.cold[sid] == cold and (height is None or len(pallets) == height)
        ]

    def tops(self, *, cold: bool, test: Callable[[str], bool]) -> list[tuple[str, str]]:
        """(pallet, stack) for each top pallet of a stack in that zone passing ``test``."""
        return [
            (self.stacks[sid][-1], sid)
            for sid in self.where(cold=cold)
            if self.stacks[sid] and test(self.stacks[sid][-1])
        ]


def _csv(name: str) -> list[dict[str, str]]:
    with (CASE / "data" / name).open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def _initial_floor() -> Floor:
    lanes = {row["lane_id"]: row for row in _csv("lanes.csv")}
    stacks = {row["stack_id"]: lanes[row["lane_id"]] for row in _csv("stacks.csv")}
    floor = Floor(
        stacks={sid: [] for sid in stacks},
        cold={sid: lane["zone"] == "COLD" for sid, lane in stacks.items()},
        max_tiers={sid: int(lane["max_tiers"]) for sid, lane in stacks.items()},
    )
    chilled_sku = {row["sku"]: row["storage_class"] == "CHL" for row in _csv("sku_master.csv")}
    # Tier 1 is the top pallet, so sorting by tier descending lists a stack floor first.
    for row in sorted(_csv("pallets.csv"), key=lambda r: -int(r["tier"])):
        pid = row["pallet_id"]
        floor.stacks[row["stack_id"]].append(pid)
        floor.chilled[pid] = chilled_sku[row["sku"]]
        floor.net_lb[pid] = int(row["net_weight"])
        floor.base[pid] = row["pallet_type"]
        floor.product[pid] = (row["sku"], row["batch"])
    return floor


REFERENCE = read_rows(CASE / "hidden" / "reference.csv")


@pytest.fixture
def floor() -> Floor:
    """The floor as the reference leaves it: the state an appended move starts from."""
    state = _initial_floor()
    for row in REFERENCE:
        state.move(row["pallet_id"], row["from_stack"], row["to_stack"])
    return state


REFERENCE_VALUE = 25646.0  # case.toml's reference_value: 25 mixed stacks, 646 moves
REFERENCE_MIXED_STACKS = 25
FIRST_ADDED_LINE = len(REFERENCE) + 2  # the header is line 1, then the reference's moves


def score_with(tmp_path: Path, *moves: Move) -> Result:
    """The reference followed by ``moves``, numbered on from its last step."""
    rows: list[dict[str, Any]] = list(REFERENCE)
    for pallet, source, target in moves:
        rows.append(
            {"step": len(rows) + 1, "pallet_id": pallet, "from_stack": source, "to_stack": target}
        )
    return score_rows(CASE, rows, COLUMNS, tmp_path)


def assert_flags_the_added_move(violation: dict[str, Any], pallet: str) -> None:
    assert violation["count"] == 1
    assert violation["examples"][0]["line"] == FIRST_ADDED_LINE
    assert violation["examples"][0]["pallet_id"] == pallet


def assert_valid(result: Result) -> None:
    assert (result.valid, result.error_kind, result.violations) == (True, None, [])


def light(floor: Floor) -> Callable[[str], bool]:
    return lambda pallet: not floor.heavy(pallet)


def anything(pallet: str) -> bool:
    return True


# --- anchors and format -------------------------------------------------------------------


def test_the_reference_scores_one_and_doing_nothing_scores_zero() -> None:
    reference = score_file(CASE, CASE / "hidden" / "reference.csv")
    baseline = score_file(CASE, CASE / "hidden" / "anchors" / "baseline.csv")
    assert (reference.valid, reference.score, reference.raw_value) == (True, 1.0, REFERENCE_VALUE)
    assert reference.details["mixed_stacks"] == REFERENCE_MIXED_STACKS
    assert reference.details["moves"] == len(REFERENCE)
    assert (baseline.valid, baseline.uplift, baseline.raw_value) == (True, 0.0, 186000.0)
    assert baseline.score == pytest.approx(REFERENCE_VALUE / 186000.0)  # Quality: R/x


def test_a_misspelt_column_is_a_format_error_on_line_one(tmp_path: Path) -> None:
    columns = ["step", "pallet", "from_stack", "to_stack"]
    rows = [{**row, "pallet": row["pallet_id"]} for row in REFERENCE]
    for row in rows:
        del row["pallet_id"]
    result = score_file(CASE, write_rows(tmp_path / "file.csv", rows, columns))
    assert_schema_error_names_the_column(result, wrong="pallet", right="pallet_id")


# --- moves the floor cannot carry out -------------------------------------------------------


def test_moving_a_pallet_that_is_not_on_the_floor_is_a_violation(
    tmp_path: Path, floor: Floor
) -> None:
    empty = floor.where(cold=False, height=0)[0]
    source = floor.where(cold=False, height=2)[0]
    result = score_with(tmp_path, ("P99999", source, empty), ("P99998", source, empty))
    violation = only_rule_broken(result, "unknown_pallet")
    assert violation["count"] == 2
    assert [e["line"] for e in violation["examples"]] == [FIRST_ADDED_LINE, FIRST_ADDED_LINE + 1]
    assert "not on the floor" in violation["message"]


def test_sending_a_pallet_to_a_stack_position_that_does_not_exist_is_a_violation(
    tmp_path: Path, floor: Floor
) -> None:
    pallet, source = floor.tops(cold=False, test=anything)[0]
    violation = only_rule_broken(score_with(tmp_path, (pallet, source, "A99-99")), "unknown_stack")
    assert_flags_the_added_move(violation, pallet)
    assert "do not exist" in violation["message"]


def test_naming_the_wrong_source_stack_is_a_violation(tmp_path: Path, floor: Floor) -> None:
    pallet, source = floor.tops(cold=False, test=anything)[0]
    elsewhere = next(sid for sid in floor.where(cold=False) if sid != source)
    empty = floor.where(cold=False, height=0)[0]
    result = score_with(tmp_path, (pallet, elsewhere, empty))
    violation = only_rule_broken(result, "from_stack_mismatch")
    assert_flags_the_added_move(violation, pallet)
    assert violation["examples"][0]["from_stack"] == source  # where the pallet really is


def test_moving_a_pallet_onto_its_own_stack_is_a_violation(tmp_path: Path, floor: Floor) -> None:
    pallet, source = floor.tops(cold=False, test=anything)[0]
    violation = only_rule_broken(score_with(tmp_path, (pallet, source, source)), "same_stack")
    assert_flags_the_added_move(violation, pallet)


# --- top_only and tier_from_top -------------------------------------------------------------


def test_taking_a_pallet_from_under_others_is_a_violation(tmp_path: Path, floor: Floor) -> None:
    source = floor.where(cold=False, height=3)[0]
    bottom = floor.stacks[source][0]
    empty = floor.where(cold=False, height=0)[0]
    violation = only_rule_broken(score_with(tmp_path, (bottom, source, empty)), "top_only")
    assert_flags_the_added_move(violation, bottom)
    assert "other pallets stand on it" in violation["message"]


def test_tier_one_is_the_top_pallet_so_taking_it_is_allowed(tmp_path: Path, floor: Floor) -> None:
    source = floor.where(cold=False, height=3)[0]
    top = floor.stacks[source][-1]
    empty = floor.where(cold=False, height=0)[0]
    result = score_with(tmp_path, (top, source, empty))
    assert_valid(result)
    assert result.details["moves"] == len(REFERENCE) + 1


# --- temperature_zones ----------------------------------------------------------------------


def test_a_chilled_pallet_leaving_the_chillers_is_a_cold_chain_breach(
    tmp_path: Path, floor: Floor
) -> None:
    pallet, source = floor.tops(cold=True, test=lambda p: floor.chilled[p])[0]
    empty = floor.where(cold=False, height=0)[0]
    result = score_with(tmp_path, (pallet, source, empty))
    violation = only_rule_broken(result, "temperature_zones")
    assert_flags_the_added_move(violation, pallet)
    assert "wrong temperature" in violation["message"]


def test_an_ambient_pallet_entering_a_chiller_is_a_cold_chain_breach(
    tmp_path: Path, floor: Floor
) -> None:
    pallet, source = floor.tops(cold=False, test=lambda p: not floor.chilled[p])[0]
    empty = floor.where(cold=True, height=0)[0]
    result = score_with(tmp_path, (pallet, source, empty))
    violation = only_rule_broken(result, "temperature_zones")
    assert_flags_the_added_move(violation, pallet)
    assert "wrong temperature" in violation["message"]


# --- height limits --------------------------------------------------------------------------


def test_a_fourth_pallet_in_a_cold_lane_is_a_violation_although_lanes_csv_allows_four(
    tmp_path: Path, floor: Floor
) -> None:
    target = floor.where(cold=True, height=COLD_TIERS)[0]
    assert floor.max_tiers[target] == 4  # what lanes.csv still says
    pallet, source = next(
        (p, s) for p, s in floor.tops(cold=True, test=light(floor)) if s != target
    )
    violation = only_rule_broken(
        score_with(tmp_path, (pallet, source, target)), "cold_height_limit"
    )
    assert_flags_the_added_move(violation, pallet)
    assert violation["examples"][0]["level"] == 4


def test_a_pallet_above_an_ambient_lanes_height_limit_is_a_violation(
    tmp_path: Path, floor: Floor
) -> None:
    target = next(
        sid for sid in floor.where(cold=False) if len(floor.stacks[sid]) == 3 == floor.limit(sid)
    )
    pallet, source = next(
        (p, s) for p, s in floor.tops(cold=False, test=light(floor)) if s != target
    )
    violation = only_rule_broken(score_with(tmp_path, (pallet, source, target)), "height_limit")
    assert_flags_the_added_move(violation, pallet)
    assert violation["examples"][0]["level"] == 4


# --- heavy_low_levels, heavy_gross_weight, weight_in_pounds ---------------------------------


def third_level_target(floor: Floor, source: str) -> str:
    """An ambient stack two pallets high whose lane takes a third."""
    return next(
        sid for sid in floor.where(cold=False, height=2) if sid != source and floor.limit(sid) >= 3
    )


def test_a_heavy_pallet_on_the_third_level_is_a_violation(tmp_path: Path, floor: Floor) -> None:
    pallet, source = floor.tops(cold=False, test=floor.heavy)[0]
    target = third_level_target(floor, source)
    violation = only_rule_broken(score_with(tmp_path, (pallet, source, target)), "heavy_low_levels")
    assert_flags_the_added_move(violation, pallet)
    assert violation["examples"][0]["level"] == 3


def test_a_heavy_pallet_on_the_second_level_is_allowed(tmp_path: Path, floor: Floor) -> None:
    pallet, source = floor.tops(cold=False, test=floor.heavy)[0]
    target = next(sid for sid in floor.where(cold=False, height=1) if sid != source)
    assert_valid(score_with(tmp_path, (pallet, source, target)))


def test_the_pallet_base_can_make_a_pallet_heavy(tmp_path: Path, floor: Floor) -> None:
    def heavy_only_with_its_base(pallet: str) -> bool:
        return floor.heavy(pallet) and floor.net_lb[pallet] / LB_PER_KG <= HEAVY_KG

    pallet, source = floor.tops(cold=False, test=heavy_only_with_its_base)[0]
    target = third_level_target(floor, source)
    violation = only_rule_broken(score_with(tmp_path, (pallet, source, target)), "heavy_low_levels")
    assert_flags_the_added_move(violation, pallet)


def test_net_weight_is_in_pounds_so_a_pallet_over_800_on_paper_may_go_high(
    tmp_path: Path, floor: Floor
) -> None:
    def heavy_only_if_read_as_kg(pallet: str) -> bool:
        return not floor.heavy(pallet) and floor.net_lb[pallet] > HEAVY_KG

    pallet, source = floor.tops(cold=False, test=heavy_only_if_read_as_kg)[0]
    assert_valid(score_with(tmp_path, (pallet, source, third_level_target(floor, source))))


# --- batch_is_mixed -------------------------------------------------------------------------


def test_two_batches_of_one_sku_in_a_stack_count_as_mixed(tmp_path: Path, floor: Floor) -> None:
    def clean(sid: str) -> bool:
        return len({floor.product[p] for p in floor.stacks[sid]}) == 1

    def other_batch_fits(pallet: str, source: str, target: str) -> bool:
        sku, batch = floor.product[pallet]
        level = len(floor.stacks[target]) + 1
        return (
            target != source
            and clean(target)
            and floor.product[floor.stacks[target][0]][0] == sku
            and floor.product[floor.stacks[target][0]][1] != batch
            and level <= floor.limit(target)
            and (level <= 2 or not floor.heavy(pallet))
        )

    pallet, source, target = next(
        (p, s, t)
        for p, s in floor.tops(cold=False, test=anything)
        if clean(s)
        for t in floor.where(cold=False)
        if other_batch_fits(p, s, t)
    )
    after = score_with(tmp_path, (pallet, source, target))
    assert_valid(after)
    assert after.details["mixed_stacks"] == REFERENCE_MIXED_STACKS + 1
    assert after.raw_value == REFERENCE_VALUE + 1000 + 1  # one more mixed stack, one more move
