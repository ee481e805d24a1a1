"""Typed parsing of CSV deliverables against a ``submission_schema.json`` column list.

Every problem is reported with the file line and the column so a player can fix the file
without guessing; parsing keeps going after an error so one upload shows many problems at once.
Only the first few messages are kept (``ErrorLog``). The work is bounded, because uploads are
untrusted and checked inside a web request: checking stops after ``STOP_AFTER`` problems, reading
stops one row past ``max_rows``, and a header far wider than the format is one problem (no
close-match lookup per column). The total is exact up to those bounds.
"""

from __future__ import annotations

import csv
import difflib
import io
import math
import re
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from typing import Any

#: Messages kept per upload.
MAX_ERRORS = 20
#: Checking stops once this many problems are found (the total then says "at least").
STOP_AFTER = 1000
#: A header wider than this many times the format's columns is not examined column by column.
HEADER_WIDTH_FACTOR = 4

_INTEGER = re.compile(r"^[+-]?[0-9]+(\.0*)?$")
_NUMBER = re.compile(r"^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$")
_TRUE = {"true", "1"}
_FALSE = {"false", "0"}
_NOT_A_NUMBER = {"nan", "na", "n/a", "null", "none", "inf", "-inf", "+inf", "infinity"}
_OTHER_DELIMITERS = {";": "semicolons", "\t": "tabs", "|": "pipes"}


class ErrorLog:
    """Keeps the first ``limit`` messages and counts all of them."""

    def __init__(self, limit: int = MAX_ERRORS) -> None:
        self.limit = limit
        self.messages: list[str] = []
        self.total = 0

    def add(self, message: str) -> None:
        self.total += 1
        if len(self.messages) < self.limit:
            self.messages.append(message)

    def __bool__(self) -> bool:
        return self.total > 0

    @property
    def full(self) -> bool:
        """Enough found: further checking only costs time."""
        return self.total >= STOP_AFTER


def _shown(raw: str) -> str:
    """Quote a cell for a message, shortened so a pasted essay does not flood the report."""
    return repr(raw if len(raw) <= 40 else raw[:37] + "...")


def _parse_integer(raw: str) -> int:
    if not _INTEGER.match(raw):
        raise ValueError("expected an integer")
    return int(raw.split(".")[0])


def _parse_number(raw: str) -> float:
    if not _NUMBER.match(raw):
        raise ValueError("expected a number")
    value = float(raw)
    if not math.isfinite(value):
        raise ValueError("expected a finite number")
    return value


def _parse_boolean(raw: str) -> bool:
    lowered = raw.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ValueError("expected true/false (or 1/0)")


def _parse_datetime(raw: str) -> datetime:
    try:
        return datetime.fromisoformat(raw)
    except ValueError:
        raise ValueError("expected an ISO 8601 date-time such as 2025-03-01T14:30") from None


def _parse_string(raw: str) -> str:
    return raw


PARSERS: dict[str, Callable[[str], Any]] = {
    "integer": _parse_integer,
    "number": _parse_number,
    "boolean": _parse_boolean,
    "datetime": _parse_datetime,
    "string": _parse_string,
}


