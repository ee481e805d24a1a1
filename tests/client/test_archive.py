"""Safe extraction of case bundles: nothing may land outside the workspace."""

from __future__ import annotations

import io
import random
import stat
import zipfile
from pathlib import Path

import pytest
from fde_client.archive import UnsafeArchive, open_bundle, safe_extract


def zip_with(members: dict[str, bytes], symlink: str | None = None) -> zipfile.ZipFile:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, content in members.items():
            archive.writestr(name, content)
        if symlink:
            info = zipfile.ZipInfo(symlink)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, "/etc/passwd")
    buffer.seek(0)
    return zipfile.ZipFile(buffer)


def test_it_extracts_the_bundle_layout(tmp_path: Path) -> None:
    archive = zip_with({"instruction.md": b"# Hi", "data/": b"", "data/a/b.csv": b"x,y\n"})
    written = safe_extract(archive, tmp_path)
    assert (tmp_path / "instruction.md").read_bytes() == b"# Hi"
    assert (tmp_path / "data" / "a" / "b.csv").read_text() == "x,y\n"
    assert sorted(p.name for p in written) == ["b.csv", "instruction.md"]


def test_extracted_files_are_never_executable(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        info = zipfile.ZipInfo("data/run.sh")
        info.external_attr = (stat.S_IFREG | 0o755) << 16
        archive.writestr(info, "#!/bin/sh\n")
    safe_extract(zipfile.ZipFile(buffer), tmp_path)
    assert not (tmp_path / "data" / "run.sh").stat().st_mode & 0o111


@pytest.mark.parametrize(
    "name",
    [
        "../escape.txt",
        "data/../../escape.txt",
        "/etc/evil",
        "..",
        "C:/windows/evil",
        "data\\..\\..\\evil",
    ],
)
def test_it_refuses_members_that_would_escape(tmp_path: Path, name: str) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    archive = zip_with({"instruction.md": b"ok", name: b"pwned"})
    with pytest.raises(UnsafeArchive, match="refusing bundle member"):
        safe_extract(archive, workspace)
    assert list(workspace.iterdir()) == [], "nothing is written when any member is unsafe"
    assert not (tmp_path / "escape.txt").exists()


def test_it_refuses_symbolic_links(tmp_path: Path) -> None:
    archive = zip_with({"instruction.md": b"ok"}, symlink="data/link")
    with pytest.raises(UnsafeArchive, match="symbolic link"):
        safe_extract(archive, tmp_path)
    assert not (tmp_path / "data").exists()


def test_a_file_that_is_not_a_zip_is_reported_as_such() -> None:
    with pytest.raises(UnsafeArchive, match="not a zip"):
        open_bundle(io.BytesIO(b"<html>Server Error</html>"))


def test_a_corrupt_member_is_reported_not_raised_as_a_traceback(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("data/big.csv", random.Random(0).randbytes(5000))  # incompressible
    raw = bytearray(buffer.getvalue())
    start = raw.index(b"data/big.csv") + len("data/big.csv")  # first local header's name
    raw[start + 100 : start + 400] = b"\x00" * 300  # damage the compressed stream
    with pytest.raises(UnsafeArchive, match="corrupt"):
        safe_extract(zipfile.ZipFile(io.BytesIO(bytes(raw))), tmp_path)
