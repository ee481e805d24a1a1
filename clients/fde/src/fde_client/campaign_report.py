"""What a campaign shows: a progress bar while it plays, a summary table when it ends."""

from __future__ import annotations

import sys
import threading
from statistics import mean
from typing import TextIO

from fde_client.campaign_file import ERROR, EXPIRED, FINAL, PENDING, Record
from fde_client.output import table

BAR_WIDTH = 30


class Progress:
    """``[#####-----] 3/12 runs finished, 2 playing, 0 errors`` on stderr.

    Redrawn in place on a terminal; on a pipe or a log file one line per change, so a
    campaign's log reads as a history.
    """

    def __init__(self, records: list[Record], stream: TextIO | None = None) -> None:
        self.records = records
        self.stream = stream or sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self._lock = threading.Lock()
        self._last = ""

    def update(self, note: str = "") -> None:
        with self._lock:
            line = self.line()
            if note:
                line = f"{line}  {note}"
            if line == self._last:
                return
            self._last = line
            end = "" if self.tty else "\n"
            prefix = "\r\033[K" if self.tty else ""
            self.stream.write(f"{prefix}{line}{end}")
            self.stream.flush()

    def line(self) -> str:
        total = len(self.records)
        finished = sum(r.state in FINAL for r in self.records)
        playing = sum(r.state not in FINAL and r.state != PENDING for r in self.records)
        errors = sum(r.state == ERROR for r in self.records)
        filled = BAR_WIDTH * finished // total if total else BAR_WIDTH
        bar = "#" * filled + "-" * (BAR_WIDTH - filled)
        return f"[{bar}] {finished}/{total} runs finished, {playing} playing, {errors} errors"

    def close(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()


def summary_table(records: list[Record]) -> str:
    """One line per case and condition: runs, mean score, valid share, Recall, questions."""
    cells: dict[tuple[str, str], list[Record]] = {}
    for record in records:
        cells.setdefault((record.case, record.condition), []).append(record)
    rows = [_row(case, condition, group) for (case, condition), group in cells.items()]
    rows.append(_row("all", "", records))
    headers = ["case", "condition", "runs", "score", "valid", "recall", "questions", "status"]
    return table(headers, rows)


def _row(case: str, condition: str, group: list[Record]) -> list[object]:
    scored = [r.score for r in group if r.score is not None]
    valid = [r.valid for r in group if r.valid is not None]
    recall = [r.recall for r in group if r.recall is not None]
    questions = [r.questions for r in group if r.questions is not None]
    return [
        case,
        condition,
        len(group),
        _mean(scored, "{:.3f}"),
        f"{sum(valid)}/{len(valid)}" if valid else "-",
        _mean(recall, "{:.2f}"),
        _mean(questions, "{:.1f}"),
        _states(group),
    ]


def _mean(values: list[float] | list[int], form: str) -> str:
    return form.format(mean(values)) if values else "-"


def _states(group: list[Record]) -> str:
    counts: dict[str, int] = {}
    for record in group:
        state = "expired" if record.state == EXPIRED else record.state
        counts[state] = counts.get(state, 0) + 1
    return ", ".join(f"{n} {state}" for state, n in sorted(counts.items()))


def errors_of(records: list[Record]) -> list[str]:
    return [f"{r.key}: {r.error}" for r in records if r.error]
