"""Evaluator of the exam-timetabling case: what a summer exam timetable costs the students.

The deliverable has one row per exam (a paper for one teaching group) and room: the session
(date, AM/PM) the exam is sat in and how many of its candidates sit in that room. Order of
checks, as the exams officer would run them before publishing a timetable:

1. Fatal: a session that is not in ``data/sessions.csv``, or an exam of ``data/exams.csv``
   that is not timetabled at all (the schema already refuses unknown exam and room ids).
2. Hard rules (violations). Two come with the request: every exam is sat in one session and
   seats exactly its entries (``one_session_per_exam``, ``seats_match_entries``), and no
   candidate sits two exams in one session (``clash``). The others are the targets of
   ``gt.json``, each reading its figure from ``params.json``:
   - ``exam_seating_capacity``: a room seats at most its exam-layout desks (``exam_seats``),
     not the teaching capacity of ``data/rooms.csv``;
   - ``separate_room_candidates``: candidates with a separate-room code (``separate_codes``)
     sit in a separate room (``separate_rooms``);
   - ``board_fixed_papers``: board-set papers are sat in the board's session (``fixed_papers``);
   - ``college_closed_day``: no exam on ``closed_day``;
   - ``extra_time_afternoon``: an afternoon paper with extra-time candidates must end, with
     their extra time, by ``pm_end``;
   - ``shared_paper_same_session``: all teaching groups sitting one paper sit it together.
3. Value (minimise): penalty points, per candidate, ``same_day_pts`` for each day with two
   exams and ``overnight_pts`` for each afternoon exam followed by an exam the next morning
   (the next calendar day, so a weekend breaks it).
"""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from evaluators.api import Assessment, Submission, ViolationCollector


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return [{k.strip(): (v or "").strip() for k, v in row.items()} for row in csv.DictReader(handle)]


def load_case(data_dir: Path, hidden_dir: Path) -> dict[str, Any]:
    """Everything the rules need, read once: shared with the solver and the probe scripts."""
    params = json.loads((hidden_dir / "params.json").read_text(encoding="utf-8"))
    exams = {row["exam_id"]: row for row in read_csv(data_dir / "exams.csv")}
    candidates = {row["candidate_id"]: row for row in read_csv(data_dir / "candidates.csv")}
    entries: dict[str, list[str]] = defaultdict(list)
    for row in read_csv(data_dir / "entries.csv"):
        entries[row["exam_id"]].append(row["candidate_id"])
    rooms = {row["room_id"]: row for row in read_csv(data_dir / "rooms.csv")}
    sessions = [(row["date"], row["session"]) for row in read_csv(data_dir / "sessions.csv")]
    codes = {cid: set(filter(None, row["access_codes"].split(";"))) for cid, row in candidates.items()}
    separate = set(params["separate_codes"])
    return {
        "params": params, "exams": exams, "entries": dict(entries), "rooms": rooms,
        "sessions": sessions, "codes": codes,
        "separate_count": {e: sum(1 for c in entries.get(e, []) if codes[c] & separate) for e in exams},
        "extra_time": {e: any(params["extra_time_code"] in codes[c] for c in entries.get(e, [])) for e in exams},
    }


def minutes(clock: str) -> int:
    hours, mins = clock.split(":")
    return int(hours) * 60 + int(mins)


def afternoon_allows(case: dict[str, Any], exam_id: str) -> bool:
    """Whether the exam fits the afternoon: with extra time it must end by ``pm_end``."""
    params = case["params"]
    length = int(case["exams"][exam_id]["duration_min"])
    if case["extra_time"][exam_id]:
        length = length * (100 + params["extra_time_pct"]) / 100
    return minutes(params["pm_start"]) + length <= minutes(params["pm_end"])


def penalty(case: dict[str, Any], slot: dict[str, tuple[str, str]]) -> tuple[float, dict[str, int]]:
    """Penalty points of a timetable (exam -> (date, session)) and the counts behind them."""
    params = case["params"]
    taken: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for exam_id, when in slot.items():
        for cid in case["entries"].get(exam_id, []):
            taken[cid].add(when)
    same_day = overnight = 0
    for sitting in taken.values():
        days = {d for d, _ in sitting}
        same_day += sum(1 for d in days if (d, "AM") in sitting and (d, "PM") in sitting)
        for d in days:
            after = (date.fromisoformat(d) + timedelta(days=1)).isoformat()
            if (d, "PM") in sitting and (after, "AM") in sitting:
                overnight += 1
    value = params["same_day_pts"] * same_day + params["overnight_pts"] * overnight
    return float(value), {"same_day": same_day, "overnight": overnight}


