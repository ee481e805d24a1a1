"""Receiving deliverables: store first, check the form, then queue or hold for scoring.

The file is stored (with size and sha256) before anything else looks at it, so a crash later
never loses an upload. Only the format check runs in the request: it is a bounded parse of at
most the case's upload limit. The evaluator always runs in the background.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction

from evaluators.schema import format_check
from fdeplatform.core import ratelimit
from fdeplatform.core.ratelimit import rate_setting
from fdeplatform.runs.errors import RunError, rate_limited
from fdeplatform.runs.events import push
from fdeplatform.runs.models import Mode, Run, Submission, SubmissionStatus
from fdeplatform.runs.presenters import submission_view
from fdeplatform.runs.services import Player, RunId, ensure_open, expire_if_due, lock_own_run
from fdeplatform.scoring.services import submission_queue

DEFAULT_MAX_UPLOAD_MB = 5


def upload_limit_bytes(run: Run) -> int:
    return int(
        float(run.case_version.limits.get("max_upload_mb", DEFAULT_MAX_UPLOAD_MB)) * 1_048_576
    )


def _sha256(upload: UploadedFile) -> str:
    digest = hashlib.sha256()
    for chunk in upload.chunks():
        digest.update(chunk)
    upload.seek(0)
    return digest.hexdigest()


def submission_receive(*, run_id: RunId, player: Player, upload: UploadedFile | None) -> Submission:
    expire_if_due(run_id)
    wait = ratelimit.hit("uploads", str(player.pk), rate_setting("SUBMISSION_RATE"))
    if wait is not None:
        raise rate_limited("uploads", wait)
    return _receive(run_id=run_id, player=player, upload=upload)


@transaction.atomic
def _receive(*, run_id: RunId, player: Player, upload: UploadedFile | None) -> Submission:
    run = lock_own_run(run_id, player)
    ensure_open(run)
    if upload is None:
        raise RunError("no_file", "Attach the deliverable as the multipart field 'file'.")
    limit = upload_limit_bytes(run)
    if upload.size is None or upload.size > limit:
        raise RunError(
            "too_large",
            f"The file is larger than this case's limit of {limit // 1_048_576} MB.",
            413,
        )
    if upload.size == 0:
        raise RunError("empty_file", "The file is empty.")
    earlier = run.submissions.count()
    cap = settings.SUBMISSIONS_PER_RUN
    if cap and earlier >= cap:
        raise RunError(
            "too_many_uploads", f"A run takes at most {cap} uploads; this one has them all.", 429
        )
    submission = Submission.objects.create(
        run=run,
        number=earlier + 1,
        file=upload,
        original_name=(upload.name or "deliverable")[:255],
        size=upload.size,
        sha256=_sha256(upload),
        uploaded_by=run.player,
        status=SubmissionStatus.RECEIVED,
    )
    try:
        _check_form(submission, run)
    except BaseException:
        # The row rolls back with the transaction; the stored file would be left behind.
        submission.file.delete(save=False)
        raise
    return submission


def _check_form(submission: Submission, run: Run) -> None:
    schema = run.package_dir / "submission_schema.json"
    check = format_check(schema, Path(submission.file.path), max_bytes=upload_limit_bytes(run))
    submission.format_ok = check.ok
    submission.format_errors = (
        check.errors
        if check.total_errors <= len(check.errors)
        else [
            *check.errors,
            f"... and {check.total_errors - len(check.errors)} more problems.",
        ]
    )
    if not check.ok:
        submission.status = SubmissionStatus.REJECTED
    submission.save(update_fields=["format_ok", "format_errors", "status"])
    if check.ok and run.mode == Mode.PRACTICE:
        submission_queue(submission)  # announced by the queue, with its place in it
    else:
        # A rejected upload (and a held ranked one) gets its frame too: a websocket agent
        # that uploaded over REST must learn of the format errors without polling.
        transaction.on_commit(lambda: _announce(submission, run))


def _announce(submission: Submission, run: Run) -> None:
    view = submission_view(submission, run)
    view["queue_position"] = None
    push(run.pk, {"type": "submission", "submission": view})
