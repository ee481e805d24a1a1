"""Validation of a version: the admission anchors (``evaluators.admission.admit``) run on the
stored copy, inside the evaluator sandbox, in the background.

A validation records the digest it actually scored (recomputed from the stored files), so a
publication can insist on a passing validation of *that exact* package.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from evaluators.admission import admit
from evaluators.package import PackageError, load_package, package_digest
from fdeplatform.authoring.audit import event_record
from fdeplatform.authoring.models import AuthoringEvent, Validation
from fdeplatform.cases.models import CaseVersion
from fdeplatform.core.background import enqueue

Status = Validation.Status


def validation_create(*, version: CaseVersion, user: User | None) -> Validation:
    """A queued validation row (the caller runs or enqueues it)."""
    return Validation.objects.create(version=version, digest=version.digest, requested_by=user)


@transaction.atomic
def validation_queue(*, version: CaseVersion, user: User) -> Validation:
    """Validate ``version`` again in the background (after an evaluator or sandbox change)."""
    from fdeplatform.authoring.tasks import validate_version

    validation = validation_create(version=version, user=user)
    enqueue(validate_version, validation.pk)
    return validation


def validation_run(validation_id: int) -> None:
    """Run one queued validation to its end (idempotent: a claimed one is left alone)."""
    claimed = Validation.objects.filter(pk=validation_id, status=Status.QUEUED).update(
        status=Status.RUNNING, started_at=timezone.now()
    )
    if not claimed:
        return
    validation = Validation.objects.select_related("version__case").get(pk=validation_id)
    try:
        status, report, digest = _admission(validation.version)
    except Exception as exc:  # the check itself broke: say so on the page, never hang "running"
        _finish(validation, Status.ERROR, _problem(f"{type(exc).__name__}: {exc}"), "")
        raise
    _finish(validation, status, report, digest)
    event_record(
        version=validation.version,
        actor=validation.requested_by,
        action=AuthoringEvent.Action.VALIDATED,
        note=f"{status}: {len(report.get('problems', []))} problem(s)",
    )


def _finish(validation: Validation, status: str, report: dict[str, Any], digest: str) -> None:
    validation.status = status
    validation.report = report
    validation.digest = digest or validation.digest
    validation.finished_at = timezone.now()
    validation.save(update_fields=["status", "report", "digest", "finished_at"])


def _admission(version: CaseVersion) -> tuple[str, dict[str, Any], str]:
    root = version.package_dir
    digest = package_digest(root)
    if digest != version.digest:
        return Status.ERROR, _problem(_changed_on_disk(version, digest)), digest
    try:
        package = load_package(root, expected_slug=version.case.slug)
    except PackageError as exc:
        return Status.FAILED, {"problems": exc.problems, "warnings": [], "ok": False}, digest
    report = admit(package).to_dict()
    return (Status.PASSED if report["ok"] else Status.FAILED), report, digest


def _changed_on_disk(version: CaseVersion, digest: str) -> str:
    return (
        f"the stored copy of {version} no longer matches its digest ({digest[:12]} on disk); "
        "versions are immutable, so re-upload the package as a new version"
    )


def _problem(text: str) -> dict[str, Any]:
    return {"problems": [text], "warnings": [], "ok": False}


def latest_validation(version: CaseVersion) -> Validation | None:
    return version.validations.order_by("-created_at", "-pk").first()


def passing_validation(version: CaseVersion) -> Validation | None:
    """The latest finished validation when it passed on this version's exact digest."""
    finished = version.validations.filter(status__in=Validation.FINISHED).first()
    if finished is None or not finished.passed or finished.digest != version.digest:
        return None
    return finished
