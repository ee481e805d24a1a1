"""Each of the customer's rules, as the evaluator enforces it, on situations from the real floor.

Run: ``python -m pytest cases/warehouse-restack/hidden/test_evaluator.py -q -p no:django``
"""

from __future__ import annotations

import csv
import importlib.util
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from evaluators.api import Assessment, Submission

HIDDEN = Path(__file__).resolve().parent
DATA = HIDDEN.parent / "data"


def _load_evaluator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "warehouse_restack_evaluator", HIDDEN / "evaluator.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


evaluator = _load_evaluator()


@pytest.fixture(scope="module")
def floor() -> Any:
    return evaluator.load_floor(DATA)


def _score(moves: list[tuple[str, str, str]]) -> Assessment:
    rows = [
        {"step": i, "pallet_id": p, "from_stack": a, "to_stack": b}
        for i, (p, a, b) in enumerate(moves, start=1)
    ]
    result: Assessment = evaluator.evaluate(Submission(format="csv", rows=rows), DATA, HIDDEN)
    return result


def _rules(result: Assessment) -> set[str]:
    return {v.rule for v in result.violations}


def _stacks(floor: Any, *, cold: bool) -> Iterator[tuple[str, list[str]]]:
    return ((sid, s) for sid, s in floor.stacks.items() if floor.cold[sid] == cold)


def _light(floor: Any, pid: str) -> bool:
    return bool(floor.pallets[pid].gross_kg <= evaluator.HEAVY_GROSS_KG)


def test_the_reference_is_valid_and_scores_the_recorded_value() -> None:
    with (HIDDEN / "reference.csv").open(newline="") as handle:
        moves = [(r["pallet_id"], r["from_stack"], r["to_stack"]) for r in csv.DictReader(handle)]
    recorded = tomllib.loads((HIDDEN.parent / "case.toml").read_text())["scoring"]
    result = _score(moves)
    assert result.violations == []
    assert result.value == recorded["reference_value"]


def test_doing_nothing_scores_the_current_floor(floor: Any) -> None:
    result = _score([])
    assert result.value == 1000 * len(floor.mixed_stacks())
    assert result.value == 186_000


def test_tier_one_is_the_top_pallet_so_it_can_be_taken(floor: Any) -> None:
    sid, stack = next((sid, s) for sid, s in _stacks(floor, cold=False) if len(s) >= 2)
    empty = next(sid for sid, s in _stacks(floor, cold=False) if not s)
    assert _rules(_score([(stack[-1], sid, empty)])) == set()


def test_it_rejects_a_pallet_that_has_pallets_on_top(floor: Any) -> None:
    sid, stack = next((sid, s) for sid, s in _stacks(floor, cold=False) if len(s) >= 2)
    empty = next(sid for sid, s in _stacks(floor, cold=False) if not s)
    assert "top_only" in _rules(_score([(stack[0], sid, empty)]))


def test_it_rejects_a_fourth_pallet_in_a_chiller_even_though_lanes_csv_allows_four(
    floor: Any,
) -> None:
    target = next(sid for sid, s in _stacks(floor, cold=True) if len(s) == 3)
    sid, stack = next(
        (sid, s)
        for sid, s in _stacks(floor, cold=True)
        if s and sid != target and _light(floor, s[-1])
    )
    assert floor.recorded_limit[target] == 4
    assert "cold_height_limit" in _rules(_score([(stack[-1], sid, target)]))


def test_it_rejects_chilled_pallets_leaving_the_chillers(floor: Any) -> None:
    sid, stack = next((sid, s) for sid, s in _stacks(floor, cold=True) if s)
    empty = next(sid for sid, s in _stacks(floor, cold=False) if not s)
    assert floor.pallets[stack[-1]].chilled
    assert "temperature_zones" in _rules(_score([(stack[-1], sid, empty)]))


def test_it_rejects_ambient_pallets_going_into_a_chiller(floor: Any) -> None:
    sid, stack = next((sid, s) for sid, s in _stacks(floor, cold=False) if s)
    empty = next(sid for sid, s in _stacks(floor, cold=True) if not s)
    assert "temperature_zones" in _rules(_score([(stack[-1], sid, empty)]))


def test_it_rejects_a_heavy_pallet_on_the_third_level(floor: Any) -> None:
    sid, stack = next(
        (sid, s) for sid, s in _stacks(floor, cold=False) if s and not _light(floor, s[-1])
    )
    target = next(
        t for t, s in _stacks(floor, cold=False) if t != sid and len(s) == 2 and floor.limit(t) >= 3
    )
    assert "heavy_low_levels" in _rules(_score([(stack[-1], sid, target)]))


def test_gross_weight_is_pounds_converted_plus_the_pallet_base() -> None:
    with (DATA / "pallets.csv").open(newline="") as handle:
        row = next(csv.DictReader(handle))
    pallet = evaluator.load_floor(DATA).pallets[row["pallet_id"]]
    expected = (
        int(row["net_weight"]) / 2.20462262
        + {"EUR": 25, "CHEP": 30, "PLASTIC": 18}[row["pallet_type"]]
    )
    assert pallet.gross_kg == pytest.approx(expected)


def test_it_rejects_a_from_stack_that_is_not_where_the_pallet_is(floor: Any) -> None:
    (_, stack), (other, _) = [(sid, s) for sid, s in _stacks(floor, cold=False) if s][:2]
    empty = next(sid for sid, s in _stacks(floor, cold=False) if not s)
    assert "from_stack_mismatch" in _rules(_score([(stack[-1], other, empty)]))


def test_two_batches_of_one_sku_make_a_stack_mixed(floor: Any) -> None:
    by_sku: dict[str, list[tuple[str, str]]] = {}
    for sid, stack in _stacks(floor, cold=False):
        if len(stack) == 1:
            sku, batch = floor.pallets[stack[0]].product
            by_sku.setdefault(sku, []).append((sid, batch))
    # Two single-pallet stacks of the same SKU, different batches: put one on the other. The
    # pallet lands on level 2, so even a heavy one is allowed there.
    pairs = [(x, y) for found in by_sku.values() for x in found for y in found if x[1] != y[1]]
    (a, _), (b, _) = pairs[0]
    before = _score([])
    after = _score([(floor.stacks[b][0], b, a)])
    assert _rules(after) == set()
    assert after.details["mixed_stacks"] == before.details["mixed_stacks"] + 1
