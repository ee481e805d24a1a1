"""How much ``data/`` may hold: every file there is served to every player who opens the case.

A 300 MB file in ``data/`` was once admitted and served, so the size is capped: in total and
per file, at ``[limits] max_data_mb`` of case.toml, or the site's default from the
``CASE_DATA_MAX_MB`` environment variable (``DEFAULT_MAX_DATA_MB`` when unset). The check only
stats the files (never reads them), so an oversized package is refused in milliseconds.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

DEFAULT_MAX_DATA_MB = 50.0
ENV_VAR = "CASE_DATA_MAX_MB"
_MB = 1024 * 1024


def site_max_data_mb() -> float:
    """The site's default cap; an unreadable setting falls back to the default rather than
    lifting the cap."""
    raw = os.environ.get(ENV_VAR, "").strip()
    try:
        value = float(raw) if raw else DEFAULT_MAX_DATA_MB
    except ValueError:
        return DEFAULT_MAX_DATA_MB
    return value if value > 0 else DEFAULT_MAX_DATA_MB


def max_data_mb(metadata: dict[str, Any] | None) -> float:
    """The case's own cap when case.toml sets one (checked by the case.toml checks), else the
    site's."""
    limits = (metadata or {}).get("limits")
    value = limits.get("max_data_mb") if isinstance(limits, dict) else None
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        return float(value)
    return site_max_data_mb()


def data_size_findings(root: Path, metadata: dict[str, Any] | None) -> tuple[list[str], list[str]]:
    """``(problems, warnings)``: each file over the cap, and the total over the cap, named with
    their sizes; a warning when a case raises its cap above the site's default."""
    cap = max_data_mb(metadata)
    sizes = _sizes(root / "data")
    problems = [
        f"{name}: {_mb(size)} is more than the {cap:g} MB a data/ file may hold (every data/ "
        f"file is served to every player; set [limits] max_data_mb or ship a smaller sample)"
        for name, size in sizes.items()
        if size > cap * _MB
    ]
    total = sum(sizes.values())
    if total > cap * _MB:
        largest = sorted(sizes.items(), key=lambda item: -item[1])[:3]
        listed = ", ".join(f"{name} {_mb(size)}" for name, size in largest)
        problems.append(
            f"data/: {_mb(total)} in {len(sizes)} files is more than the {cap:g} MB data/ may "
            f"hold in total (largest: {listed})"
        )
    warnings = []
    if cap > site_max_data_mb():
        warnings.append(
            f"case.toml: [limits] max_data_mb {cap:g} raises the site's data/ cap of "
            f"{site_max_data_mb():g} MB; every player downloads data/"
        )
    return problems, warnings


def _sizes(folder: Path) -> dict[str, int]:
    """Sizes of the regular files under ``folder`` (links are refused elsewhere)."""
    if not folder.is_dir():
        return {}
    return {
        path.relative_to(folder.parent).as_posix(): path.stat().st_size
        for path in sorted(folder.rglob("*"))
        if path.is_file() and not path.is_symlink()
    }


def _mb(size: int) -> str:
    return f"{size / _MB:.1f} MB"