class ColumnRule:
    """One column of the schema, compiled once so checking 20,000 rows stays cheap."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.name: str = spec["name"]
        self.type: str = spec.get("type", "string")
        self.parse = PARSERS[self.type]
        self.nullable: bool = bool(spec.get("nullable", False))
        self.bounds_text = (spec.get("min"), spec.get("max"))  # as written, for messages
        self.minimum = self._bound(spec.get("min"))
        self.maximum = self._bound(spec.get("max"))
        self.enum: list[Any] | None = spec.get("enum")
        # ``values_from``: the allowed values, read from a data file by ``load_schema``.
        allowed = spec.get("_allowed")
        self.allowed: frozenset[str] | None = frozenset(allowed) if allowed is not None else None
        self.allowed_source: str = str(spec.get("values_from", ""))
        pattern = spec.get("pattern")
        self.pattern = re.compile(pattern) if pattern is not None else None
        # Whether this column's date-times carry a time zone, fixed by the first one seen.
        self.zoned: bool | None = None

    def convert(self, raw: str) -> Any:
        """Return the typed value of a cell, or raise ValueError with the reason."""
        cell = raw.strip()
        if cell == "":
            if self.nullable:
                return None
            raise ValueError("the cell is empty but a value is required")
        try:
            value = self.parse(cell)
        except ValueError as exc:
            hint = ""
            if self.nullable and cell.lower() in _NOT_A_NUMBER:
                hint = " (leave the cell empty for no value)"
            raise ValueError(f"{exc}, got {_shown(cell)}{hint}") from None
        if isinstance(value, datetime):
            self._check_zone(value, cell)
        self._check_bounds(value, cell)
        if self.allowed is not None and str(value) not in self.allowed:
            file_name, _, column = self.allowed_source.partition(":")
            raise ValueError(f"{_shown(cell)} is not a `{column}` of data/{file_name}")
        return value

    def _check_zone(self, value: datetime, cell: str) -> None:
        """Mixing zoned and naive date-times would make an evaluator's comparisons fail."""
        zoned = value.tzinfo is not None
        if self.zoned is None:
            self.zoned = zoned
        elif zoned != self.zoned:
            earlier = "with" if self.zoned else "without"
            raise ValueError(f"{_shown(cell)} mixes time zones: earlier rows are {earlier} one")

    def _check_bounds(self, value: Any, cell: str) -> None:
        try:
            if self.minimum is not None and value < self.minimum:
                raise ValueError(f"{cell} is below the minimum {self.bounds_text[0]}")
            if self.maximum is not None and value > self.maximum:
                raise ValueError(f"{cell} is above the maximum {self.bounds_text[1]}")
        except TypeError:
            raise ValueError(
                f"{_shown(cell)} cannot be compared with the allowed range "
                "(give the time zone the way the submission format does)"
            ) from None
        if self.enum is not None and value not in self.enum:
            allowed = ", ".join(str(option) for option in self.enum[:10])
            raise ValueError(f"{_shown(cell)} is not one of the allowed values ({allowed})")
        if self.pattern is not None and not self.pattern.search(str(value)):
            raise ValueError(f"{_shown(cell)} does not have the expected form")

    def _bound(self, bound: Any) -> Any:
        # Date-time bounds are written as ISO strings in the schema.
        if bound is not None and self.type == "datetime":
            return datetime.fromisoformat(bound)
        return bound


def _delimiter_hint(header: list[str], expected: int) -> str | None:
    """Name the separator a one-column header seems to use (Excel often writes semicolons)."""
    if len(header) != 1 or expected < 2:
        return None
    for delimiter, name in _OTHER_DELIMITERS.items():
        if delimiter in header[0]:
            return (
                f"line 1: the header has a single column; the file seems to be separated by "
                f"{name}, but the submission format expects commas"
            )
    return None


def _header_map(
    header: list[str], rules: list[ColumnRule], errors: ErrorLog, schema: dict[str, Any]
) -> list[int]:
    """Check the header and return, per schema column, its position in the file.

    ``header_case: "insensitive"`` matches names whatever their case; ``extra_columns:
    "ignore"`` lets columns the format does not name through (the evaluator never sees them).
    """
    fold = (lambda name: name.lower()) if schema.get("header_case") == "insensitive" else str
    names = [fold(name.strip()) for name in header]
    expected = [fold(rule.name) for rule in rules]
    ignore_extra = schema.get("extra_columns") == "ignore"
    hint = _delimiter_hint(names, len(expected))
    if hint:
        errors.add(hint)
        return []
    if len(names) > HEADER_WIDTH_FACTOR * len(expected) + 10 and not ignore_extra:
        errors.add(
            f"line 1: the header has {len(names)} columns; the submission format has "
            f"{len(expected)}: {', '.join(f'`{name}`' for name in expected)}"
        )
        return []
    seen: set[str] = set()
    for name in names:
        if name in seen:
            errors.add(f"line 1: column `{name}` appears more than once in the header")
        seen.add(name)
    for name in names:
        if name == "":
            errors.add("line 1: a column has no name (a trailing comma in the header?)")
        elif name not in expected and ignore_extra:
            continue
        elif name not in expected:
            kept = len(errors.messages) < errors.limit  # a lookup only for messages shown
            close = difflib.get_close_matches(name, expected, n=1) if kept else []
            suggestion = f" (did you mean `{close[0]}`?)" if close else ""
            errors.add(f"line 1: unexpected column `{name}`{suggestion}")
    for name in expected:
        if name not in names:
            errors.add(f"line 1: missing column `{name}`")
    if errors:
        return []
    return [names.index(name) for name in expected]


