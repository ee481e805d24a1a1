"""Clarification coverage of a closed run (FDE-Bench §4.2).

One ``RunCoverage`` per run with the run-level metrics (None where undefined, never imputed)
and one ``TargetCoverage`` per clarification target with the judges' votes.
"""

from __future__ import annotations

from django.db import models

from fdeplatform.runs.models import Run


class RunCoverage(models.Model):
    PENDING, DONE, FAILED = "pending", "done", "failed"
    STATUSES = [(PENDING, "Pending"), (DONE, "Done"), (FAILED, "Failed")]

    run = models.OneToOneField(Run, on_delete=models.CASCADE, related_name="coverage")
    status = models.CharField(max_length=10, choices=STATUSES, default=PENDING)
    judge = models.CharField(
        max_length=80, blank=True, help_text="which judge produced the numbers"
    )
    units = models.JSONField(default=list, help_text="[{index, turn, text}]")
    targets = models.PositiveIntegerField(default=0)
    covered = models.PositiveIntegerField(default=0)
    recall = models.FloatField(null=True, blank=True)
    precision = models.FloatField(null=True, blank=True)
    ask_f1 = models.FloatField(null=True, blank=True)
    kqc1 = models.FloatField(null=True, blank=True)
    atc = models.FloatField(null=True, blank=True)
    redundant = models.PositiveIntegerField(null=True, blank=True)
    error = models.TextField(blank=True)
    computed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"coverage of {self.run_id}"


class TargetCoverage(models.Model):
    coverage = models.ForeignKey(RunCoverage, on_delete=models.CASCADE, related_name="items")
    target = models.CharField(max_length=120)
    domain = models.CharField(max_length=40, blank=True)
    issue_type = models.CharField(max_length=20, blank=True)
    covered = models.BooleanField(default=False)
    matched_units = models.JSONField(default=list)
    first_turn = models.PositiveIntegerField(null=True, blank=True)
    votes = models.JSONField(default=list)
    failed = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["coverage", "target"], name="unique_coverage_target")
        ]

    def __str__(self) -> str:
        return f"{self.target}: {'covered' if self.covered else 'not covered'}"


class Rescore(models.Model):
    """A submission scored again with another case version's evaluator.

    Kept beside the original result, never instead of it: leaderboards keep using the score a
    run got from the version it was played on; re-scores let admins see what an evaluator fix
    would change.
    """

    submission = models.ForeignKey(
        "runs.Submission", on_delete=models.CASCADE, related_name="rescores"
    )
    case_version = models.ForeignKey(
        "cases.CaseVersion", on_delete=models.CASCADE, related_name="rescores"
    )
    result = models.JSONField(null=True, blank=True)
    score = models.FloatField(null=True, blank=True)
    valid = models.BooleanField(null=True, blank=True)
    requested_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    requested_at = models.DateTimeField(auto_now_add=True)
    scored_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["submission", "case_version"], name="unique_rescore")
        ]

    def __str__(self) -> str:
        return f"re-score of {self.submission_id} with {self.case_version_id}"
