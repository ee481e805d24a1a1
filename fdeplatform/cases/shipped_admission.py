"""Admission reports shipped with the bundled cases, so a fresh start verifies digests instead
of re-admitting every package.

Admitting a bundled case means running its evaluator on every anchor and counterfactual of
every variant in the sandbox, twice, plus the customer's probe sets: minutes per case, and a
newcomer's first ``script/server`` waited for all of it (issue 28). The result depends only on
the package's bytes, so the repository ships each bundled case's report in
``cases/admitted/<slug>.json`` beside the digest it was made for. ``load_bundled_cases`` uses a
shipped report only when that digest is the package's own (any edit to the package makes it
stale, and the case is admitted afresh); ``manage.py load_bundled_cases --refresh-shipped``
re-admits every bundled case and rewrites the files. The suite admits every bundled case for
real (``validate_cases``) and fails when a shipped report is stale, so a report can never stand
in for a package it was not made for.

The folder has no ``case.toml`` and no ``hidden/``, so nothing takes it for a package.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings

from evaluators.package import package_digest

FOLDER = "admitted"


def shipped_path(package: Path) -> Path:
    return Path(settings.CASES_DIR) / FOLDER / f"{package.name}.json"


def shipped_report(package: Path) -> dict[str, Any] | None:
    """The shipped admission report of ``package`` if it was made for exactly these bytes."""
    path = shipped_path(package)
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    report = record.get("report") if isinstance(record, dict) else None
    if not isinstance(report, dict) or not report.get("ok"):
        return None
    return report if record.get("digest") == package_digest(package) else None


def write_shipped(package: Path, report: dict[str, Any]) -> Path:
    """Record ``report`` as the shipped admission of ``package`` (its current digest)."""
    path = shipped_path(package)
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {"slug": package.name, "digest": package_digest(package), "report": report}
    path.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return path