def _unique_groups(schema: dict[str, Any]) -> list[tuple[str, ...]]:
    """``unique`` entries: a column name (unique on its own) or a list (unique together)."""
    groups: list[tuple[str, ...]] = []
    for entry in schema.get("unique", []):
        groups.append((entry,) if isinstance(entry, str) else tuple(entry))
    return groups


def _check_unique(rows: list[dict[str, Any]], schema: dict[str, Any], errors: ErrorLog) -> None:
    for group in _unique_groups(schema):
        first_line: dict[tuple[Any, ...], int] = {}
        for index, row in enumerate(rows):
            if errors.full:  # 10,000 repeats of one key would otherwise each be counted
                return
            key = tuple(row[name] for name in group)
            if key in first_line:
                label = ", ".join(f"`{name}`" for name in group)
                shown = ", ".join(str(part) for part in key)
                errors.add(
                    f"line {index + 2}: {label} = {shown} repeats line {first_line[key]}; "
                    "it must be unique"
                )
            else:
                first_line[key] = index + 2


def _check_row_count(count: int, schema: dict[str, Any], errors: ErrorLog) -> None:
    low, high = schema.get("min_rows"), schema.get("max_rows")
    if low is not None and count < low and not errors.full:
        errors.add(f"the file has {count} data rows; at least {low} are required")
    if high is not None and count > high:
        errors.add(f"the file has more than {high} data rows; at most {high} are allowed")


def _convert_row(
    cells: list[str], line: int, positions: list[int], rules: list[ColumnRule], errors: ErrorLog
) -> dict[str, Any]:
    row: dict[str, Any] = {}
    for position, rule in zip(positions, rules, strict=True):
        try:
            row[rule.name] = rule.convert(cells[position])
        except ValueError as exc:
            errors.add(f"line {line}, column `{rule.name}`: {exc}")
    return row


def _records(text: str | Iterable[str], errors: ErrorLog) -> Iterator[tuple[int, list[str]]]:
    """Split the text into (line, cells) records as they are read, keeping line numbers honest.

    ``Submission.line_of`` assumes one record per physical line, so blank lines in the middle
    of the data and quoted values spanning lines are reported instead of silently shifting the
    line numbers an evaluator will quote back to the player. Trailing blank lines are harmless.
    A generator, so the caller stops the reading (one row past ``max_rows``, or once ``errors``
    is full) rather than a 5 MB file being split whole first. ``text`` may be any iterable of
    lines (a file opened with ``newline=""``).
    """
    lines = io.StringIO(text, newline="") if isinstance(text, str) else text
    reader = csv.reader(lines, strict=True)
    blank_lines: list[int] = []
    last_line, seen = 0, False
    try:
        for cells in reader:
            start, last_line = last_line + 1, reader.line_num
            if not any(cell.strip() for cell in cells):
                blank_lines.append(start)
                continue
            where = "in the middle of the data" if seen else "before the header"
            for blank in blank_lines:
                errors.add(f"line {blank}: empty line {where}")
            blank_lines = []
            if last_line != start:
                errors.add(f"line {start}: a quoted value spans several lines")
            seen = True
            yield start, cells
    except csv.Error as exc:
        errors.add(f"line {reader.line_num}: the CSV is malformed ({exc})")


def parse_csv_text(
    text: str | Iterable[str], schema: dict[str, Any], errors: ErrorLog
) -> list[dict[str, Any]]:
    """Parse and type-check a CSV deliverable; problems go to ``errors``.

    Reading stops one row past ``max_rows`` (that is enough to say the file is too long) and
    once ``errors`` is full, so the cost of a huge or broken upload is bounded by the format,
    not by the file's size."""
    rules = [ColumnRule(spec) for spec in schema["columns"]]
    high = schema.get("max_rows")
    records = _records(text, errors)
    header = next(records, None)
    if header is None:
        errors.add("the file has no header line")
        return []
    positions = _header_map(header[1], rules, errors, schema)
    if not positions:
        return []
    width, count = len(header[1]), 0
    rows: list[dict[str, Any]] = []
    for line, cells in records:
        count += 1
        if (high is not None and count > high) or errors.full:
            break
        if len(cells) != width:
            errors.add(f"line {line}: expected {width} fields, found {len(cells)}")
            continue
        rows.append(_convert_row(cells, line, positions, rules, errors))
    if not errors:
        _check_unique(rows, schema, errors)
    _check_row_count(count, schema, errors)
    return rows
