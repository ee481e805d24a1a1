"""Does anything served to players carry a copy of anything under ``hidden/``?

An author who drops the reference deliverable, the business information or the test labels
into ``data/``, pastes them into ``instruction.md`` or into the schema's descriptions, publishes
the answers. Served here means every file of ``data/``, ``instruction.md``,
``submission_schema.json`` and the public fields of case.toml (``extra_texts``). Four checks,
cheap enough for every import:

* a served file byte-identical to a hidden file (any size from ``MIN_FILE_BYTES``);
* a served text that repeats ``MIN_SHARED_LINES`` or more substantive lines of one hidden
  text file (lines of at least ``MIN_LINE_CHARS`` visible characters, so a shared CSV header
  or a blank line is no finding), which catches prose pasted inside a larger file;
* a served text that repeats a large share of a hidden table's normalised rows, whatever the
  line endings, order, header or size (``leak_rows``);
* a served text that repeats several sentences of ``hidden/information.md`` (``leak_rows``).

Python files are compared by digest only: a generator script rightly contains the data it
writes. The baseline anchor and shortcut anchors are exempt: a baseline is often the customer's
current plan, which players are meant to see.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from evaluators import leak_rows

MIN_FILE_BYTES = 64
MIN_LINE_CHARS = 32
MIN_SHARED_LINES = 3
#: Larger text files are compared by digest only.
MAX_TEXT_BYTES = 20_000_000
SERVED_FILES = ("instruction.md", "submission_schema.json")


@dataclass
class _Served:
    name: str
    path: Path
    text: str | None

    @property
    def why(self) -> str:
        if self.name.startswith("data/"):
            return "data/ is served to players"
        if self.name == "case.toml":
            return "its title, summary and provenance are shown on the case page"
        return f"{self.name} is served to players"


def _files(folder: Path) -> list[Path]:
    """Regular files; symbolic links are refused by the format check on their own."""
    if not folder.is_dir():
        return []
    return sorted(path for path in folder.rglob("*") if path.is_file() and not path.is_symlink())


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _text(path: Path) -> str | None:
    if path.stat().st_size > MAX_TEXT_BYTES:
        return None
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        return None


def _lines(text: str | None) -> set[str]:
    return {
        line.strip()
        for line in (text or "").splitlines()
        if len("".join(line.split())) >= MIN_LINE_CHARS
    }


def _served(root: Path, extra_texts: dict[str, str]) -> list[_Served]:
    paths = _files(root / "data") + [
        root / name for name in SERVED_FILES if (root / name).is_file()
    ]
    served = [_Served(p.relative_to(root).as_posix(), p, _text(p)) for p in paths]
    served += [_Served(name, root / "case.toml", text) for name, text in extra_texts.items()]
    return served


def hidden_copies_served(
    root: Path, exempt: set[Path] | None = None, extra_texts: dict[str, str] | None = None
) -> list[str]:
    """One problem per served file (or public text) that copies a hidden file, naming both."""
    exempt = {path.resolve() for path in (exempt or set())}
    hidden = [
        path
        for path in _files(root / "hidden")
        if path.resolve() not in exempt and "probes" not in path.relative_to(root).parts
    ]
    # Files are hashed only when a hidden file has the same size: a large data file is then
    # never read just to learn it is no copy.
    sizes = {p.stat().st_size for p in hidden}
    by_digest = {_digest(p): p for p in hidden if p.stat().st_size >= MIN_FILE_BYTES}
    texts = {path: _text(path) for path in hidden if path.suffix != ".py"}
    hidden_lines = {path: _lines(text) for path, text in texts.items()}
    tables = {
        path: leak_rows.hidden_rows(path, text) - _public_rows(exempt)
        for path, text in texts.items()
        if text is not None and path.suffix in leak_rows.ROW_SUFFIXES
    }
    information = root / "hidden" / "information.md"
    prose = leak_rows.sentences(texts.get(information) or "")
    problems: list[str] = []
    for served in _served(root, extra_texts or {}):
        file_backed = served.path.name != "case.toml"
        size = served.path.stat().st_size if file_backed else 0
        same_size = size >= MIN_FILE_BYTES and size in sizes
        twin = by_digest.get(_digest(served.path)) if same_size else None
        if twin is not None:
            problems.append(
                f"{served.name}: a copy of {twin.relative_to(root).as_posix()}; "
                f"{served.why}, so hidden files must not be in it"
            )
            continue
        if served.text is None:
            continue
        finding = (
            _line_copy(root, served, hidden_lines)
            or _row_copy(root, served, tables)
            or _prose_copy(root, served, information, prose)
        )
        if finding:
            problems.append(finding)
    return problems


def _line_copy(root: Path, served: _Served, hidden_lines: dict[Path, set[str]]) -> str | None:
    served_lines = _lines(served.text)
    for source, lines in hidden_lines.items():
        shared = lines & served_lines
        if served_lines and len(shared) >= MIN_SHARED_LINES:
            example = min(shared, key=len)[:60]
            return (
                f"{served.name}: repeats {len(shared)} lines of "
                f"{source.relative_to(root).as_posix()} (for example {example!r}); "
                f"{served.why}, so hidden content must not be in it"
            )
    return None


def _public_rows(exempt: set[Path]) -> set[str]:
    """Rows of the exempt anchors, public by that exemption (the customer's current plan):
    another hidden file sharing them (the literal anchor, a counterfactual) proves no copy."""
    rows: set[str] = set()
    for path in exempt:
        if path.is_file() and path.suffix in leak_rows.ROW_SUFFIXES:
            rows |= leak_rows.hidden_rows(path, path.read_text(encoding="utf-8", errors="replace"))
    return rows


def _row_copy(root: Path, served: _Served, tables: dict[Path, set[str]]) -> str | None:
    rows = leak_rows.served_rows(served.path, served.text or "")
    copies = [
        (len(shared) / len(hidden), len(shared), source.relative_to(root).as_posix(), hidden)
        for source, hidden in tables.items()
        if hidden and len(shared := hidden & rows) >= leak_rows.rows_needed(len(hidden))
    ]
    if not copies:
        return None
    # Counterfactuals share most rows with the reference: name the closest copy, and of equal
    # ones the file nearest hidden/'s top (the reference before its counterfactuals).
    _, count, source, hidden = max(copies, key=lambda c: (c[0], c[1], -c[2].count("/")))
    example = min(hidden & rows)[:60]
    return (
        f"{served.name}: repeats {count} of the {len(hidden)} rows of {source} (for example "
        f"{example!r}, compared without case, spacing, order or header); {served.why}, so "
        "hidden content must not be in it"
    )


def _prose_copy(root: Path, served: _Served, source: Path, prose: set[str]) -> str | None:
    shared = leak_rows.shared_sentences(prose, served.text or "")
    if len(shared) < leak_rows.MIN_SENTENCES:
        return None
    return (
        f"{served.name}: repeats {len(shared)} sentences of "
        f"{source.relative_to(root).as_posix()} (for example {shared[0][:60]!r}); "
        f"{served.why}, so the business information must not be in it"
    )
