"""Each run's earlier exchanges, kept per process so a question reads only what is new.

Every question needs the run's history (the customer reads it; a resent message id is found
in it), and reading it whole made each question cost more than the last: at twenty questions
a run, reading and decoding the earlier rows was the largest part of the question path's
database work. Exchanges are never changed or deleted once written, and a run's turns are
numbered 1, 2, … up to its ``rounds_used``, so a copy is checked against the locked run row
for free: when it holds ``rounds_used`` turns it is the history; when it holds fewer, only the
later turns are read (another process or tab asked in between); anything else is read whole.

A copy is updated only after the question's transaction commits (``on_commit``), so a rolled
back question never leaves its exchange behind in it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from django.db import transaction

from fdeplatform.runs import question_sql
from fdeplatform.runs.question_sql import ExchangeRow

#: Runs whose history a process keeps (least recently asked dropped first): several times the
#: runs one process serves at once under a campaign. A run holds at most its round limit of
#: exchanges (30 by default, about 1 KB each in practice, at most 5 KB): about 10 MB typical,
#: under 80 MB if every question were the longest allowed.
MAX_RUNS = 512

_copies: OrderedDict[Any, tuple[ExchangeRow, ...]] = OrderedDict()
_lock = threading.Lock()


def history_of(run_key: Any, rounds_used: int) -> list[ExchangeRow]:
    """The run's exchanges in turn order; call it with the run's row locked."""
    with _lock:
        copy = _copies.get(run_key)
        if copy is not None:
            _copies.move_to_end(run_key)
    if copy is not None and len(copy) == rounds_used:
        return list(copy)
    if copy is not None and len(copy) < rounds_used:
        rows = list(copy) + question_sql.exchanges_after(run_key, len(copy))
    else:
        rows = question_sql.exchanges_of(run_key)
    if len(rows) == rounds_used:
        _keep(run_key, tuple(rows))
    return rows


def remember_after_commit(run_key: Any, rows: list[ExchangeRow]) -> None:
    """Keep ``rows`` (the history including the new exchange) once the transaction commits."""
    kept = tuple(rows)
    transaction.on_commit(lambda: _keep(run_key, kept))


def _keep(run_key: Any, rows: tuple[ExchangeRow, ...]) -> None:
    """Keep ``rows`` as the run's copy: only turns 1..n in order, so a copy of n rows is always
    the run's first n turns."""
    if not _numbered(rows):
        return
    with _lock:
        current = _copies.get(run_key)
        if current is None or len(current) <= len(rows):  # never replace with an older copy
            _copies[run_key] = rows
        _copies.move_to_end(run_key)
        while len(_copies) > MAX_RUNS:
            _copies.popitem(last=False)


def _numbered(rows: tuple[ExchangeRow, ...]) -> bool:
    """Turns 1..n in order: what a run's history is unless rows were written another way."""
    return all(row.turn == index for index, row in enumerate(rows, 1))
