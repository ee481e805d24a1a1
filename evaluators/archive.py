"""Open a case package given as a folder or a zip, extracting zips defensively.

A zip comes from an admin's upload, so it is treated like any untrusted archive: no member
may land outside the extraction folder (absolute paths, ``..``, drive letters), links are
refused (a link in ``data/`` could serve ``hidden/`` or ``/etc``), and the uncompressed size
is capped while extracting, since the sizes a zip declares can lie.
"""

from __future__ import annotations

import re
import stat
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import IO

MAX_UNPACKED_BYTES = 200 * 1_048_576
MAX_MEMBERS = 5_000
_JUNK = ("__MACOSX/", ".DS_Store")
_DRIVE = re.compile(r"^[A-Za-z]:")


class PackageError(Exception):
    """A package breaks the contract; ``problems`` name the file and what is wrong."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


@contextmanager
def open_package(source: Path, *, max_bytes: int = MAX_UNPACKED_BYTES) -> Iterator[Path]:
    """Yield a folder holding the package; a zip is extracted to a temporary folder."""
    source = Path(source)
    if source.is_dir():
        yield source
        return
    if not source.is_file() or not zipfile.is_zipfile(source):
        raise PackageError([f"{source.name}: neither a package folder nor a zip archive"])
    with tempfile.TemporaryDirectory(prefix="fde-package-") as workdir:
        yield extract_package(source, Path(workdir), max_bytes=max_bytes)


def extract_package(archive: Path, workdir: Path, *, max_bytes: int = MAX_UNPACKED_BYTES) -> Path:
    """Extract ``archive`` under ``workdir`` and return the package folder inside it.

    A zip holding one top-level folder yields that folder (its name is the slug); a zip with
    the files at its root yields a folder named after the zip.
    """
    target = workdir / "unpacked"
    with zipfile.ZipFile(archive) as bundle:
        members = [info for info in bundle.infolist() if not _is_junk(info.filename)]
        problems = _member_problems(members)
        if problems:
            raise PackageError([f"{archive.name}: {problem}" for problem in problems])
        _extract(bundle, members, target, max_bytes, archive.name)
    entries = list(target.iterdir())
    if len(entries) == 1 and entries[0].is_dir():
        return entries[0]
    named = workdir / archive.stem
    target.rename(named)
    return named


def _is_junk(name: str) -> bool:
    return name.startswith(_JUNK[0]) or PurePosixPath(name).name == _JUNK[1]


def _member_problems(members: list[zipfile.ZipInfo]) -> list[str]:
    if len(members) > MAX_MEMBERS:
        return [f"holds {len(members)} entries; at most {MAX_MEMBERS} are allowed"]
    problems = []
    for info in members:
        name = info.filename
        path = PurePosixPath(name.replace("\\", "/"))
        if path.is_absolute() or _DRIVE.match(name) or ".." in path.parts:
            problems.append(f"entry {name!r} would be written outside the package")
        elif stat.S_ISLNK(info.external_attr >> 16):
            problems.append(f"entry {name!r} is a symbolic link; links are not allowed")
    return problems


def _extract(
    bundle: zipfile.ZipFile,
    members: list[zipfile.ZipInfo],
    target: Path,
    max_bytes: int,
    label: str,
) -> None:
    target.mkdir(parents=True)
    written = 0
    for info in members:
        destination = target / info.filename.replace("\\", "/")
        if info.is_dir():
            destination.mkdir(parents=True, exist_ok=True)
            continue
        destination.parent.mkdir(parents=True, exist_ok=True)
        with bundle.open(info) as source, destination.open("wb") as sink:
            written = _copy_capped(source, sink, written, max_bytes)
        if written > max_bytes:
            raise PackageError([f"{label}: unpacks to more than {max_bytes / 1_048_576:.1f} MB"])


def _copy_capped(source: IO[bytes], sink: IO[bytes], written: int, max_bytes: int) -> int:
    """Copy until done or past the cap; returns the running total so the caller can stop."""
    while written <= max_bytes and (chunk := source.read(1 << 16)):
        written += len(chunk)
        sink.write(chunk)
    return written
