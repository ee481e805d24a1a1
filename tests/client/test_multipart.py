"""multipart/form-data encoding, checked by decoding with the email package."""

from __future__ import annotations

import pytest
from fde_client.multipart import FilePart, encode, guess_content_type

from tests.client.fake_server import parse_upload


def test_a_file_round_trips_through_an_independent_decoder() -> None:
    content = b"item_id\r\nI01\r\n\x00\xff binary-safe"
    body, content_type = encode({}, [FilePart("file", "deliverable.csv", content)])
    upload = parse_upload(content_type, body)
    assert (upload.filename, upload.content) == ("deliverable.csv", content)
    assert upload.content_type == "text/csv"


def test_the_boundary_is_declared_in_the_header_and_closes_the_body() -> None:
    body, content_type = encode({"note": "hi"}, [FilePart("file", "a.json", b"{}")])
    boundary = content_type.split("boundary=")[1]
    assert content_type.startswith("multipart/form-data; ")
    assert body.startswith(f"--{boundary}\r\n".encode())
    assert body.endswith(f"--{boundary}--\r\n".encode())
    assert body.count(f"--{boundary}\r\n".encode()) == 2  # one per part


def test_the_boundary_never_occurs_inside_the_content(monkeypatch: pytest.MonkeyPatch) -> None:
    import uuid

    hexes = iter(["a" * 32, "b" * 32])
    monkeypatch.setattr(uuid, "uuid4", lambda: type("U", (), {"hex": next(hexes)})())
    body, content_type = encode({}, [FilePart("file", "x.csv", b"--fde-" + b"a" * 32)])
    assert content_type.endswith("fde-" + "b" * 32)
    assert parse_upload(content_type, body).content == b"--fde-" + b"a" * 32


def test_quotes_and_line_breaks_in_a_filename_cannot_break_the_header() -> None:
    body, content_type = encode({}, [FilePart("file", 'my "final"\r\nX-Evil: 1.csv', b"x")])
    lines = body.split(b"\r\n\r\n")[0].split(b"\r\n")
    assert not any(line.startswith(b"X-Evil") for line in lines)
    assert b'filename="my %22final%22%0D%0AX-Evil: 1.csv"' in lines[1]
    assert parse_upload(content_type, body).content == b"x"


@pytest.mark.parametrize(
    ("name", "expected"),
    [("d.csv", "text/csv"), ("d.json", "application/json"), ("d.bin7", "application/octet-stream")],
)
def test_content_type_follows_the_file_extension(name: str, expected: str) -> None:
    assert guess_content_type(name) == expected
