"""Taking a package in: save the upload, then check and store it off the request path.

The check is the cheap part (format and digest, ``cases.services.case_import`` without
anchors): a well-formed package becomes a *draft* version at once and its validation (the
admission anchors, seconds to minutes) follows in the same background job. Uploading a
package whose digest is already on the site is a no-op that points at that version.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.utils import timezone
from django.utils.text import get_valid_filename

from evaluators.archive import PackageError
from fdeplatform.authoring.audit import event_record
from fdeplatform.authoring.models import AuthoringEvent, PackageUpload
from fdeplatform.authoring.validation import validation_create, validation_run
from fdeplatform.cases.services import CaseRejected, case_import
from fdeplatform.core.background import enqueue

Status = PackageUpload.Status


class UploadError(Exception):
    """The upload itself is unusable (not a zip, no such folder); nothing was queued."""


@transaction.atomic
def upload_save(*, file: UploadedFile, user: User) -> PackageUpload:
    """Keep the zip and queue its check.

    The zip keeps its own name: a zip with the package files at its root is read as a folder
    named after it, and that name must be the slug.
    """
    name = get_valid_filename(Path(file.name or "package.zip").name)
    if not name.lower().endswith(".zip"):
        raise UploadError(f"{name}: upload a .zip of the package folder")
    upload = PackageUpload.objects.create(source_name=name, path="", uploaded_by=user)
    target = Path(settings.AUTHORING_UPLOADS) / str(upload.pk) / name
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("wb") as sink:
        for chunk in file.chunks():
            sink.write(chunk)
    upload.path = str(target)
    upload.save(update_fields=["path"])
    _queue(upload)
    return upload


@transaction.atomic
def upload_from_folder(*, path: str, user: User) -> PackageUpload:
    """Queue the check of a package folder (or zip) already on the server (superusers only:
    the caller checks). The path is read by the background worker, so it must exist there."""
    source = Path(path).expanduser()
    if not source.is_absolute() or not source.exists():
        raise UploadError(f"{path}: give an absolute path to a package folder or zip")
    upload = PackageUpload.objects.create(
        source_name=str(source), path=str(source), is_folder=True, uploaded_by=user
    )
    _queue(upload)
    return upload


def _queue(upload: PackageUpload) -> None:
    from fdeplatform.authoring.tasks import check_upload

    enqueue(check_upload, upload.pk)


def upload_check(upload_id: int) -> None:
    """The background job: format check, store a draft, then validate it (idempotent: a
    second delivery finds the upload claimed and returns)."""
    if not PackageUpload.objects.filter(pk=upload_id, status=Status.QUEUED).update(
        status=Status.CHECKING
    ):
        return
    upload = PackageUpload.objects.select_related("uploaded_by").get(pk=upload_id)
    try:
        outcome = case_import(
            source=Path(upload.path), user=upload.uploaded_by, check_anchors=False, publish=False
        )
    except (CaseRejected, PackageError) as exc:
        # PackageError: the archive itself was refused (not a zip, unsafe or oversized
        # members), raised before ``case_import`` reads the package: a reason, not a fault.
        _finish(upload, Status.REJECTED, problems=exc.problems)
        return
    except Exception as exc:  # an internal error must end as "failed", never stay "checking"
        _finish(upload, Status.FAILED, problems=[f"{type(exc).__name__}: {exc}"])
        raise
    finally:
        _discard(upload)
    version = outcome.version
    if not outcome.created:
        _finish(upload, Status.DUPLICATE, version=version, message=_same_digest(version))
        return
    event_record(version=version, actor=upload.uploaded_by, action=AuthoringEvent.Action.UPLOADED,
                 note=upload.source_name)  # fmt: skip
    validation = validation_create(version=version, user=upload.uploaded_by)
    _finish(upload, Status.DONE, version=version, message="; ".join(outcome.report["warnings"]))
    validation_run(validation.pk)


def _same_digest(version: object) -> str:
    return f"Nothing changed: this exact package (same digest) is already {version}."


def _finish(upload: PackageUpload, status: str, **fields: object) -> None:
    upload.status = status
    upload.finished_at = timezone.now()
    for name, value in fields.items():
        setattr(upload, name, value)
    upload.save()


def _discard(upload: PackageUpload) -> None:
    """The stored copy in CASE_STORE is canonical; the uploaded zip is not kept."""
    if not upload.is_folder and upload.path:
        shutil.rmtree(Path(upload.path).parent, ignore_errors=True)
