"""Parse an uploaded deliverable against the case's ``submission_schema.json``.

This is the only gate between a player's file and the hidden evaluator, so it turns every
way a file can be malformed into a message naming the line and the column. The same code
serves the ranked-run format check (``format_check``), which must never reveal hidden rules:
it only knows the public schema.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaluators.api import Submission
from evaluators.csv_format import MAX_ERRORS, PARSERS, ErrorLog, parse_csv_text

_COLUMN_KEYS = {
    "name", "type", "min", "max", "enum", "pattern", "nullable", "unit", "description",
    "values_from",
}  # fmt: skip
_CSV_KEYS = {
    "format", "description", "columns", "unique", "min_rows", "max_rows", "extra_columns",
    "header_case",
}  # fmt: skip
_JSON_KEYS = {"format", "description", "schema"}
_ORDERED_TYPES = ("integer", "number", "datetime")


class SubmissionFormatError(Exception):
    """The upload does not match the submission format; ``errors`` are player-facing."""

    def __init__(self, errors: list[str], total: int | None = None) -> None:
        self.errors = errors[:MAX_ERRORS]
        self.total = total if total is not None else len(errors)
        super().__init__("; ".join(self.errors))


class SchemaDefinitionError(Exception):
    """``submission_schema.json`` itself is broken (an authoring problem, not the player's)."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))


@dataclass
class FormatCheck:
    """What a ranked run may show: whether the file has the right form, never a score."""

    ok: bool
    errors: list[str] = field(default_factory=list)
    total_errors: int = 0
    rows: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "errors": self.errors,
            "total_errors": self.total_errors,
            "rows": self.rows,
        }


# --- the schema document -------------------------------------------------------------------


