"""Copies of hidden rows and hidden prose in what players see, however they were reformatted.

A byte digest misses a reference saved with CRLF endings, sorted the other way or given a new
header, and a line check with a minimum length misses every bundled reference (their rows are
shorter than 32 characters). So the rows are compared *normalised*: stripped, case-folded,
whitespace collapsed, cells split on any of ``, ; tab |`` (a CSV, a markdown table and a
spreadsheet paste read alike), in any order, the header row ignored.

A row is evidence only when it carries information: a lone number, date or time (one cell of a
time column, a count) also occurs in the visible inputs of any good package and proves nothing;
a row of two or more cells that equals a hidden row does not occur in a good package (measured
on the bundled cases: no hidden row of theirs appears in any served file). A served file that
repeats at least ``MIN_ROW_SHARE`` of a hidden file's distinct rows (at least one row, so a
four-row reference counts) or ``MIN_ROWS`` of them is a copy.

Business information is prose, not rows: ``hidden/information.md``'s sentences of
``MIN_SENTENCE_WORDS`` words or more, normalised the same way, are looked for in every served
text; ``MIN_SENTENCES`` of them in one served file is a copy (one shared sentence can be a
coincidence of phrasing, several cannot).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

MIN_ROW_SHARE = 0.5
MIN_ROWS = 20
MIN_SENTENCE_WORDS = 8
MIN_SENTENCES = 2
#: Hidden files compared row by row (deliverables, labels, truth tables, scripts' data).
ROW_SUFFIXES = {".csv", ".tsv", ".json", ".txt"}

_SEPARATORS = re.compile(r"\s*[,;\t|]\s*")
_QUOTES = "\"'`"
# A number, a date or a time of day, possibly with sign, decimals, exponent or a unit glued on.
_ORDINARY_CELL = re.compile(
    r"^[-+]?(?:\d+(?:[.:/-]\d+)*(?:[ t]\d+(?::\d+)*)?(?:e[-+]?\d+)?%?|true|false|yes|no|null)$"
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n\s*\n")
_NON_WORD = re.compile(r"[^\w]+")


def normalise_row(line: str) -> str:
    """One line as comparable cells: ``"B01", 2`` and ``| b01 | 2 |`` both read ``b01,2``."""
    text = " ".join(line.strip().casefold().split())
    cells = [cell.strip(_QUOTES).strip() for cell in _SEPARATORS.split(text)]
    while cells and not cells[0]:
        cells.pop(0)
    while cells and not cells[-1]:
        cells.pop()
    return ",".join(cells)


def informative(row: str) -> bool:
    """A row that proves a copy: two or more cells, or one cell that is no bare number."""
    cells = row.split(",")
    if not row or all(not cell.strip("-:") for cell in cells):
        return False  # blank, or a markdown table's ---|--- rule
    return len(cells) > 1 or not _ORDINARY_CELL.match(cells[0])


def hidden_rows(path: Path, text: str) -> set[str]:
    """The distinct informative rows of a hidden table: CSV lines without the header, or the
    records and key-value pairs of a JSON document."""
    if path.suffix == ".json":
        try:
            rows = set(_json_rows(json.loads(text)))
        except ValueError:
            rows = set()
    else:
        lines = [line for line in text.splitlines() if line.strip()]
        rows = {normalise_row(line) for line in lines[1:]}
    return {row for row in rows if informative(row)}


def served_rows(path: Path, text: str) -> set[str]:
    """Every row a served text shows: each line, and for JSON its records, key-value pairs and
    the lines inside its strings (a schema ``description`` holding pasted rows)."""
    rows = {normalise_row(line) for line in text.splitlines()}
    if path.suffix == ".json":
        try:
            document = json.loads(text)
        except ValueError:
            document = None
        rows.update(_json_rows(document))
        for string in json_strings(document):
            rows.update(normalise_row(line) for line in string.splitlines())
    return {row for row in rows if row}


def rows_needed(hidden_count: int) -> int:
    """How many shared rows make a served file a copy of a hidden file of this many rows."""
    return max(1, min(MIN_ROWS, math.ceil(MIN_ROW_SHARE * hidden_count)))


def _cell(value: Any) -> str:
    return normalise_row(json.dumps(value) if not isinstance(value, str) else value)


def _json_rows(value: Any) -> Iterator[str]:
    """Records (an object, or a list of two or more scalars, as one row) and ``key,value``
    pairs; a one-item list (``"aliases": ["marta"]``) is a word, not a row."""
    if isinstance(value, dict):
        scalars = [item for item in value.values() if not isinstance(item, dict | list)]
        if len(scalars) > 1 and len(scalars) == len(value):
            yield ",".join(_cell(item) for item in scalars)
        for key, item in value.items():
            if isinstance(item, dict | list):
                yield from _json_rows(item)
            else:
                yield f"{_cell(key)},{_cell(item)}"
    elif isinstance(value, list):
        if len(value) > 1 and all(not isinstance(item, dict | list) for item in value):
            yield ",".join(_cell(item) for item in value)
        for item in value:
            if isinstance(item, dict | list):
                yield from _json_rows(item)


def json_strings(value: Any) -> Iterator[str]:
    """Every string value in a JSON document, depth first."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from json_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from json_strings(item)


# --- prose -----------------------------------------------------------------------------------


def normalise_prose(text: str) -> str:
    """Words only, case-folded, single-spaced: markdown marks and line breaks do not matter."""
    return " ".join(_NON_WORD.sub(" ", text.casefold()).split())


def sentences(text: str) -> set[str]:
    """The normalised sentences of ``MIN_SENTENCE_WORDS`` words or more."""
    found = set()
    for sentence in _SENTENCE_END.split(text):
        words = normalise_prose(sentence)
        if len(words.split()) >= MIN_SENTENCE_WORDS:
            found.add(words)
    return found


def shared_sentences(hidden: set[str], served_text: str) -> list[str]:
    """The hidden sentences that occur word for word in ``served_text``."""
    served = f" {normalise_prose(served_text)} "
    return sorted(sentence for sentence in hidden if f" {sentence} " in served)
