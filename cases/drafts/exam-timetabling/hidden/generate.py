"""Seeded generator of the exam-timetabling case's player-visible data.

``python hidden/generate.py [--params P] [--out ROOT]`` writes ``ROOT/data/``: the exam list
(one row per paper and teaching group, as the MIS exports it), the candidates with their access
arrangement codes, the entries, the rooms with their *teaching* capacity and the sessions of the
exam fortnight. Only the seed of ``params.json`` is read: the rules (exam seating, the closed
day, the board dates, ...) live in ``params.json`` and act in the solver and the evaluator, so
the variants of the case share one data set unless they change the seed. Deterministic.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
from datetime import date, timedelta
from pathlib import Path

HIDDEN = Path(__file__).resolve().parent

#: (subject, code, share of the year taking it, papers as (code suffix, title, minutes)).
SUBJECTS = [
    ("Mathematics", "Ma", 0.34, [("7357/1", "Paper 1 (Pure)", 120), ("7357/2", "Paper 2 (Pure and Mechanics)", 120)]),
    ("Further Mathematics", "Fm", 0.07, [("7367/1", "Paper 1", 150)]),
    ("Biology", "Bi", 0.26, [("7402/1", "Paper 1", 120), ("7402/2", "Paper 2", 120)]),
    ("Chemistry", "Ch", 0.22, [("7405/1", "Paper 1", 120), ("7405/2", "Paper 2", 105)]),
    ("Physics", "Ph", 0.15, [("7408/1", "Paper 1", 135)]),
    ("Psychology", "Ps", 0.30, [("7182/1", "Paper 1", 120), ("7182/2", "Paper 2", 120)]),
    ("Sociology", "So", 0.16, [("7192/1", "Paper 1", 120)]),
    ("English Literature", "El", 0.14, [("7712/1", "Paper 1", 150)]),
    ("History", "Hi", 0.15, [("7042/1", "Component 1", 150)]),
    ("Geography", "Gg", 0.12, [("7037/1", "Paper 1", 135)]),
    ("Economics", "Ec", 0.14, [("7136/1", "Paper 1", 120)]),
    ("Business", "Bs", 0.17, [("7132/1", "Paper 1", 120)]),
    ("Computer Science", "Cs", 0.10, [("7517/1", "Paper 1 (on screen)", 150)]),
    ("Law", "Lw", 0.09, [("7162/1", "Paper 1", 90)]),
    ("Politics", "Po", 0.08, [("7152/1", "Paper 1", 120)]),
    ("Media Studies", "Me", 0.09, [("7572/1", "Paper 1", 120)]),
    ("French", "Fr", 0.05, [("7652/1", "Paper 1", 135)]),
    ("Spanish", "Sp", 0.05, [("7692/1", "Paper 1", 135)]),
    ("Physical Education", "Pe", 0.06, [("7582/1", "Paper 1", 105)]),
    ("Criminology", "Cr", 0.08, [("CRM/1", "Unit 2 exam", 90)]),
]
RESITS = [
    ("GCSE Mathematics", "Rm", "Pearson Edexcel", [("1MA1/2F", "Paper 2 (Calculator)", 90), ("1MA1/3F", "Paper 3 (Calculator)", 90)], 0.17),
    ("GCSE English Language", "Re", "AQA", [("8700/2", "Paper 2", 105)], 0.12),
]
#: Option blocks: a student takes at most one subject per block, as the college timetable runs them.
BLOCKS = {"A": ["Ma", "El", "So", "Lw", "Fr"], "B": ["Bi", "Hi", "Ec", "Me", "Cs"],
          "C": ["Ch", "Ps", "Gg", "Po", "Sp"], "D": ["Ph", "Bs", "Pe", "Cr", "Fm"]}
GROUP_SIZE = 24
STUDENTS = 236
FIRST_DAY = date(2025, 6, 2)
ROOMS = [
    ("SH", "Sports Hall", "Sports Centre", 160, "hall"),
    ("MH", "Main Hall", "Main Building", 120, "hall"),
    ("LIB", "Library", "Main Building", 60, "study"),
    ("DS", "Drama Studio", "Arts Block", 45, "studio"),
    ("LS1", "Learning Support 1", "Main Building", 10, "classroom"),
    ("LS2", "Learning Support 2", "Main Building", 10, "classroom"),
]
TUTOR_GROUPS = ["12A", "12B", "12C", "12D", "12E", "12F", "12G", "12H", "12J", "12K"]


def sessions() -> list[tuple[str, str, str]]:
    """The two-week exam window: every weekday, a morning and an afternoon session."""
    rows = []
    for offset in range(12):
        day = FIRST_DAY + timedelta(days=offset)
        if day.weekday() < 5:
            rows.append((day.isoformat(), "AM", "09:00"))
            rows.append((day.isoformat(), "PM", "13:30"))
    return rows


def build(seed: int) -> dict[str, list[list[object]]]:
    rng = random.Random(seed)
    students = []
    for number in range(1, STUDENTS + 1):
        count = 4 if rng.random() < 0.12 else 3
        blocks = sorted(rng.sample(sorted(BLOCKS), count))
        chosen: list[int] = []
        for block in blocks:
            options = [i for i, s in enumerate(SUBJECTS) if s[1] in BLOCKS[block]
                       and not (s[1] == "Fm" and 0 not in chosen)]
            chosen.append(rng.choices(options, [SUBJECTS[i][2] for i in options])[0])
        codes = []
        roll = rng.random()
        if roll < 0.13:
            codes.append("ET25")
        if rng.random() < 0.035:
            codes.append("SR")
        elif rng.random() < 0.025:
            codes.append("RD")
        if rng.random() < 0.03:
            codes.append("WP")
        if codes and "ET25" not in codes and rng.random() < 0.6:
            codes.insert(0, "ET25")
        resits = [index for index, resit in enumerate(RESITS) if rng.random() < resit[4]]
        students.append((f"C{number:04d}", rng.choice(TUTOR_GROUPS), ";".join(codes), chosen, resits))

    exams: list[list[object]] = []
    entries: list[list[object]] = []
    serial = 0

    def add_course(name, short, board, papers, members, level):
        nonlocal serial
        members = sorted(members)
        rng.shuffle(members)
        groups = max(1, -(-len(members) // GROUP_SIZE))
        for group in range(groups):
            cohort = sorted(members[group::groups])
            label = f"12{short}{group + 1}"
            for code, title, minutes in papers:
                serial += 1
                exam_id = f"X{serial:03d}"
                exams.append([exam_id, code, name, title, label, board, level, minutes])
                entries.extend([cid, exam_id] for cid in cohort)

    for index, (name, short, _, papers) in enumerate(SUBJECTS):
        members = [s[0] for s in students if index in s[3]]
        add_course(name, short, "College", papers, members, "A level (end of Year 12)")
    for index, (name, short, board, papers, _) in enumerate(RESITS):
        members = [s[0] for s in students if index in s[4]]
        add_course(name, short, board, papers, members, "GCSE resit")
    exams.sort(key=lambda row: row[0])
    entries.sort()
    return {
        "exams.csv": [["exam_id", "paper_code", "subject", "paper", "teaching_group",
                       "awarding_body", "level", "duration_min"], *exams],
        "candidates.csv": [["candidate_id", "tutor_group", "access_codes"],
                           *[[s[0], s[1], s[2]] for s in students]],
        "entries.csv": [["candidate_id", "exam_id"], *entries],
        "rooms.csv": [["room_id", "room_name", "building", "capacity", "room_type"],
                      *[list(room) for room in ROOMS]],
        "sessions.csv": [["date", "session", "start_time"], *[list(s) for s in sessions()]],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--params", type=Path, default=HIDDEN / "params.json")
    parser.add_argument("--out", type=Path, default=HIDDEN.parent, help="package root")
    args = parser.parse_args()
    params = json.loads(args.params.read_text(encoding="utf-8"))
    data = args.out / "data"
    data.mkdir(parents=True, exist_ok=True)
    for name, rows in build(int(params["seed"])).items():
        with (data / name).open("w", newline="", encoding="utf-8") as handle:
            csv.writer(handle, lineterminator="\n").writerows(rows)


if __name__ == "__main__":
    main()
