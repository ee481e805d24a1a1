"""``multipart/form-data`` encoding for uploads, since urllib has none built in.

Deliverables are small (the platform caps them at a few MB), so the body is built in memory.
"""

from __future__ import annotations

import mimetypes
import uuid
from dataclasses import dataclass


@dataclass(frozen=True)
class FilePart:
    field: str
    filename: str
    content: bytes
    content_type: str = ""


def guess_content_type(filename: str) -> str:
    guessed, _ = mimetypes.guess_type(filename)
    return guessed or "application/octet-stream"


def _quote(value: str) -> str:
    """Escape a header parameter the way browsers do (HTML living standard, form submission).

    Quotes and line breaks would otherwise end the parameter or the header early.
    """
    return value.replace('"', "%22").replace("\r", "%0D").replace("\n", "%0A")


def _new_boundary(parts: list[bytes]) -> str:
    while True:
        boundary = f"fde-{uuid.uuid4().hex}"
        if not any(boundary.encode() in part for part in parts):
            return boundary


def encode(fields: dict[str, str], files: list[FilePart]) -> tuple[bytes, str]:
    """Return the body and the ``Content-Type`` header value (which carries the boundary)."""
    contents = [value.encode() for value in fields.values()] + [f.content for f in files]
    boundary = _new_boundary(contents)
    chunks: list[bytes] = []
    for name, value in fields.items():
        chunks.append(_part_head(boundary, f'form-data; name="{_quote(name)}"', None))
        chunks.append(value.encode() + b"\r\n")
    for part in files:
        disposition = f'form-data; name="{_quote(part.field)}"; filename="{_quote(part.filename)}"'
        content_type = part.content_type or guess_content_type(part.filename)
        chunks.append(_part_head(boundary, disposition, content_type))
        chunks.append(part.content + b"\r\n")
    chunks.append(f"--{boundary}--\r\n".encode())
    return b"".join(chunks), f"multipart/form-data; boundary={boundary}"


def _part_head(boundary: str, disposition: str, content_type: str | None) -> bytes:
    lines = [f"--{boundary}", f"Content-Disposition: {disposition}"]
    if content_type:
        lines.append(f"Content-Type: {content_type}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()
