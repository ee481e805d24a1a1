"""Reading stored versions for staff: export as a zip, and the diff between two versions.

Nothing here writes to a stored version: versions are immutable, and the zip an export makes
re-imports to the same digest (``evaluators.package.package_digest`` hashes each file's path
relative to the package folder and its bytes; the zip holds exactly those files under one
top-level folder named after the slug).
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaluators.package import digest_files, package_digest
from fdeplatform.cases.models import CaseVersion


class ExportError(Exception):
    """The stored copy does not match its digest, so it cannot be handed out as that version."""


def version_export_zip(version: CaseVersion) -> bytes:
    """The version's package as a zip that re-imports to ``version.digest``."""
    root = version.package_dir
    if package_digest(root) != version.digest:
        raise ExportError(f"the stored copy of {version} no longer matches its digest")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for relative, file in sorted(_files(root).items()):
            archive.write(file, arcname=f"{version.case.slug}/{relative}")
    return buffer.getvalue()


def export_name(version: CaseVersion) -> str:
    return f"{version.case.slug}-{version.version or 'version'}-{version.digest[:8]}.zip"


# --- diff ----------------------------------------------------------------------------------


@dataclass
class Change:
    name: str
    detail: str = ""


@dataclass
class AnchorRow:
    label: str
    a: dict[str, Any] | None
    b: dict[str, Any] | None

    @property
    def changed(self) -> bool:
        return _outcome(self.a) != _outcome(self.b)


def _outcome(row: dict[str, Any] | None) -> tuple[str, ...] | None:
    if row is None:
        return None
    return tuple(str(row.get(key)) for key in ("valid", "score", "uplift", "broke"))


@dataclass
class VariantChange:
    """One variant id in either version: its title and reference value, and whether its
    admission row changed (anchors, counterfactuals, verdict)."""

    id: str
    a: dict[str, Any] | None
    b: dict[str, Any] | None

    @property
    def changed(self) -> bool:
        keys = ("title", "scoring", "anchors", "counterfactuals", "ok")
        pick = [None if r is None else [r.get(k) for k in keys] for r in (self.a, self.b)]
        return pick[0] != pick[1]


@dataclass
class VersionDiff:
    a: CaseVersion
    b: CaseVersion
    files_added: list[str] = field(default_factory=list)
    files_removed: list[str] = field(default_factory=list)
    files_changed: list[str] = field(default_factory=list)
    targets_added: list[str] = field(default_factory=list)
    targets_removed: list[str] = field(default_factory=list)
    targets_changed: list[Change] = field(default_factory=list)
    anchors: list[AnchorRow] = field(default_factory=list)
    variants: list[VariantChange] = field(default_factory=list)

    @property
    def identical(self) -> bool:
        return self.a.digest == self.b.digest


def version_diff(
    a: CaseVersion, b: CaseVersion, reports: tuple[dict[str, Any], dict[str, Any]]
) -> VersionDiff:
    """What changed from ``a`` to ``b``: files, targets (``hidden/gt.json``) and the anchors'
    scores in each one's latest validation report (``reports``)."""
    diff = VersionDiff(a=a, b=b)
    old, new = _hashes(a.package_dir), _hashes(b.package_dir)
    diff.files_added = sorted(new.keys() - old.keys())
    diff.files_removed = sorted(old.keys() - new.keys())
    diff.files_changed = sorted(k for k in old.keys() & new.keys() if old[k] != new[k])
    _diff_targets(diff, _targets(a.package_dir), _targets(b.package_dir))
    results = (reports[0].get("anchor_results") or {}, reports[1].get("anchor_results") or {})
    labels = list(results[0]) + [label for label in results[1] if label not in results[0]]
    diff.anchors = [AnchorRow(lbl, results[0].get(lbl), results[1].get(lbl)) for lbl in labels]
    diff.variants = _diff_variants(reports)
    return diff


def _diff_variants(reports: tuple[dict[str, Any], dict[str, Any]]) -> list[VariantChange]:
    """The variants of both reports side by side (none when neither has more than base)."""
    rows = [{str(r.get("id")): r for r in rep.get("variants") or []} for rep in reports]
    if max(len(rows[0]), len(rows[1])) < 2:
        return []
    ids = list(rows[0]) + [i for i in rows[1] if i not in rows[0]]
    return [VariantChange(i, rows[0].get(i), rows[1].get(i)) for i in ids]


def _diff_targets(
    diff: VersionDiff, old: dict[str, dict[str, Any]], new: dict[str, dict[str, Any]]
) -> None:
    diff.targets_added = sorted(new.keys() - old.keys())
    diff.targets_removed = sorted(old.keys() - new.keys())
    for key in sorted(old.keys() & new.keys()):
        fields = sorted(
            n for n in old[key].keys() | new[key].keys() if old[key].get(n) != new[key].get(n)
        )
        if fields:
            diff.targets_changed.append(Change(key, ", ".join(fields)))


def _files(root: Path) -> dict[str, Path]:
    return {file.relative_to(root).as_posix(): file for file in digest_files(root)}


def _hashes(root: Path) -> dict[str, str]:
    return {name: hashlib.sha256(f.read_bytes()).hexdigest() for name, f in _files(root).items()}


def _targets(root: Path) -> dict[str, dict[str, Any]]:
    try:
        document = json.loads((root / "hidden" / "gt.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    targets = document.get("targets", []) if isinstance(document, dict) else []
    return {str(t.get("key")): t for t in targets if isinstance(t, dict) and t.get("key")}