def load_schema(path: Path) -> dict[str, Any]:
    """Read and check ``submission_schema.json``; raise SchemaDefinitionError if it is broken."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SchemaDefinitionError([f"{path.name}: cannot be read as JSON ({exc})"]) from None
    problems = schema_problems(document)
    if problems:
        raise SchemaDefinitionError([f"{path.name}: {problem}" for problem in problems])
    assert isinstance(document, dict)
    if document["format"] == "csv":
        _attach_allowed_values(document, path.parent / "data", path.name)
    return document


def _attach_allowed_values(document: dict[str, Any], data_dir: Path, where: str) -> None:
    """``values_from: "items.csv:item_id"``: the column's values must be one of that data file's
    column (read once here, kept on the column as ``_allowed``)."""
    import csv

    for column in document["columns"]:
        source = column.get("values_from")
        if source is None:
            continue
        file_name, _, data_column = source.partition(":")
        path = data_dir / file_name
        try:
            with path.open(encoding="utf-8-sig", newline="") as handle:
                reader = csv.DictReader(handle)
                if data_column not in (reader.fieldnames or []):
                    raise SchemaDefinitionError(
                        [
                            f"{where}: column `{column['name']}`: data/{file_name} has no column "
                            f"`{data_column}`"
                        ]
                    )
                column["_allowed"] = sorted({row[data_column].strip() for row in reader})
        except OSError:
            raise SchemaDefinitionError(
                [
                    f"{where}: column `{column['name']}`: `values_from` names data/{file_name}, "
                    "which cannot be read"
                ]
            ) from None


def schema_problems(document: Any) -> list[str]:
    """Everything wrong with a schema document, for the package checker."""
    if not isinstance(document, dict):
        return ["the schema must be a JSON object"]
    kind = document.get("format")
    if kind == "csv":
        return _unknown_keys(document, _CSV_KEYS, "the schema") + _csv_schema_problems(document)
    if kind == "json":
        return _unknown_keys(document, _JSON_KEYS, "the schema") + _json_schema_problems(document)
    return [f'`format` must be "csv" or "json", not {kind!r}']


def _unknown_keys(mapping: dict[str, Any], allowed: set[str], where: str) -> list[str]:
    return [f"{where} has an unknown key `{key}`" for key in mapping if key not in allowed]


def _csv_schema_problems(document: dict[str, Any]) -> list[str]:
    columns = document.get("columns")
    if not isinstance(columns, list) or not columns:
        return ["`columns` must be a non-empty list"]
    problems: list[str] = []
    names: list[str] = []
    for index, column in enumerate(columns):
        problems += _column_problems(column, index)
        if isinstance(column, dict) and isinstance(column.get("name"), str):
            if column["name"] in names:
                problems.append(f"column `{column['name']}` is listed twice")
            names.append(column["name"])
    problems += _unique_problems(document.get("unique", []), names)
    problems += _row_bound_problems(document)
    if document.get("extra_columns", "error") not in ("error", "ignore"):
        problems.append('`extra_columns` must be "error" (the default) or "ignore"')
    if document.get("header_case", "exact") not in ("exact", "insensitive"):
        problems.append('`header_case` must be "exact" (the default) or "insensitive"')
    return problems


def _column_problems(column: Any, index: int) -> list[str]:
    if not isinstance(column, dict):
        return [f"column #{index + 1} must be an object"]
    name = column.get("name")
    if not isinstance(name, str) or not name.strip():
        return [f"column #{index + 1} has no `name`"]
    where = f"column `{name}`"
    problems = _unknown_keys(column, _COLUMN_KEYS, where)
    kind = column.get("type", "string")
    if kind not in PARSERS:
        problems.append(f"{where} has unknown type {kind!r} (use one of {', '.join(PARSERS)})")
    for bound in ("min", "max"):
        if bound in column and kind not in _ORDERED_TYPES:
            problems.append(f"{where}: `{bound}` only applies to {', '.join(_ORDERED_TYPES)}")
        elif bound in column and not _valid_bound(column[bound], kind):
            problems.append(f"{where}: `{bound}` must be a number (an ISO string for datetime)")
    if "enum" in column and (not isinstance(column["enum"], list) or not column["enum"]):
        problems.append(f"{where}: `enum` must be a non-empty list")
    if "pattern" in column:
        problems += _pattern_problems(column["pattern"], where)
    if "nullable" in column and not isinstance(column["nullable"], bool):
        problems.append(f"{where}: `nullable` must be true or false")
    source = column.get("values_from")
    if source is not None and not (
        isinstance(source, str) and re.fullmatch(r"[\w.-]+\.csv:[^:]+", source)
    ):
        problems.append(f'{where}: `values_from` must look like "items.csv:item_id"')
    return problems


def _valid_bound(value: Any, kind: str) -> bool:
    if kind == "datetime":
        try:
            PARSERS["datetime"](value)
        except (TypeError, ValueError):
            return False
        return True
    return isinstance(value, int | float) and not isinstance(value, bool)


def _pattern_problems(pattern: Any, where: str) -> list[str]:
    try:
        re.compile(pattern)
    except (TypeError, re.error) as exc:
        return [f"{where}: `pattern` is not a valid regular expression ({exc})"]
    return []


def _unique_problems(unique: Any, names: list[str]) -> list[str]:
    if not isinstance(unique, list):
        return ["`unique` must be a list of column names (or lists of names)"]
    problems = []
    for entry in unique:
        group = [entry] if isinstance(entry, str) else entry
        if not isinstance(group, list) or not group:
            problems.append(f"`unique` entry {entry!r} must be a column name or a list of names")
            continue
        problems += [
            f"`unique` names unknown column `{name}`" for name in group if name not in names
        ]
    return problems


def _row_bound_problems(document: dict[str, Any]) -> list[str]:
    problems = []
    for key in ("min_rows", "max_rows"):
        value = document.get(key)
        if value is not None and (
            not isinstance(value, int) or isinstance(value, bool) or value < 0
        ):
            problems.append(f"`{key}` must be a non-negative integer")
    low, high = document.get("min_rows"), document.get("max_rows")
    if isinstance(low, int) and isinstance(high, int) and low > high:
        problems.append("`min_rows` is larger than `max_rows`")
    return problems


def _json_schema_problems(document: dict[str, Any]) -> list[str]:
    import jsonschema  # Lazy: CSV-only callers should not pay for it.

    inner = document.get("schema")
    if not isinstance(inner, dict):
        return ["`schema` must be a JSON Schema object"]
    try:
        jsonschema.Draft202012Validator.check_schema(inner)
    except jsonschema.SchemaError as exc:
        return [f"`schema` is not a valid JSON Schema: {exc.message}"]
    return []


# --- the upload ----------------------------------------------------------------------------


def read_upload(file_path: Path, max_bytes: int | None = None) -> bytes:
    """Read the upload, refusing oversized files before loading them."""
    size = file_path.stat().st_size
    if max_bytes is not None and size > max_bytes:
        raise SubmissionFormatError(
            [f"the file is {_megabytes(size)}; the limit for this case is {_megabytes(max_bytes)}"]
        )
    return file_path.read_bytes()


def _megabytes(size: int) -> str:
    return f"{size / 1_048_576:.1f} MB"


def decode_upload(data: bytes) -> str:
    """Text of the upload; binary files and encodings other than UTF-8 are refused."""
    if not data.strip():
        raise SubmissionFormatError(["the file is empty"])
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise SubmissionFormatError(["the file is UTF-16 encoded; save it as UTF-8 instead"])
    if b"\x00" in data:
        raise SubmissionFormatError(["the file is binary (it contains NUL bytes), not text"])
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SubmissionFormatError(
            [f"the file is not valid UTF-8 text (byte {exc.start}); save it as UTF-8"]
        ) from None


def parse_submission(schema: dict[str, Any], data: bytes) -> Submission:
    """Parse raw upload bytes into a typed Submission, or raise SubmissionFormatError."""
    text = decode_upload(data)
    errors = ErrorLog()
    if schema["format"] == "csv":
        rows = parse_csv_text(text, schema, errors)
        submission = Submission(format="csv", rows=rows)
    else:
        submission = Submission(format="json", document=_parse_json_text(text, schema, errors))
    if errors:
        raise SubmissionFormatError(errors.messages, errors.total)
    return submission


def parse_file(schema_path: Path, file_path: Path, max_bytes: int | None = None) -> Submission:
    return parse_submission(load_schema(schema_path), read_upload(file_path, max_bytes))


def format_check(
    schema_path: Path, file_path: Path, *, max_bytes: int | None = None
) -> FormatCheck:
    """Check only the form of a file (what ranked runs show while open)."""
    try:
        submission = parse_file(schema_path, file_path, max_bytes)
    except SubmissionFormatError as exc:
        return FormatCheck(ok=False, errors=exc.errors, total_errors=exc.total)
    rows = len(submission.rows) if submission.format == "csv" else None
    return FormatCheck(ok=True, rows=rows)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed in JSON")


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"the key {key!r} appears twice in one object")
        result[key] = value
    return result


def _parse_json_text(text: str, schema: dict[str, Any], errors: ErrorLog) -> Any:
    import jsonschema

    try:
        document = json.loads(
            text, parse_constant=_reject_constant, object_pairs_hook=_no_duplicate_keys
        )
    except json.JSONDecodeError as exc:
        errors.add(f"line {exc.lineno}, column {exc.colno}: invalid JSON ({exc.msg})")
        return None
    except ValueError as exc:
        errors.add(f"invalid JSON: {exc}")
        return None
    except RecursionError:
        errors.add("invalid JSON: nested too deeply (more than a few hundred levels)")
        return None
    validator = jsonschema.Draft202012Validator(
        schema["schema"], format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )
    for error in sorted(validator.iter_errors(document), key=_path_order):
        errors.add(f"at `{_json_path(list(error.absolute_path))}`: {_short(error.message)}")
    return document


def _path_order(error: Any) -> list[tuple[int, int, str]]:
    """Sort errors by document position; array indexes numerically, keys alphabetically."""
    return [(0, p, "") if isinstance(p, int) else (1, 0, str(p)) for p in error.absolute_path]


def _json_path(parts: list[Any]) -> str:
    path = "$"
    for part in parts:
        path += f"[{part}]" if isinstance(part, int) else f".{part}"
    return path


def _short(message: str) -> str:
    return message if len(message) <= 200 else message[:197] + "..."
