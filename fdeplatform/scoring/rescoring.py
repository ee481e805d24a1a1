"""Re-scoring earlier submissions with a newer case version's evaluator (admin tool).

Results go to ``Rescore`` rows; the submissions' own results, and so every run's score and the
leaderboards, stay as they were.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from evaluators.runtime import score_file
from fdeplatform.cases.models import CaseVersion
from fdeplatform.core.background import enqueue
from fdeplatform.runs.models import Submission, SubmissionStatus
from fdeplatform.scoring.models import Rescore


@transaction.atomic
def rescore_queue(*, version: CaseVersion, user: User | None = None) -> int:
    """Queue every scored submission of the case's other versions for ``version``'s evaluator."""
    from fdeplatform.scoring.tasks import rescore_submission

    submissions = Submission.objects.filter(
        run__case_version__case_id=version.case_id, status=SubmissionStatus.SCORED
    ).exclude(run__case_version=version)
    count = 0
    for submission in submissions.only("pk"):
        rescore, created = Rescore.objects.get_or_create(
            submission=submission, case_version=version, defaults={"requested_by": user}
        )
        if created or rescore.scored_at is None:
            enqueue(rescore_submission, rescore.pk, queue=settings.SCORING_QUEUE)
            count += 1
    return count


def rescore_run(rescore_id: int) -> None:
    rescore = Rescore.objects.select_related("submission", "case_version").get(pk=rescore_id)
    if rescore.scored_at is not None:
        return
    result = score_file(
        # The same variant of the other version: a rescore compares evaluators, not tasks.
        rescore.case_version.variant_dir(rescore.submission.run.variant),
        Path(rescore.submission.file.path),
        timeout_s=settings.EVALUATOR_TIMEOUT_S,
        memory_mb=settings.EVALUATOR_MEMORY_MB,
    )
    Rescore.objects.filter(pk=rescore_id, scored_at__isnull=True).update(
        result=result.to_dict(), score=result.score, valid=result.valid, scored_at=timezone.now()
    )
