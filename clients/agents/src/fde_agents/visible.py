"""Deliverables built from a workspace's visible files only: the do-nothing deliverable.

Why generic, from ``submission_schema.json`` and ``data/``, and not a recipe per case: a
reference agent must work on any case a server publishes, and a case author should not have to
write anything for the floor to exist. The schema already says what a deliverable's rows are
keyed by (``unique``, ``values_from``, a description naming a data file) and what each column
holds (type, bounds); "do nothing" is then the plainest reading of it:

- a case whose deliverable may be empty (``min_rows`` 0: a move list, a load list, a bake plan)
  gets the header and no rows: nothing moved, nothing loaded, nothing baked;
- otherwise one row per key the data lists (every quarter-hour of the forecast, every
  applicant of the test file), each action column at its neutral value (0, clipped into the
  column's bounds): the battery idle.

That is the case's do-nothing baseline wherever the baseline is "change nothing" (every
bundled CO case). Where the case's own baseline needs a hidden rule to build (credit-default's
baseline scores only the in-scope products, at the portfolio rate), the floor cannot match it
without leaking that rule, so it scores at or below the baseline, never above: the board's
floor stays below every competent run by construction.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

NUMERIC = ("number", "integer")


def read_schema(workspace: Path) -> dict[str, Any]:
    schema = json.loads((workspace / "submission_schema.json").read_text(encoding="utf-8"))
    if not isinstance(schema, dict):
        raise ValueError("submission_schema.json is not a JSON object")
    return schema


def data_tables(workspace: Path) -> dict[str, list[dict[str, str]]]:
    """Every CSV under data/, read as rows of strings (visible files only)."""
    tables = {}
    for path in sorted((workspace / "data").glob("*.csv")):
        with path.open(newline="", encoding="utf-8") as handle:
            tables[path.name] = list(csv.DictReader(handle))
    return tables


def key_values(column: dict[str, Any], schema: dict[str, Any], workspace: Path) -> list[str]:
    """The values the deliverable's key column takes, from the data the schema points at."""
    tables = data_tables(workspace)
    name = str(column["name"])
    source = column.get("values_from")
    if isinstance(source, str) and ":" in source:
        file_name, field = source.split(":", 1)
        return _unique(row[field] for row in tables.get(Path(file_name).name, []))
    holders = {f: rows for f, rows in tables.items() if rows and name in rows[0]}
    if not holders:
        return []
    text = f"{column.get('description', '')} {schema.get('description', '')}"
    named = [f for f in holders if f in text]
    low, high = int(schema.get("min_rows") or 0), int(schema.get("max_rows") or 10**9)
    fitting = [f for f in holders if low <= len(holders[f]) <= high]
    # The file the schema names, else the smallest table that fits the row bounds.
    choice = named[0] if named else min(fitting or holders, key=lambda f: len(holders[f]))
    return _unique(row[name] for row in holders[choice])


def _unique(values: Any) -> list[str]:
    return list(dict.fromkeys(str(v) for v in values if str(v) != ""))


def neutral(column: dict[str, Any]) -> Any:
    """The column's do-nothing value: 0 for an action, clipped into the column's bounds."""
    kind = column.get("type")
    if kind in NUMERIC:
        value = 0
        if column.get("min") is not None:
            value = max(value, column["min"])
        if column.get("max") is not None:
            value = min(value, column["max"])
        return int(value) if kind == "integer" else value
    if kind == "boolean":
        return "false"
    allowed = column.get("enum") or column.get("values")
    return allowed[0] if isinstance(allowed, list) and allowed else ""


def do_nothing_csv(workspace: Path) -> str:
    schema = read_schema(workspace)
    columns = [c for c in schema.get("columns", []) if isinstance(c, dict)]
    names = [str(c["name"]) for c in columns]
    rows: list[dict[str, Any]] = []
    if int(schema.get("min_rows") or 0) > 0:
        key_name = (schema.get("unique") or names)[0]
        key = next(c for c in columns if c["name"] == key_name)
        for value in key_values(key, schema, workspace):
            rows.append({c["name"]: value if c is key else neutral(c) for c in columns})
    return write_csv(names, rows)


def write_csv(names: list[str], rows: list[dict[str, Any]]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=names, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


def minimal_json(schema: dict[str, Any]) -> Any:
    """The smallest instance of a JSON Schema: required properties only, empty arrays."""
    kind = schema.get("type")
    if kind == "object":
        props = schema.get("properties") or {}
        return {k: minimal_json(props.get(k, {})) for k in schema.get("required") or []}
    if kind == "array":
        count = int(schema.get("minItems") or 0)
        return [minimal_json(schema.get("items") or {}) for _ in range(count)]
    if kind in NUMERIC:
        return neutral({"type": kind, "min": schema.get("minimum"), "max": schema.get("maximum")})
    if kind == "boolean":
        return False
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return schema["enum"][0]
    return "" if kind == "string" else None


def do_nothing(workspace: Path) -> tuple[str, str]:
    """(file name, content) of the do-nothing deliverable for this workspace."""
    schema = read_schema(workspace)
    if schema.get("format") == "json":
        document = minimal_json(schema.get("schema") or {})
        return "deliverable.json", json.dumps(document, indent=2) + "\n"
    return "deliverable.csv", do_nothing_csv(workspace)
