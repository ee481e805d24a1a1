"""Parsing deliverables against submission_schema.json: every error names line and column."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from evaluators.csv_format import STOP_AFTER, ErrorLog, parse_csv_text
from evaluators.schema import (
    SchemaDefinitionError,
    SubmissionFormatError,
    format_check,
    load_schema,
    parse_submission,
    read_upload,
    schema_problems,
)

SCHEMA: dict[str, Any] = {
    "format": "csv",
    "columns": [
        {"name": "step", "type": "integer", "min": 1},
        {"name": "pallet_id", "type": "string", "pattern": "^P[0-9]{5}$"},
        {"name": "to_stack", "type": "integer", "min": 0, "max": 99},
        {"name": "charge_kw", "type": "number", "nullable": True, "max": 50},
        {"name": "urgent", "type": "boolean"},
        {"name": "at", "type": "datetime"},
        {"name": "zone", "type": "string", "enum": ["A", "B"]},
    ],
    "unique": ["step"],
    "min_rows": 1,
    "max_rows": 3,
}
HEADER = "step,pallet_id,to_stack,charge_kw,urgent,at,zone\n"
GOOD_ROW = "1,P00001,4,2.5,true,2025-03-01T14:30,A\n"


def errors_of(text: str | bytes, schema: dict[str, Any] = SCHEMA) -> list[str]:
    data = text.encode("utf-8") if isinstance(text, str) else text
    with pytest.raises(SubmissionFormatError) as caught:
        parse_submission(schema, data)
    return caught.value.errors


def test_it_types_every_column_of_a_good_file() -> None:
    text = HEADER + GOOD_ROW + "2,P00002,0,,0,2025-03-01,B\n"
    submission = parse_submission(SCHEMA, text.encode())
    assert submission.format == "csv"
    assert submission.rows[0] == {
        "step": 1,
        "pallet_id": "P00001",
        "to_stack": 4,
        "charge_kw": 2.5,
        "urgent": True,
        "at": datetime(2025, 3, 1, 14, 30),
        "zone": "A",
    }
    assert submission.rows[1]["charge_kw"] is None
    assert submission.rows[1]["urgent"] is False


def test_it_reports_a_bad_integer_with_line_and_column() -> None:
    errors = errors_of(HEADER + GOOD_ROW + "2,P00002,abc,1,true,2025-03-01,A\n")
    assert errors == ["line 3, column `to_stack`: expected an integer, got 'abc'"]


def test_it_accepts_integral_floats_but_not_fractions_or_underscores() -> None:
    assert parse_submission(SCHEMA, (HEADER + GOOD_ROW.replace(",4,", ",4.0,")).encode())
    assert (
        "expected an integer, got '4.5'" in errors_of(HEADER + GOOD_ROW.replace(",4,", ",4.5,"))[0]
    )
    assert "got '1_0'" in errors_of(HEADER + GOOD_ROW.replace(",4,", ",1_0,"))[0]


def test_it_rejects_values_outside_min_and_max() -> None:
    errors = errors_of(HEADER + "0,P00001,100,2.5,true,2025-03-01,A\n")
    assert errors == [
        "line 2, column `step`: 0 is below the minimum 1",
        "line 2, column `to_stack`: 100 is above the maximum 99",
    ]


def test_it_rejects_values_outside_the_enum_and_pattern() -> None:
    errors = errors_of(HEADER + "1,X1,4,2.5,true,2025-03-01,C\n")
    assert errors[0] == "line 2, column `pallet_id`: 'X1' does not have the expected form"
    assert errors[1].startswith(
        "line 2, column `zone`: 'C' is not one of the allowed values (A, B)"
    )


def test_it_rejects_empty_cells_unless_nullable() -> None:
    errors = errors_of(HEADER + "1,,4,,true,2025-03-01,A\n")
    assert errors == ["line 2, column `pallet_id`: the cell is empty but a value is required"]


def test_it_suggests_an_empty_cell_for_nan_in_a_nullable_column() -> None:
    errors = errors_of(HEADER + GOOD_ROW.replace("2.5", "NaN"))
    assert errors == [
        "line 2, column `charge_kw`: expected a number, got 'NaN' "
        "(leave the cell empty for no value)"
    ]


def test_it_rejects_bad_booleans_and_datetimes() -> None:
    errors = errors_of(HEADER + "1,P00001,4,2.5,yes,01/03/2025,A\n")
    assert errors[0] == "line 2, column `urgent`: expected true/false (or 1/0), got 'yes'"
    assert errors[1].startswith("line 2, column `at`: expected an ISO 8601 date-time")


def test_it_refuses_a_column_mixing_zoned_and_naive_datetimes() -> None:
    text = HEADER + GOOD_ROW + "2,P00002,4,2.5,true,2025-03-01T15:00+01:00,A\n"
    assert errors_of(text) == [
        "line 3, column `at`: '2025-03-01T15:00+01:00' mixes time zones: "
        "earlier rows are without one"
    ]


def test_it_compares_datetimes_with_bounds_and_explains_zone_mismatches() -> None:
    schema = {**SCHEMA, "columns": [{"name": "at", "type": "datetime", "min": "2025-03-01"}]}
    assert errors_of("at\n2025-02-28T23:00\n", schema) == [
        "line 2, column `at`: 2025-02-28T23:00 is below the minimum 2025-03-01"
    ]
    assert errors_of("at\n2025-03-02T00:00Z\n", schema)[0].endswith(
        "cannot be compared with the allowed range "
        "(give the time zone the way the submission format does)"
    )


def test_it_reports_a_header_column_without_a_name() -> None:
    errors = errors_of(HEADER.replace("\n", ",\n") + GOOD_ROW)
    assert errors == ["line 1: a column has no name (a trailing comma in the header?)"]


def test_it_reports_duplicates_of_a_unique_column() -> None:
    errors = errors_of(HEADER + GOOD_ROW + GOOD_ROW)
    assert errors == ["line 3: `step` = 1 repeats line 2; it must be unique"]


def test_it_checks_unique_column_combinations() -> None:
    schema = {**SCHEMA, "unique": [["pallet_id", "zone"]]}
    errors = errors_of(HEADER + GOOD_ROW + GOOD_ROW.replace("1,", "2,", 1), schema)
    assert errors == ["line 3: `pallet_id`, `zone` = P00001, A repeats line 2; it must be unique"]


def test_it_enforces_min_and_max_rows() -> None:
    assert errors_of(HEADER) == ["the file has 0 data rows; at least 1 are required"]
    rows = "".join(GOOD_ROW.replace("1,", f"{n},", 1) for n in range(1, 5))
    assert errors_of(HEADER + rows) == ["the file has more than 3 data rows; at most 3 are allowed"]


def test_it_reports_missing_extra_and_duplicate_columns() -> None:
    errors = errors_of("step,pallet_id,pallet_id,Zone,to_stack,charge_kw,urgent,at,colour\n")
    assert errors == [
        "line 1: column `pallet_id` appears more than once in the header",
        "line 1: unexpected column `Zone` (did you mean `zone`?)",
        "line 1: unexpected column `colour`",
        "line 1: missing column `zone`",
    ]


def test_it_accepts_columns_in_any_order_and_a_byte_order_mark() -> None:
    text = (
        "\ufeffzone,at,urgent,charge_kw,to_stack,pallet_id,step\r\nB,2025-03-01,1,,7,P00009,3\r\n"
    )
    submission = parse_submission(SCHEMA, text.encode("utf-8"))
    assert submission.rows == [
        {
            "step": 3,
            "pallet_id": "P00009",
            "to_stack": 7,
            "charge_kw": None,
            "urgent": True,
            "at": datetime(2025, 3, 1),
            "zone": "B",
        }
    ]


@pytest.mark.parametrize(("delimiter", "name"), [(";", "semicolons"), ("\t", "tabs")])
def test_it_explains_a_wrong_delimiter(delimiter: str, name: str) -> None:
    text = (HEADER + GOOD_ROW).replace(",", delimiter)
    errors = errors_of(text)
    assert len(errors) == 1
    assert f"separated by {name}" in errors[0]


def test_it_reports_rows_with_the_wrong_number_of_fields() -> None:
    errors = errors_of(HEADER + "1,P00001,4\n")
    assert errors == ["line 2: expected 7 fields, found 3"]


def test_it_reports_blank_lines_inside_the_data_but_not_at_the_end() -> None:
    assert parse_submission(SCHEMA, (HEADER + GOOD_ROW + "\n\n").encode()).rows
    errors = errors_of(HEADER + "\n" + GOOD_ROW)
    assert errors == ["line 2: empty line in the middle of the data"]


def test_it_reports_a_quoted_value_spanning_lines() -> None:
    errors = errors_of(HEADER + '1,"P0\n0001",4,2.5,true,2025-03-01,A\n')
    assert errors[0] == "line 2: a quoted value spans several lines"


def test_it_keeps_twenty_messages_but_counts_every_error() -> None:
    schema = {**SCHEMA, "max_rows": 1000}
    rows = "".join(f"{n},P00001,bad,1,true,2025-03-01,A\n" for n in range(1, 51))
    with pytest.raises(SubmissionFormatError) as caught:
        parse_submission(schema, (HEADER + rows).encode())
    assert len(caught.value.errors) == 20
    assert caught.value.total == 50
    assert caught.value.errors[-1].startswith("line 21, column `to_stack`")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "the file is empty"),
        (b"  \n\n", "the file is empty"),
        (b"step\x00\x01\x02", "the file is binary (it contains NUL bytes), not text"),
        (b"PK\x03\x04\x00\x00", "the file is binary (it contains NUL bytes), not text"),
        ("step\n1\n".encode("utf-16"), "the file is UTF-16 encoded; save it as UTF-8 instead"),
    ],
)
def test_it_refuses_empty_and_binary_files(data: bytes, message: str) -> None:
    assert errors_of(data) == [message]


def test_it_refuses_text_that_is_not_utf8() -> None:
    errors = errors_of((HEADER + GOOD_ROW.replace("A\n", "Ä\n")).encode("latin-1"))
    assert errors[0].startswith("the file is not valid UTF-8 text")


def test_read_upload_refuses_a_file_over_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "big.csv"
    path.write_bytes(b"x" * 3_000_000)
    with pytest.raises(SubmissionFormatError) as caught:
        read_upload(path, max_bytes=2 * 1_048_576)
    assert caught.value.errors == ["the file is 2.9 MB; the limit for this case is 2.0 MB"]


# --- JSON deliverables ---------------------------------------------------------------------

JSON_SCHEMA: dict[str, Any] = {
    "format": "json",
    "schema": {
        "type": "object",
        "required": ["orders"],
        "properties": {
            "orders": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["sku", "qty"],
                    "properties": {"sku": {"type": "string"}, "qty": {"type": "integer"}},
                },
            }
        },
    },
}


def test_it_parses_a_json_deliverable() -> None:
    submission = parse_submission(JSON_SCHEMA, b'{"orders": [{"sku": "S1", "qty": 6}]}')
    assert submission.format == "json"
    assert submission.document == {"orders": [{"sku": "S1", "qty": 6}]}
    assert submission.rows == []


def test_it_reports_invalid_json_with_line_and_column() -> None:
    errors = errors_of('{"orders": [\n  {"sku": "S1", "qty": 6,}\n]}', JSON_SCHEMA)
    assert errors[0].startswith("line 2, column 26: invalid JSON")


def test_it_reports_json_schema_errors_with_their_path() -> None:
    document = {"orders": [{"sku": "S1", "qty": 6}, {"sku": "S2", "qty": "ten"}, {"sku": "S3"}]}
    errors = errors_of(json.dumps(document), JSON_SCHEMA)
    assert errors == [
        "at `$.orders[1].qty`: 'ten' is not of type 'integer'",
        "at `$.orders[2]`: 'qty' is a required property",
    ]


def test_it_refuses_nan_and_duplicate_keys_in_json() -> None:
    assert "NaN is not allowed" in errors_of('{"orders": [], "x": NaN}', JSON_SCHEMA)[0]
    assert "appears twice" in errors_of('{"orders": [], "orders": []}', JSON_SCHEMA)[0]


# --- format_check (what ranked runs show) and the schema document ---------------------------


def test_format_check_reports_ok_and_the_row_count(tmp_path: Path) -> None:
    schema_path = tmp_path / "submission_schema.json"
    schema_path.write_text(json.dumps(SCHEMA))
    good, bad = tmp_path / "good.csv", tmp_path / "bad.csv"
    good.write_text(HEADER + GOOD_ROW)
    bad.write_text(HEADER + "x,P00001,4,2.5,true,2025-03-01,A\n")
    assert format_check(schema_path, good).to_dict() == {
        "ok": True,
        "errors": [],
        "total_errors": 0,
        "rows": 1,
    }
    result = format_check(schema_path, bad)
    assert not result.ok
    assert result.errors == ["line 2, column `step`: expected an integer, got 'x'"]
    assert format_check(schema_path, good, max_bytes=10).errors[0].startswith("the file is")


def test_schema_problems_names_each_mistake_in_a_schema() -> None:
    document = {
        "format": "csv",
        "columns": [
            {"name": "a", "type": "float"},
            {"name": "b", "type": "string", "pattern": "(["},
            {"name": "b", "nullabel": True},
            {"name": "c", "type": "string", "min": 1},
        ],
        "unique": ["d"],
        "min_rows": 5,
        "max_rows": 2,
    }
    problems = schema_problems(document)
    assert (
        "column `a` has unknown type 'float' "
        "(use one of integer, number, boolean, datetime, string)" in problems
    )
    assert any(
        p.startswith("column `b`: `pattern` is not a valid regular expression") for p in problems
    )
    assert "column `b` has an unknown key `nullabel`" in problems
    assert "column `b` is listed twice" in problems
    assert "`unique` names unknown column `d`" in problems
    assert "column `c`: `min` only applies to integer, number, datetime" in problems
    assert "`min_rows` is larger than `max_rows`" in problems


def test_schema_problems_checks_formats_and_embedded_json_schemas() -> None:
    assert schema_problems({"format": "xlsx"}) == ['`format` must be "csv" or "json", not \'xlsx\'']
    problems = schema_problems({"format": "json", "schema": {"type": "nonsense"}})
    assert problems[0].startswith("`schema` is not a valid JSON Schema")
    assert schema_problems(JSON_SCHEMA) == []
    assert schema_problems(SCHEMA) == []


# --- bounded work: uploads are checked inside a web request (issue 14) ---------------------


def _total_of(text: str, schema: dict[str, Any] = SCHEMA) -> int:
    with pytest.raises(SubmissionFormatError) as caught:
        parse_submission(schema, text.encode())
    return caught.value.total


def test_reading_stops_one_row_past_max_rows() -> None:
    huge = HEADER + "".join(GOOD_ROW.replace("1,", f"{n},", 1) for n in range(1, 200_001))
    # "more than 3": four data rows were read, not 200,000 counted.
    assert errors_of(huge) == ["the file has more than 3 data rows; at most 3 are allowed"]


def test_a_header_far_wider_than_the_format_is_one_problem() -> None:
    wide = ",".join(f"col{i}" for i in range(50_000)) + "\n"
    (message,) = errors_of(wide)  # one problem: no close-match lookup per column
    assert message.startswith("line 1: the header has 50000 columns; the submission format has 7")


def test_checking_stops_after_a_thousand_problems() -> None:
    schema = {**SCHEMA, "max_rows": None}
    bad_rows = "x,P00001,4,2.5,true,2025-03-01T14:30,A\n" * 5_000
    assert _total_of(HEADER + bad_rows, schema) == STOP_AFTER


def _lines_until(lines: list[str], allowed: int) -> Iterator[str]:
    """The lines of a file, failing the test if more than ``allowed`` of them are read."""
    for number, line in enumerate(lines, start=1):
        if number > allowed:
            raise AssertionError(f"line {number} was read; reading should have stopped")
        yield line


def test_reading_stops_at_max_rows_plus_one_on_a_stream() -> None:
    rows = [GOOD_ROW.replace("1,", f"{n},", 1) for n in range(1, 100_001)]
    errors = ErrorLog()
    # Header + max_rows + 1 rows = 5 lines may be read; line 6 raises.
    parse_csv_text(_lines_until([HEADER, *rows], SCHEMA["max_rows"] + 2), SCHEMA, errors)
    assert errors.messages == ["the file has more than 3 data rows; at most 3 are allowed"]


def test_reading_stops_once_the_error_cap_is_reached_on_a_stream() -> None:
    schema = {**SCHEMA, "max_rows": None}
    bad = ["x,P00001,4,2.5,true,2025-03-01T14:30,A\n"] * 50_000
    errors = ErrorLog()
    # The header, the 1000 bad rows that fill the log, and the one read before stopping.
    parse_csv_text(_lines_until([HEADER, *bad], STOP_AFTER + 2), schema, errors)
    assert errors.total == STOP_AFTER and errors.full


def test_repeats_of_a_unique_key_stop_at_the_error_cap() -> None:
    schema = {**SCHEMA, "max_rows": None}
    assert _total_of(HEADER + GOOD_ROW * 5_000, schema) == STOP_AFTER


# --- authoring options: extra columns, header case, values from a data file (issue 11) -----


def test_extra_columns_may_be_ignored_and_headers_matched_in_any_case() -> None:
    schema = {**SCHEMA, "extra_columns": "ignore", "header_case": "insensitive"}
    text = "STEP,Pallet_ID,to_stack,charge_kw,urgent,at,zone,comment\n" + GOOD_ROW.replace(
        "A\n", "A,moved by night shift\n"
    )
    (row,) = parse_submission(schema, text.encode()).rows
    assert row["pallet_id"] == "P00001" and "comment" not in row
    assert errors_of(text)[0].startswith("line 1: unexpected column `STEP`")  # exact by default


def test_values_from_a_data_file_are_checked(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "items.csv").write_text("item_id,weight\nI01,2\nI02,3\n")
    path = tmp_path / "submission_schema.json"
    path.write_text(json.dumps({
        "format": "csv",
        "columns": [{"name": "item_id", "type": "string", "values_from": "items.csv:item_id"}],
    }))  # fmt: skip
    schema = load_schema(path)
    assert [r["item_id"] for r in parse_submission(schema, b"item_id\nI02\n").rows] == ["I02"]
    assert errors_of("item_id\nI09\n", schema) == [
        "line 2, column `item_id`: 'I09' is not a `item_id` of data/items.csv"
    ]
    path.write_text(path.read_text().replace("items.csv:item_id", "items.csv:sku"))
    with pytest.raises(SchemaDefinitionError, match=r"data/items\.csv has no column `sku`"):
        load_schema(path)
