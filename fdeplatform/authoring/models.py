"""The staff authoring workflow's records: uploads, validations and who did what.

A ``CaseVersion`` (cases app) is the immutable package; these rows are what happened to it:
the upload it came from, every validation (admission) run on its exact digest, and an audit
trail of lifecycle steps (draft → in review → published → retired).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from fdeplatform.cases.models import Case, CaseVersion


class PackageUpload(models.Model):
    """A zip (or, for superusers, a server-side folder) waiting for or done with its check."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        CHECKING = "checking", "Checking"
        DONE = "done", "Imported as a draft"
        DUPLICATE = "duplicate", "Already on the site"
        REJECTED = "rejected", "Rejected (format)"
        FAILED = "failed", "Failed"

    FINISHED = (Status.DONE, Status.DUPLICATE, Status.REJECTED, Status.FAILED)

    source_name = models.CharField(max_length=300, help_text="file name or folder path given")
    path = models.CharField(max_length=1000, help_text="what the check reads")
    is_folder = models.BooleanField(default=False)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    problems = models.JSONField(default=list, blank=True)
    message = models.CharField(max_length=500, blank=True)
    version = models.ForeignKey(
        CaseVersion, null=True, blank=True, on_delete=models.SET_NULL, related_name="uploads"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"upload {self.pk} {self.source_name} ({self.status})"

    @property
    def finished(self) -> bool:
        return self.status in self.FINISHED


class Validation(models.Model):
    """One admission run on a version's stored copy; ``digest`` is what was actually scored."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        PASSED = "passed", "Passed"
        FAILED = "failed", "Failed"
        ERROR = "error", "Could not run"

    FINISHED = (Status.PASSED, Status.FAILED, Status.ERROR)

    version = models.ForeignKey(CaseVersion, on_delete=models.CASCADE, related_name="validations")
    digest = models.CharField(max_length=64)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    report = models.JSONField(default=dict, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"validation {self.pk} of {self.version_id} ({self.status})"

    @property
    def finished(self) -> bool:
        return self.status in self.FINISHED

    @property
    def passed(self) -> bool:
        return self.status == self.Status.PASSED


class AuthoringEvent(models.Model):
    """Audit trail: who did what to which version, when, and (for a publication on a
    single-admin install) the written justification."""

    class Action(models.TextChoices):
        UPLOADED = "uploaded", "uploaded"
        VALIDATED = "validated", "validated"
        SUBMITTED = "submitted", "submitted for review"
        WITHDRAWN = "withdrawn", "returned to draft"
        APPROVED = "approved", "approved"
        PUBLISHED = "published", "published"
        SUPERSEDED = "superseded", "retired (superseded)"
        RETIRED = "retired", "retired"
        REOPENED = "reopened", "reopened for review"
        EXPORTED = "exported", "exported"

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="authoring_events")
    version = models.ForeignKey(
        CaseVersion, null=True, on_delete=models.CASCADE, related_name="authoring_events"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=12, choices=Action.choices)
    digest = models.CharField(max_length=64, blank=True)
    note = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.actor} {self.action} {self.version}"


class AnswerLabel(models.Model):
    """A reviewer's verdict on one recorded customer answer (FDE-Bench §4.3's answer audit).

    The audit asks, of answers the customer really gave in runs, whether each is supported by
    the business information, unsupported (made up), or contradicts an earlier turn of the same
    run; the summary per case version is the customer's measured faithfulness.
    """

    class Verdict(models.TextChoices):
        SUPPORTED = "supported", "Supported by the business information"
        UNSUPPORTED = "unsupported", "Not supported (invented or beyond the information)"
        CONTRADICTS = "contradicts", "Contradicts an earlier turn of the run"

    exchange = models.ForeignKey(
        "runs.Exchange", on_delete=models.CASCADE, related_name="audit_labels"
    )
    version = models.ForeignKey(CaseVersion, on_delete=models.CASCADE, related_name="answer_labels")
    reviewer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True)
    verdict = models.CharField(max_length=12, choices=Verdict.choices)
    note = models.CharField(max_length=500, blank=True)
    labelled_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["exchange", "reviewer"], name="one_label_per_reviewer")
        ]

    def __str__(self) -> str:
        return f"{self.exchange_id}: {self.verdict}"
