"""Write the value probes of warehouse-restack: one extra move after the reference, at each limit.

``python cases/warehouse-restack/hidden/make_value_probes.py`` writes ``hidden/value_probes/``
and ``hidden/value_probes.json`` (cases/README.md, "Value probes"). Every probe is the
reference move list plus one move, made on the floor the reference leaves behind: a pallet from
the top of a stack onto a stack of the right height, so it lands exactly on a limit (the file
must stay valid) or one level past it (it must break that rule and nothing else). Pairs:

- the chillers' height since the retrofit (``cold_tiers``) and the high bay's (``lanes.csv``):
  a light pallet on the top level, then one level higher;
- the heavy-pallet weight (``heavy_gross_kg`` gross): the heaviest pallet at or under it, then
  the lightest over it, each on level ``heavy_max_level`` + 1;
- the heavy-pallet level: a heavy pallet on level ``heavy_max_level``, then one higher.

Labels are written from the rules the evaluator reads (``hidden/params.json``, through its own
``Rules``) and the lanes file, and each file is checked with the evaluator before it is
written; the script fails when the floor offers no clean pair. ``--root ROOT`` does the same
for a variant folder (``ROOT/data/``, ``ROOT/hidden/``); without it, the base in place.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

SCRIPT_DIR = Path(__file__).resolve().parent
sys.path[:0] = [str(SCRIPT_DIR), str(SCRIPT_DIR.parents[2])]

from evaluator import Floor, Replay, Rules, evaluate, load_floor  # noqa: E402

from evaluators.api import Submission  # noqa: E402

COLUMNS = ["step", "pallet_id", "from_stack", "to_stack"]
# The package (or variant folder) being probed; main() sets both from --root.
HIDDEN_DIR = SCRIPT_DIR
DATA_DIR = SCRIPT_DIR.parent / "data"
Row = dict[str, object]
Move = tuple[str, str, str]  # pallet, from, to


def read_reference() -> list[Row]:
    with (HIDDEN_DIR / "reference.csv").open(newline="", encoding="utf-8") as handle:
        return [{**row, "step": int(row["step"])} for row in csv.DictReader(handle)]


def with_move(reference: list[Row], move: Move) -> list[Row]:
    step = max((int(str(row["step"])) for row in reference), default=0) + 1
    return [*reference, dict(zip(COLUMNS, (step, *move), strict=True))]


def broken(rows: list[Row]) -> set[str]:
    assessment = evaluate(Submission(format="csv", rows=rows), DATA_DIR, HIDDEN_DIR)
    assert not assessment.fatal, assessment.fatal
    return {violation.rule for violation in assessment.violations}


def high_bay_stacks() -> set[str]:
    """Stacks in the lanes the lanes file calls the high bay (the answer's "in the high bay")."""
    with (DATA_DIR / "lanes.csv").open(newline="", encoding="utf-8") as handle:
        lanes = {row["lane_id"] for row in csv.DictReader(handle) if "high bay" in row["remarks"]}
    with (DATA_DIR / "stacks.csv").open(newline="", encoding="utf-8") as handle:
        return {row["stack_id"] for row in csv.DictReader(handle) if row["lane_id"] in lanes}


def final_floor(reference: list[Row]) -> Floor:
    replay = Replay(load_floor(DATA_DIR, Rules.read(HIDDEN_DIR)))
    replay.run(Submission(format="csv", rows=reference))
    assert not replay.problems, "the reference must replay cleanly"
    return replay.floor


def moves_onto(
    floor: Floor, level: int, pallets: list[str], stacks: Callable[[str], bool]
) -> Iterator[Move]:
    """Moves of a top pallet (in the order given) onto a stack where it lands on ``level``."""
    for pid in pallets:
        source = floor.location[pid]
        if floor.stacks[source][-1] != pid:
            continue
        for target in sorted(floor.stacks):
            fits = len(floor.stacks[target]) == level - 1 and stacks(target)
            if target != source and fits and floor.pallets[pid].chilled == floor.cold[target]:
                yield pid, source, target


def first_clean(reference: list[Row], moves: Iterator[Move], rules: set[str]) -> Move:
    for move in moves:
        if broken(with_move(reference, move)) == rules:
            return move
    raise SystemExit(f"the floor offers no clean move that breaks {sorted(rules) or 'nothing'}")


def main(argv: list[str] | None = None) -> None:
    global HIDDEN_DIR, DATA_DIR
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=SCRIPT_DIR.parent, help="package or variant")
    root = parser.parse_args(argv).root
    HIDDEN_DIR, DATA_DIR = root / "hidden", root / "data"
    rules = Rules.read(HIDDEN_DIR)
    cold_tiers, heavy_level = rules.cold_tiers, rules.heavy_max_level
    heavy_kg = rules.heavy_gross_kg
    reference = read_reference()
    floor = final_floor(reference)
    pallets = sorted(floor.pallets)
    light = [p for p in pallets if floor.pallets[p].gross_kg <= heavy_kg]
    heavy = [p for p in pallets if floor.pallets[p].gross_kg > heavy_kg]
    by_weight = sorted(light, key=lambda p: -floor.pallets[p].gross_kg)
    lightest_heavy = sorted(heavy, key=lambda p: floor.pallets[p].gross_kg)
    bay = high_bay_stacks()
    bay_limit = max(floor.limit(sid) for sid in bay)
    low_enough = heavy_level + 1

    def cold(sid: str) -> bool:
        return floor.cold[sid] and floor.recorded_limit[sid] > cold_tiers

    def roomy(sid: str) -> bool:
        return floor.limit(sid) >= low_enough

    pairs = [
        ("cold_height_limit", f"{cold_tiers} for the C-lanes", "cold-height",
         cold, cold_tiers, light, light, "cold_height_limit", "level"),
        ("cold_height_limit", f"{bay_limit} in the high bay", "high-bay-height",
         bay.__contains__, bay_limit, light, light, "height_limit", "level"),
        ("heavy_low_levels", f"over {heavy_kg:g} kilos gross", "heavy-weight",
         roomy, low_enough, by_weight, lightest_heavy, "heavy_low_levels", "weight"),
        ("heavy_low_levels", f"level 1 or {heavy_level}", "heavy-level",
         roomy, heavy_level, lightest_heavy, lightest_heavy, "heavy_low_levels", "level"),
    ]  # fmt: skip
    probes = []
    (HIDDEN_DIR / "value_probes").mkdir(exist_ok=True)
    for fact, value, name, stacks, level, at_pallets, past_pallets, rule, pinned in pairs:
        past_level = level + 1 if pinned == "level" else level
        at = first_clean(reference, moves_onto(floor, level, at_pallets, stacks), set())
        if pinned == "level":  # the same pallet, one level higher
            past_pallets = [at[0]]
        past = first_clean(reference, moves_onto(floor, past_level, past_pallets, stacks), {rule})
        for suffix, move, expect, shown_level in (
            ("at-limit", at, "valid", level),
            ("past-limit", past, rule, past_level),
        ):
            file = f"value_probes/{name}-{suffix}.csv"
            with (HIDDEN_DIR / file).open("w", newline="", encoding="utf-8") as handle:
                writer = csv.DictWriter(handle, fieldnames=COLUMNS, lineterminator="\n")
                writer.writeheader()
                writer.writerows(with_move(reference, move))
            gross = floor.pallets[move[0]].gross_kg
            note = (
                f"the reference, then {move[0]} ({gross:.1f} kg gross) from {move[1]} onto "
                f"{move[2]}, landing on level {shown_level}"
            )
            probes.append(
                {"fact": fact, "value": value, "file": file, "expect": expect, "note": note}
            )
    document = {"generated_by": "hidden/make_value_probes.py", "probes": probes}
    (HIDDEN_DIR / "value_probes.json").write_text(
        json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()
