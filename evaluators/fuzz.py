"""Evaluator fuzz step of admission: does the evaluator give a verdict on every file the format
check accepts? (cases/README.md, issue 24)

The format check is the player's contract: a file it accepts must be scored, valid or invalid,
never crash the evaluator (a crash tells the player only that "the evaluation failed", and a
ranked run loses its delivery). Authors test their evaluator on the files their own solver
writes, so the forms a player's tools write differently go untested: zone-aware or
space-separated time stamps, rows in another order, padded cells, CRLF line endings, an
upper-case header where headers are case-insensitive.

``fuzz_reference`` writes such variations of the reference, keeps the ones the format check
accepts, and runs each through the evaluator. A crash is a problem naming the variation and
the evaluator's last error line. Variations that mean the same deliverable (reordered rows,
padded cells, other line endings) must also score like the reference; a different score is a
warning, since a case may make the order matter. A variation that parses to exactly the rows
the reference parses to is not run: the evaluator sees the same input, and admission already
scores the reference twice.
"""

from __future__ import annotations

import csv
import io
import json
import math
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evaluators.api import Submission
from evaluators.schema import SubmissionFormatError, load_schema, parse_submission

if TYPE_CHECKING:
    from evaluators.runtime import Result


@dataclass(frozen=True)
class Variant:
    """One rewriting of the reference; ``same`` when it means the same deliverable."""

    name: str
    data: bytes
    same: bool


def csv_variants(text: str, schema: dict[str, Any]) -> list[Variant]:
    """Rewritings of a CSV reference that the submission format may accept."""
    records = list(csv.reader(io.StringIO(text, newline="")))
    header, rows = records[0], [row for row in records[1:] if any(cell.strip() for cell in row)]
    ends = "\r\n" if "\r\n" in text else "\n"
    variants = []
    if len(rows) > 1:
        variants.append(Variant("rows in reverse order", _csv(header, rows[::-1], ends), True))
    padded = [[f" {cell} " for cell in row] for row in rows]
    variants.append(Variant("spaces around every cell", _csv(header, padded, ends), True))
    other = "\n" if ends == "\r\n" else "\r\n"
    variants.append(Variant(f"{_name(other)} line endings", _csv(header, rows, other), True))
    body = _csv(header, rows, ends)
    variants.append(Variant("no newline after the last row", body.rstrip(b"\r\n"), True))
    if schema.get("header_case") == "insensitive":
        upper = [name.upper() for name in header]
        variants.append(Variant("upper-case header", _csv(upper, rows, ends), True))
    for column in schema.get("columns", []):
        if column.get("type") == "datetime" and column.get("name") in header:
            variants += _stamp_variants(header, rows, header.index(column["name"]), ends)
    return variants


def _stamp_variants(
    header: list[str], rows: list[list[str]], index: int, ends: str
) -> list[Variant]:
    """Other ISO 8601 forms of one date-time column: the same instants written differently,
    and (for naive stamps) the same wall-clock times marked UTC and with an offset."""
    try:
        stamps = [datetime.fromisoformat(row[index].strip()) for row in rows]
    except ValueError:
        return []
    name = header[index]

    def rewritten(label: str, form: Callable[[datetime], str], same: bool) -> Variant:
        changed = [
            [*row[:index], form(s), *row[index + 1 :]] for row, s in zip(rows, stamps, strict=True)
        ]
        return Variant(f"`{name}` {label}", _csv(header, changed, ends), same)

    variants = [
        rewritten("with a space between date and time", lambda s: s.isoformat(sep=" "), True),
        rewritten("with seconds", lambda s: s.isoformat(timespec="seconds"), True),
    ]
    if all(s.tzinfo is None for s in stamps):
        variants += [
            rewritten("marked UTC with Z", lambda s: s.isoformat() + "Z", False),
            rewritten("with the offset +02:00", lambda s: s.isoformat() + "+02:00", False),
        ]
    elif all(s.tzinfo is not None for s in stamps):
        variants += [
            rewritten("in UTC with Z", lambda s: _utc(s).isoformat() + "Z", False),
            rewritten("without their offset", lambda s: s.replace(tzinfo=None).isoformat(), False),
        ]
    return variants


