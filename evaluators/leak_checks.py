"""Does ``data/`` (served to every player) carry a copy of anything under ``hidden/``?

An author who drops the reference deliverable, the business information or the test labels
into ``data/`` by mistake publishes the answers. Two checks, cheap enough for every import:

* a data file byte-identical to a hidden file (any size from ``MIN_FILE_BYTES``);
* a data text file that repeats ``MIN_SHARED_LINES`` or more substantive lines of one hidden
  text file (lines of at least ``MIN_LINE_CHARS`` visible characters, so a shared CSV header
  or a blank line is no finding), which catches a reference pasted inside a larger file.
  Python files are compared by digest only: a generator script rightly contains the data it
  writes.

The baseline anchor and shortcut anchors are exempt: a baseline is often the customer's current
plan, which players are meant to see.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

MIN_FILE_BYTES = 64
MIN_LINE_CHARS = 32
MIN_SHARED_LINES = 3
#: Larger text files are compared by digest only.
MAX_TEXT_BYTES = 20_000_000


def _files(folder: Path) -> list[Path]:
    """Regular files; symbolic links are refused by the format check on their own."""
    if not folder.is_dir():
        return []
    return sorted(path for path in folder.rglob("*") if path.is_file() and not path.is_symlink())


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _lines(path: Path) -> set[str]:
    if path.stat().st_size > MAX_TEXT_BYTES:
        return set()
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        return set()
    return {
        line.strip() for line in text.splitlines() if len("".join(line.split())) >= MIN_LINE_CHARS
    }


def hidden_copies_in_data(root: Path, exempt: set[Path] | None = None) -> list[str]:
    """One problem per data file that copies a hidden file, naming both."""
    exempt = {path.resolve() for path in (exempt or set())}
    hidden = [
        path
        for path in _files(root / "hidden")
        if path.resolve() not in exempt and "probes" not in path.relative_to(root).parts
    ]
    data = _files(root / "data")
    problems: list[str] = []
    by_digest = {_digest(p): p for p in hidden if p.stat().st_size >= MIN_FILE_BYTES}
    hidden_lines = {path: _lines(path) for path in hidden if path.suffix != ".py"}
    for served in data:
        name = served.relative_to(root).as_posix()
        twin = by_digest.get(_digest(served)) if served.stat().st_size >= MIN_FILE_BYTES else None
        if twin is not None:
            problems.append(
                f"{name}: a copy of {twin.relative_to(root).as_posix()}; data/ is served "
                "to players, so hidden files must not be in it"
            )
            continue
        served_lines = _lines(served)
        if not served_lines:
            continue
        for source, lines in hidden_lines.items():
            shared = lines & served_lines
            if len(shared) >= MIN_SHARED_LINES:
                example = min(shared, key=len)[:60]
                problems.append(
                    f"{name}: repeats {len(shared)} lines of "
                    f"{source.relative_to(root).as_posix()} (for example {example!r}); data/ "
                    "is served to players, so hidden content must not be in it"
                )
                break
    return problems