def evaluate(submission: Submission, data_dir: Path, hidden_dir: Path) -> Assessment:
    case = load_case(data_dir, hidden_dir)
    params, exams = case["params"], case["exams"]
    valid_sessions = set(case["sessions"])
    rows = []
    for index, row in enumerate(submission.rows):
        exam_id = str(row.get("exam_id", "")).strip()
        when = (str(row.get("date", "")).strip(), str(row.get("session", "")).strip().upper())
        if when not in valid_sessions:
            return Assessment(fatal=f"Line {Submission.line_of(index)}: {when[0]} {when[1]} is not "
                              "a session of the exam fortnight (data/sessions.csv).")
        if exam_id not in exams:
            return Assessment(fatal=f"Line {Submission.line_of(index)}: {exam_id} is not an exam "
                              "of data/exams.csv.")
        rows.append((index, exam_id, when, str(row.get("room_id", "")).strip(), int(row["seated"])))
    missing = sorted(set(exams) - {r[1] for r in rows})
    if missing:
        return Assessment(fatal=f"{len(missing)} exams are not timetabled (e.g. "
                          f"{', '.join(missing[:5])}); every exam needs a session and a room.")

    out = ViolationCollector()
    slot: dict[str, tuple[str, str]] = {}
    seats: dict[str, int] = defaultdict(int)
    separate_seats: dict[str, int] = defaultdict(int)
    room_load: dict[tuple[tuple[str, str], str], int] = defaultdict(int)
    for index, exam_id, when, room, count in rows:
        if slot.setdefault(exam_id, when) != when:
            out.add("one_session_per_exam", "An exam is timetabled in more than one session.",
                    {"line": Submission.line_of(index), "exam_id": exam_id})
        seats[exam_id] += count
        room_load[(when, room)] += count
        if room in params["separate_rooms"]:
            separate_seats[exam_id] += count
    for exam_id in sorted(exams):
        expected = len(case["entries"].get(exam_id, []))
        if seats[exam_id] != expected:
            out.add("seats_match_entries", "The seats given to an exam do not add up to its entries.",
                    {"exam_id": exam_id, "seats": seats[exam_id], "entries": expected})

    by_candidate: dict[tuple[str, tuple[str, str]], list[str]] = defaultdict(list)
    for exam_id, when in slot.items():
        for cid in case["entries"].get(exam_id, []):
            by_candidate[(cid, when)].append(exam_id)
    for (cid, when), held in sorted(by_candidate.items()):
        if len(held) > 1:
            out.add("clash", "A candidate has two exams in the same session.",
                    {"candidate_id": cid, "date": when[0], "session": when[1], "exams": " ".join(sorted(held))})

    for (when, room), load in sorted(room_load.items()):
        limit = params["exam_seats"].get(room)
        if limit is not None and load > limit:
            out.add("exam_seating_capacity", "A room holds more candidates than it has exam desks.",
                    {"date": when[0], "session": when[1], "room_id": room, "candidates": load})
    for exam_id in sorted(exams):
        if separate_seats[exam_id] < case["separate_count"][exam_id]:
            out.add("separate_room_candidates",
                    "Candidates whose access arrangements need a separate room are seated in a main room.",
                    {"exam_id": exam_id, "need_separate_room": case["separate_count"][exam_id],
                     "seated_separately": separate_seats[exam_id]})
    by_paper: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for exam_id, when in sorted(slot.items()):
        paper = exams[exam_id]["paper_code"]
        by_paper[paper].add(when)
        fixed = params["fixed_papers"].get(paper)
        if fixed and when != tuple(fixed):
            out.add("board_fixed_papers", "A board-set paper is not in the board's session.",
                    {"exam_id": exam_id, "paper_code": paper, "date": when[0], "session": when[1]})
        if when[0] == params["closed_day"]:
            out.add("college_closed_day", "An exam is timetabled on a day the college is closed.",
                    {"exam_id": exam_id, "date": when[0], "session": when[1]})
        if when[1] == "PM" and not afternoon_allows(case, exam_id):
            out.add("extra_time_afternoon",
                    "An afternoon paper runs past the end of the afternoon once extra time is added.",
                    {"exam_id": exam_id, "duration_min": exams[exam_id]["duration_min"], "date": when[0]})
    for paper, whens in sorted(by_paper.items()):
        if len(whens) > 1:
            out.add("shared_paper_same_session",
                    "Teaching groups sitting the same paper sit it in different sessions.",
                    {"paper_code": paper, "sessions": " ".join(f"{d} {s}" for d, s in sorted(whens))})
    if out:
        return Assessment(violations=out.violations())

    value, counts = penalty(case, slot)
    return Assessment(value=value, details=counts)
