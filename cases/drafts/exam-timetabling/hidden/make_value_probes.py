"""Write the value probes of exam-timetabling: rooms filled exactly to their exam seating and one past.

``python hidden/make_value_probes.py [--root ROOT] [--data DATA]`` writes
``ROOT/hidden/value_probes/`` and ``ROOT/hidden/value_probes.json`` (cases/README.md, "Value
probes"). For the Sports Hall, the Main Hall and Learning Support 1 it takes the reference,
picks a session that has more candidates than the room's exam desks in that kind of room, and
re-seats only that session: the room filled to exactly its desks (must stay valid), then to one
more (must break ``exam_seating_capacity``), the rest poured into the other rooms. The limits and
their labels come from the evaluator's own ``params.json``; every file is checked with
``evaluate()`` before it is written. Not probed: the afternoon limit, since paper lengths are
data (90 to 150 minutes in 15-minute steps) and no paper sits on it.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import defaultdict
from pathlib import Path

HIDDEN_DIR = Path(__file__).resolve().parent
sys.path[:0] = [str(HIDDEN_DIR), str(HIDDEN_DIR.parents[3])]

from evaluator import evaluate, load_case  # noqa: E402

from evaluators.api import Submission  # noqa: E402

RULE = "exam_seating_capacity"
#: (room, fact whose answer states its desks, the values.json key of the figure).
PROBES = [("SH", "exam_seating", "sh_seats"), ("MH", "exam_seating", "mh_seats"),
          ("LS1", "separate_room", "ls_seats")]
HEADER = ["exam_id", "date", "session", "room_id", "seated"]


def read(path: Path) -> list[list[object]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return [[r["exam_id"], r["date"], r["session"], r["room_id"], int(r["seated"])]
                for r in csv.DictReader(handle)]


def verdict(rows: list[list[object]], data: Path, hidden: Path) -> set[str] | None:
    subs = [dict(zip(HEADER, row, strict=True)) for row in rows]
    assessment = evaluate(Submission(format="csv", rows=subs), data, hidden)
    assert not assessment.fatal, assessment.fatal
    return {v.rule for v in assessment.violations}


def reseat(rows, when, pool, room, fill, seats):
    """The session ``when`` with ``pool``'s rows re-poured: ``room`` gets exactly ``fill``."""
    keep = [r for r in rows if not ((r[1], r[2]) == when and r[3] in pool)]
    need: dict[str, int] = defaultdict(int)
    for r in rows:
        if (r[1], r[2]) == when and r[3] in pool:
            need[r[0]] += r[4]
    free = {r: (fill if r == room else seats[r]) for r in pool}
    order = [room, *sorted((r for r in pool if r != room), key=lambda r: (-seats[r], r))]
    new = []
    for exam_id in sorted(need):
        left = need[exam_id]
        for r in order:
            take = min(left, free[r])
            if take > 0:
                new.append([exam_id, when[0], when[1], r, take])
                free[r] -= take
                left -= take
        if left:
            return None
    return keep + new


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=HIDDEN_DIR.parent, help="package root")
    parser.add_argument("--data", type=Path, default=None, help="data folder (default ROOT/data)")
    args = parser.parse_args()
    hidden = args.root / "hidden"
    data = args.data or args.root / "data"
    case = load_case(data, hidden)
    params = case["params"]
    values = json.loads((hidden / "values.json").read_text(encoding="utf-8"))
    seats = params["exam_seats"]
    reference = read(hidden / "reference.csv")
    probes = []
    (hidden / "value_probes").mkdir(exist_ok=True)
    for room, fact, key in PROBES:
        limit = seats[room]
        separate = room in params["separate_rooms"]
        pool = [r for r in seats if (r in params["separate_rooms"]) == separate]
        load: dict[tuple[str, str], int] = defaultdict(int)
        for r in reference:
            if r[3] in pool:
                load[(r[1], r[2])] += r[4]
        chosen = None
        for when in sorted(load):
            if load[when] > limit:
                at = reseat(reference, when, pool, room, limit, seats)
                past = reseat(reference, when, pool, room, limit + 1, seats)
                if at and past and verdict(at, data, hidden) == set() and verdict(past, data, hidden) == {RULE}:
                    chosen = (when, at, past)
                    break
        if chosen is None:
            raise SystemExit(f"{room}: no session to probe its {limit} desks")
        when, at, past = chosen
        label = values[key]
        assert label == str(limit), (label, limit)
        for suffix, rows, expect, count in (("at-limit", at, "valid", limit),
                                            ("past-limit", past, RULE, limit + 1)):
            file = f"value_probes/{room.lower()}-{suffix}.csv"
            with (hidden / file).open("w", newline="", encoding="utf-8") as handle:
                writer = csv.writer(handle, lineterminator="\n")
                writer.writerow(HEADER)
                writer.writerows(sorted(rows, key=lambda r: (r[1], r[2], r[0], r[3])))
            probes.append({"fact": fact, "value": label, "file": file, "expect": expect,
                           "note": f"reference with {count} candidates in {room} on {when[0]} {when[1]}"})
    (hidden / "value_probes.json").write_text(
        json.dumps({"generated_by": "hidden/make_value_probes.py", "probes": probes}, indent=2) + "\n",
        encoding="utf-8")


if __name__ == "__main__":
    main()
