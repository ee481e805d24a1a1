"""The answer audit (FDE-Bench §4.3, A.8): reviewers label a sample of real customer answers.

The sample is drawn from exchanges of ended runs on one case version, stratified by who
answered (each stakeholder's answers are sampled in proportion, at least one each) and seeded,
so two reviewers given the same seed label the same answers and their labels can be compared.
Labels are kept per reviewer; the summary counts verdicts over the version's labelled answers.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from dataclasses import dataclass

from django.contrib.auth.models import User

from fdeplatform.authoring.models import AnswerLabel
from fdeplatform.cases.models import CaseVersion
from fdeplatform.runs.models import Exchange, RunStatus

ENDED = (RunStatus.CLOSED, RunStatus.EXPIRED)
DEFAULT_SAMPLE = 30


def audit_sample(
    version: CaseVersion, *, size: int = DEFAULT_SAMPLE, seed: int = 1
) -> list[Exchange]:
    """A seeded sample of ``size`` recorded answers, stratified by answering stakeholder."""
    exchanges = list(
        Exchange.objects.filter(run__case_version=version, run__status__in=ENDED)
        .select_related("run")
        .order_by("pk")
    )
    by_speaker: dict[str, list[Exchange]] = defaultdict(list)
    for exchange in exchanges:
        by_speaker[exchange.stakeholder_id or "-"].append(exchange)
    rng = random.Random(f"answer-audit|{version.pk}|{seed}")
    chosen: list[Exchange] = []
    total = len(exchanges)
    for speaker in sorted(by_speaker):
        group = by_speaker[speaker]
        share = max(1, round(size * len(group) / total)) if total else 0
        chosen += rng.sample(group, min(share, len(group)))
    chosen.sort(key=lambda e: e.pk)
    return chosen[:size]


def label_answer(
    *, exchange: Exchange, reviewer: User, verdict: str, note: str = ""
) -> AnswerLabel:
    """Keep ``reviewer``'s verdict on ``exchange`` (a second verdict replaces their first)."""
    if verdict not in AnswerLabel.Verdict.values:
        raise ValueError(f"verdict must be one of {', '.join(AnswerLabel.Verdict.values)}")
    label, _ = AnswerLabel.objects.update_or_create(
        exchange=exchange,
        reviewer=reviewer,
        defaults={"verdict": verdict, "note": note[:500], "version": exchange.run.case_version},
    )
    return label


@dataclass(frozen=True)
class AuditSummary:
    labelled: int
    counts: dict[str, int]

    def share(self, verdict: str) -> float | None:
        return self.counts.get(verdict, 0) / self.labelled if self.labelled else None


def audit_summary(version: CaseVersion) -> AuditSummary:
    counts = Counter(AnswerLabel.objects.filter(version=version).values_list("verdict", flat=True))
    return AuditSummary(labelled=sum(counts.values()), counts=dict(counts))
