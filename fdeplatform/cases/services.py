"""Importing case packages into the site.

A package is checked (format, and unless told otherwise the admission anchors), copied into
``CASE_STORE/<slug>/<digest>/`` and recorded as a new ``CaseVersion``. An unchanged package
(same digest) is not imported twice; a changed one becomes a new version. Imported with
``publish`` (the command line, bundled cases) it becomes the case's current version at once;
without, it is a draft for the staff authoring workflow (``fdeplatform.authoring``). Runs keep
the version they were played on.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction

from evaluators.admission import AdmissionReport, admit
from evaluators.package import CasePackage, PackageError, load_package, open_package, package_digest
from fdeplatform.cases.models import Case, CaseVersion


class CaseRejected(Exception):
    """The package failed its checks; ``problems`` says what, in words an author can act on."""

    def __init__(self, source: str, problems: list[str], report: dict[str, Any] | None = None):
        super().__init__(f"{source}: " + "; ".join(problems))
        self.source = source
        self.problems = problems
        self.report = report or {}


@dataclass
class ImportOutcome:
    version: CaseVersion
    created: bool
    report: dict[str, Any] = field(default_factory=dict)


def case_import(
    *,
    source: Path,
    user: User | None = None,
    check_anchors: bool = True,
    publish: bool = True,
    admission: dict[str, Any] | None = None,
) -> ImportOutcome:
    """Validate and import the package folder or zip at ``source``.

    ``admission`` is a report ``admission_report`` already made for this exact folder (the
    bundled loader admits several packages in parallel first); otherwise the admission runs
    here unless ``check_anchors`` is off (test fixtures only).
    """
    with open_package(source) as folder:
        try:
            package = load_package(folder)
        except PackageError as exc:
            raise CaseRejected(str(source), exc.problems) from exc
        digest = package_digest(folder)
        existing = CaseVersion.objects.filter(case__slug=package.slug, digest=digest).first()
        if existing is not None:
            return ImportOutcome(version=existing, created=False, report=existing.admission)
        if admission is None and check_anchors:
            admission = _admission(package, str(source))
        report = dict(admission or {})
        report.setdefault("warnings", [])
        report["warnings"] += _same_version_warning(package)
        stored = _store_copy(folder, package.slug, digest)
    version = _record(package, digest, stored, report, user=user, publish=publish)
    return ImportOutcome(version=version, created=True, report=report)


def admission_report(source: Path) -> dict[str, Any]:
    """The admission report of the package at ``source``, or CaseRejected saying why not.

    Touches no database, so several packages can be admitted at once in threads.
    """
    with open_package(source) as folder:
        try:
            package = load_package(folder)
        except PackageError as exc:
            raise CaseRejected(str(source), exc.problems) from exc
        return _admission(package, str(source))


def is_imported(source: Path) -> bool:
    """True when this exact package (by digest) is already a version on the site."""
    with open_package(source) as folder:
        return CaseVersion.objects.filter(digest=package_digest(folder)).exists()


def _admission(package: CasePackage, source: str) -> dict[str, Any]:
    report: AdmissionReport = admit(package)
    if not report.ok:
        raise CaseRejected(source, report.problems, report.to_dict())
    return dict(report.to_dict())


def _same_version_warning(package: CasePackage) -> list[str]:
    """Changed content under a version number already on the site: allowed, but said."""
    if not package.version:
        return []
    clash = CaseVersion.objects.filter(case__slug=package.slug, version=package.version).exists()
    if not clash:
        return []
    return [
        f"version {package.version} of {package.slug} is already on the site with other "
        "content; raise `version` in case.toml so players and boards can tell them apart"
    ]


def _store_copy(folder: Path, slug: str, digest: str) -> str:
    """Copy the package to ``CASE_STORE/<slug>/<digest[:16]>`` and return that relative path.

    An intact copy already there is kept (same digest, same bytes). Otherwise the copy is made
    beside it and renamed into place, so two imports of one package at once (a bundled load and
    an upload, or two test runs sharing ``var/``) never see a half-written folder.
    """
    relative = f"{slug}/{digest[:16]}"
    target = Path(settings.CASE_STORE) / relative
    if target.is_dir() and package_digest(target) == digest:
        return relative
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{digest[:16]}-", dir=target.parent))
    try:
        shutil.copytree(folder, staging / "package", symlinks=False)
        if target.exists():
            shutil.rmtree(target, ignore_errors=True)
        try:
            (staging / "package").rename(target)
        except OSError:
            if not (target.is_dir() and package_digest(target) == digest):
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return relative


@transaction.atomic
def _record(
    package: CasePackage,
    digest: str,
    stored: str,
    report: dict[str, Any],
    *,
    user: User | None,
    publish: bool,
) -> CaseVersion:
    meta = package.public_metadata()
    case, _ = Case.objects.get_or_create(slug=package.slug, defaults=_case_fields(meta))
    version = CaseVersion.objects.create(
        case=case,
        version=str(meta.get("version", "")),
        digest=digest,
        storage_dir=stored,
        public_metadata=meta,
        scoring=dict(package.metadata.get("scoring", {})),
        limits=dict(meta.get("limits", {})),
        target_count=len(package.targets),
        admission=report,
        imported_by=user,
    )
    if publish:
        make_current(version)
    return version


def _case_fields(meta: dict[str, Any]) -> dict[str, Any]:
    return {
        "title": meta.get("title", meta.get("slug", "")),
        "summary": meta.get("summary", ""),
        "family": meta.get("family", "CO"),
        "sector": meta.get("sector", ""),
        "subtype": meta.get("subtype", ""),
        "tutorial": meta.get("tutorial") is True,
    }


@transaction.atomic
def make_current(version: CaseVersion) -> list[CaseVersion]:
    """Publish ``version``: the case shows its title and serves it to new runs; a version that
    was published before is retired (its runs keep it). Returns the versions it retired.

    The checks a publication needs (validation, a second reviewer) are the authoring
    workflow's (``fdeplatform.authoring.lifecycle``); this only moves the pointers.
    """
    case = Case.objects.select_for_update().get(pk=version.case_id)
    superseded = list(
        case.versions.filter(state=CaseVersion.State.PUBLISHED).exclude(pk=version.pk)
    )
    for old in superseded:
        old.state = CaseVersion.State.RETIRED
        old.save(update_fields=["state"])
    version.state = CaseVersion.State.PUBLISHED
    version.save(update_fields=["state"])
    for name, value in _case_fields(version.public_metadata).items():
        setattr(case, name, value)
    case.current_version = version
    case.published = True
    case.save()
    version.case = case
    return superseded


def bundled_packages() -> list[Path]:
    """Case folders shipped with the site (any folder of CASES_DIR with a case.toml)."""
    root = Path(settings.CASES_DIR)
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if (p / "case.toml").is_file())
