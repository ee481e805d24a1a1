"""Judging which clarification targets a closed run's questions covered.

The run's messages are split into question units, every target of the pinned case version is
judged against the numbered units, and the FDE-Bench metrics are computed from the judgments.
Re-running it replaces the run's coverage rows, so a retried task leaves one consistent answer.
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from fdeplatform.core.background import enqueue
from fdeplatform.runs.models import Run
from fdeplatform.scoring.models import RunCoverage, TargetCoverage
from judging import Judgment, Target, judge_all, make_judge, targets_from_gt, units_from_messages
from judging import Unit as JudgedUnit
from metrics.clarification import ClarificationMetrics, Unit, clarification_metrics
from metrics.clarification import TargetCoverage as Covered

log = logging.getLogger(__name__)


def coverage_queue(run: Run) -> None:
    from fdeplatform.scoring.tasks import judge_run

    RunCoverage.objects.update_or_create(run=run, defaults={"status": RunCoverage.PENDING})
    enqueue(judge_run, str(run.pk), queue=settings.JUDGING_QUEUE)


def requeue_stale_coverage(*, older_than: timedelta) -> int:
    """Send again the judging of closed runs whose coverage is still pending (the broker was
    down when the run closed, or a judging worker died)."""
    from fdeplatform.scoring.tasks import judge_run

    cutoff = timezone.now() - older_than
    pending = list(
        RunCoverage.objects.filter(
            status=RunCoverage.PENDING, run__closed_at__lt=cutoff
        ).values_list("run_id", flat=True)
    )
    for run_id in pending:
        with transaction.atomic():
            enqueue(judge_run, str(run_id), queue=settings.JUDGING_QUEUE)
    return len(pending)


def coverage_judge(run_id: str) -> RunCoverage:
    run = Run.objects.select_related("case_version").get(pk=run_id)
    gt = json.loads((run.package_dir / "hidden" / "gt.json").read_text(encoding="utf-8"))
    targets = targets_from_gt(gt)
    units = units_from_messages([(e.turn, e.question) for e in run.exchanges.order_by("turn")])
    judge = make_judge(settings.COVERAGE_JUDGE)
    judgments = judge_all(judge, targets, units)
    metrics = clarification_metrics(
        targets=[t.key for t in targets],
        units=[Unit(index=u.index, turn=u.turn, text=u.text) for u in units],
        coverage={
            j.target: Covered(covered=j.covered, matched_units=frozenset(j.matched_units))
            for j in judgments
        },
        judgments_failed=bool(judgments) and all(j.failed for j in judgments),
    )
    return _store(run, judge.name, targets, units, judgments, metrics)


def coverage_failed(run_id: str, error: Exception) -> None:
    """Record that judging this run failed, with the reason (shown to staff only)."""
    log.exception("coverage judging failed for run %s", run_id)
    RunCoverage.objects.filter(run_id=run_id).update(
        status=RunCoverage.FAILED,
        error=f"{type(error).__name__}: {error}"[:2000],
        computed_at=timezone.now(),
    )


@transaction.atomic
def _store(
    run: Run,
    judge_name: str,
    targets: list[Target],
    units: list[JudgedUnit],
    judgments: list[Judgment],
    metrics: ClarificationMetrics,
) -> RunCoverage:
    coverage, _ = RunCoverage.objects.select_for_update().get_or_create(run=run)
    coverage.items.all().delete()
    by_key = {t.key: t for t in targets}
    TargetCoverage.objects.bulk_create(
        TargetCoverage(
            coverage=coverage,
            target=j.target,
            domain=by_key[j.target].domain,
            issue_type=by_key[j.target].issue_type,
            covered=j.covered,
            matched_units=j.matched_units,
            first_turn=j.first_turn,
            votes=[asdict(v) for v in j.votes],
            failed=j.failed,
        )
        for j in judgments
    )
    coverage.status = RunCoverage.DONE
    coverage.judge = judge_name
    coverage.units = [asdict(u) for u in units]
    coverage.targets = len(targets)
    coverage.covered = sum(1 for j in judgments if j.covered)
    for name in ("recall", "precision", "ask_f1", "kqc1", "atc", "redundant"):
        setattr(coverage, name, getattr(metrics, name))
    coverage.computed_at = timezone.now()
    coverage.save()
    if run.mode == "ranked":
        from fdeplatform.leaderboards.warming import results_changed

        results_changed()
    return coverage