def _utc(moment: datetime) -> datetime:
    return moment.astimezone(UTC).replace(tzinfo=None)


def json_variants(text: str) -> list[Variant]:
    """Rewritings of a JSON reference: other layouts, and every object's keys reversed."""
    document = json.loads(text)
    return [
        Variant("compact JSON", json.dumps(document, separators=(",", ":")).encode(), True),
        Variant(
            "indented JSON with CRLF line endings",
            json.dumps(document, indent=4).replace("\n", "\r\n").encode(),
            True,
        ),
        Variant("object keys in reverse order", json.dumps(_reversed(document)).encode(), True),
    ]


def _reversed(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _reversed(value[key]) for key in reversed(list(value))}
    if isinstance(value, list):
        return [_reversed(item) for item in value]
    return value


def _csv(header: list[str], rows: list[list[str]], ends: str) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator=ends)
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue().encode("utf-8")


def _name(ends: str) -> str:
    return "CRLF" if ends == "\r\n" else "LF"


def _parsed(submission: Submission) -> Any:
    """What the evaluator receives; JSON keeps its key order (an evaluator may iterate it)."""
    if submission.format == "json":
        return json.dumps(submission.document, default=str)
    return submission.rows


def fuzz_reference(
    schema_path: Path, reference_path: Path, reference: Result, score: Callable[[Path], Result]
) -> tuple[list[str], list[str], list[dict[str, Any]]]:
    """Problems, warnings and a summary (one entry per variation) of the fuzz step."""
    schema = load_schema(schema_path)
    data = reference_path.read_bytes()
    text = data.decode("utf-8-sig")
    variants = json_variants(text) if schema["format"] == "json" else csv_variants(text, schema)
    original = _parsed(parse_submission(schema, data))
    problems: list[str] = []
    warnings: list[str] = []
    summary: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="fuzz-") as folder:
        for number, variant in enumerate(variants):
            entry: dict[str, Any] = {"variant": variant.name, "same_deliverable": variant.same}
            summary.append(entry)
            try:
                parsed = _parsed(parse_submission(schema, variant.data))
            except SubmissionFormatError as exc:
                entry["outcome"] = f"refused by the format check ({exc.errors[0]})"
                continue
            if parsed == original:
                entry["outcome"] = "parses to the same input as the reference (not re-run)"
                continue
            path = Path(folder) / f"variant-{number}{reference_path.suffix}"
            path.write_bytes(variant.data)
            result = score(path)
            entry["outcome"] = _describe(result)
            if result.error_kind == "execution":
                problems.append(
                    f"fuzz: the evaluator crashed on the reference with {variant.name}, a file "
                    f"the submission format accepts: {error_line(result)}"
                )
            elif variant.same and not _scores_alike(result, reference):
                warnings.append(
                    f"fuzz: the reference with {variant.name} scores {_describe(result)}, the "
                    f"reference {_describe(reference)}; the same deliverable should score alike"
                )
    return problems, warnings, summary


def _scores_alike(result: Result, reference: Result) -> bool:
    if result.valid != reference.valid or result.error_kind != reference.error_kind:
        return False
    if result.raw_value is None or reference.raw_value is None:
        return result.raw_value == reference.raw_value
    return math.isclose(result.raw_value, reference.raw_value, rel_tol=1e-9, abs_tol=1e-9)


def _describe(result: Result) -> str:
    if result.valid:
        return f"valid, value {result.raw_value!r}"
    if result.error_kind == "constraint":
        rules = sorted({str(item.get("rule", "")) for item in result.violations})
        return f"invalid, breaks {', '.join(rules)}"
    return f"{result.error_kind}: {result.error_message}"


def error_line(result: Result) -> str:
    """The exception line of the evaluator's last traceback (what went wrong, in one line);
    without a traceback (a timeout, say), the log's last line."""
    lines = [line for line in result.internal_log.splitlines() if line.strip()]
    starts = [i for i, line in enumerate(lines) if line.startswith("Traceback")]
    if starts:
        after = lines[starts[-1] + 1 :]
        raised = next((line for line in after if not line[0].isspace()), None)
        if raised is not None:
            return raised
    return lines[-1] if lines else str(result.error_message)
