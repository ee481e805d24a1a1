"""Extracting a case bundle without trusting its member names.

``zipfile.extractall`` sanitises names on its own terms (it silently rewrites ``../x`` and
absolute paths); a workspace should instead refuse a bundle that tries to escape, so that a
broken or hostile server is noticed rather than quietly tolerated.
"""

from __future__ import annotations

import shutil
import stat
import zipfile
import zlib
from pathlib import Path, PurePosixPath
from typing import IO

from fde_client.errors import FdeError

MAX_MEMBERS = 10_000
MAX_TOTAL_BYTES = 2 * 1024**3  # declared sizes; zipfile never inflates a member beyond its own


class UnsafeArchive(FdeError):
    """The bundle is not a zip, or a member would land outside the workspace."""


def member_problem(info: zipfile.ZipInfo) -> str | None:
    """Why this member must not be extracted, or None when it is safe."""
    name = info.filename
    if not name or "\x00" in name:
        return "empty or NUL-containing name"
    if "\\" in name:
        return "backslash in name"
    path = PurePosixPath(name)
    if path.is_absolute():
        return "absolute path"
    if ".." in path.parts:
        return "'..' in path"
    if ":" in path.parts[0]:
        return "drive letter or colon in first component"
    if stat.S_ISLNK(info.external_attr >> 16):
        return "symbolic link"
    return None


def check_archive(archive: zipfile.ZipFile) -> list[zipfile.ZipInfo]:
    """Return the members if every one is safe; otherwise raise naming the first bad one."""
    members = archive.infolist()
    if len(members) > MAX_MEMBERS:
        raise UnsafeArchive(f"bundle has {len(members)} members (limit {MAX_MEMBERS})")
    if sum(m.file_size for m in members) > MAX_TOTAL_BYTES:
        raise UnsafeArchive(f"bundle would unpack to more than {MAX_TOTAL_BYTES} bytes")
    for member in members:
        problem = member_problem(member)
        if problem:
            raise UnsafeArchive(f"refusing bundle member {member.filename!r}: {problem}")
    return members


def safe_extract(archive: zipfile.ZipFile, destination: Path) -> list[Path]:
    """Extract every member below ``destination``; nothing is written if any member is unsafe.

    Files get default permissions (data is never made executable). Returns the files written.
    """
    members = check_archive(archive)
    root = destination.resolve()
    written: list[Path] = []
    for member in members:
        target = (root / member.filename).resolve()
        if root != target and root not in target.parents:
            raise UnsafeArchive(f"refusing bundle member {member.filename!r}: leaves the folder")
        if member.is_dir():
            target.mkdir(parents=True, exist_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        _copy_member(archive, member, target)
        written.append(target)
    return written


def _copy_member(archive: zipfile.ZipFile, member: zipfile.ZipInfo, target: Path) -> None:
    try:
        with archive.open(member) as source, target.open("wb") as sink:
            shutil.copyfileobj(source, sink)
    except (zipfile.BadZipFile, zlib.error, EOFError) as exc:
        raise UnsafeArchive(f"bundle member {member.filename!r} is corrupt: {exc}") from None


def open_bundle(source: Path | IO[bytes]) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(source)
    except zipfile.BadZipFile:
        raise UnsafeArchive("the case bundle the server sent is not a zip file") from None
