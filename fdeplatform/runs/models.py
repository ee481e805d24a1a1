"""Runs, the exchanges with the customer, and submitted deliverables.

A run is pinned to the case version it was started on. Every exchange and every upload is kept;
the result of scoring lives on the submission, and what a player may see of it depends on the
run's mode (``ranked``: nothing but the format check until the run closes).
"""

from __future__ import annotations

import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from fdeplatform.cases.models import CaseVersion


class Condition(models.TextChoices):
    INTERACT_REQ = "interact_req", "Interact-Req (ask first)"
    INTERACT = "interact", "Interact"
    HIDDEN = "hidden", "Hidden (no customer)"
    FULL = "full", "Full information (no customer)"
    # FDE-Bench Fig. 5: no customer, a seeded nested share of the registered answers up front.
    ORACLE_0 = "oracle_0", "Oracle answers 0% (no customer)"
    ORACLE_25 = "oracle_25", "Oracle answers 25% (no customer)"
    ORACLE_50 = "oracle_50", "Oracle answers 50% (no customer)"
    ORACLE_75 = "oracle_75", "Oracle answers 75% (no customer)"
    ORACLE_100 = "oracle_100", "Oracle answers 100% (no customer)"
    # FDE-Gym instruction levels (cases.levels): the customer stays, a brief is given up front.
    GYM_L0 = "gym_l0", "FDE-Gym L0 (rules, constraints and scoring given)"
    GYM_L1 = "gym_l1", "FDE-Gym L1 (scoring criteria given)"
    GYM_L2 = "gym_l2", "FDE-Gym L2 (the underlying problem given)"


class Mode(models.TextChoices):
    RANKED = "ranked", "Ranked"
    PRACTICE = "practice", "Practice"


class Standing(models.TextChoices):
    """Whether a run counts on the main board (see ``runs.standing``)."""

    PRACTICE = "practice", "Practice (never on a board)"
    COUNTED = "counted", "Counted (one of the first k ranked runs)"
    EXTRA = "extra", "Extra (after the first k ranked runs)"
    INFORMED = "informed", "Informed (the player had seen the case's hidden side)"


class RunStatus(models.TextChoices):
    OPEN = "open", "Open"
    SCORING = "scoring", "Scoring"
    CLOSED = "closed", "Closed"
    EXPIRED = "expired", "Expired"


CUSTOMER_CONDITIONS = {
    Condition.INTERACT_REQ,
    Condition.INTERACT,
    Condition.GYM_L0,
    Condition.GYM_L1,
    Condition.GYM_L2,
}


class Run(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="runs"
    )
    case_version = models.ForeignKey(CaseVersion, on_delete=models.PROTECT, related_name="runs")
    condition = models.CharField(
        max_length=20, choices=Condition.choices, default=Condition.INTERACT_REQ
    )
    mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.PRACTICE)
    label = models.CharField(
        max_length=200, blank=True, help_text="agent scaffold / model, free text"
    )
    is_agent = models.BooleanField(default=False, help_text="started through the API with a token")
    # A human player's choice to make this ranked run's page public (agent runs are public
    # once they end: ``leaderboards.privacy.is_public``).
    published = models.BooleanField(default=False, help_text="the player published this run")
    status = models.CharField(max_length=10, choices=RunStatus.choices, default=RunStatus.OPEN)
    customer_backend = models.CharField(max_length=20, default="scripted")
    # What the run was measured with and how it stands, fixed when it starts (runs.standing).
    setup = models.CharField(
        max_length=200, blank=True, help_text="customer and judge when not the defaults"
    )
    judge = models.CharField(max_length=80, default="offline")
    board_label = models.CharField(
        max_length=240, blank=True, help_text="the agent label as boards show it"
    )
    standing = models.CharField(max_length=10, choices=Standing.choices, default=Standing.PRACTICE)
    rounds_limit = models.PositiveIntegerField(default=30)
    rounds_used = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField(default=timezone.now)
    deadline = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)
    ended_by = models.CharField(max_length=10, blank=True, help_text="player or deadline")
    # The delivery score of the run: that of its final submission (0 and invalid when none).
    final_submission = models.ForeignKey(
        "Submission", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    score = models.FloatField(null=True, blank=True, help_text="FDE-Bench Quality scale")
    valid = models.BooleanField(null=True, blank=True)
    uplift = models.FloatField(
        null=True, blank=True, help_text="FDE-Gym normalised uplift of a valid deliverable"
    )
    # FDE-Gym (§2.3): contact cost of the run's messages, incidents, score and resolution.
    contact_cost = models.FloatField(default=0.0)
    incident = models.BooleanField(default=False, help_text="the deliverable caused an incident")
    gym_score = models.FloatField(null=True, blank=True)
    resolved = models.BooleanField(null=True, blank=True)
    # Which variant of the version the run plays (docs/variants.md; ``runs.variants``). Never
    # shown to the player while the run is open: it would say which facts changed.
    variant = models.CharField(max_length=64, default="base")

    class Meta:
        ordering = ["-started_at"]
        indexes = [
            models.Index(fields=["player", "status"]),
            models.Index(fields=["mode", "status"]),
        ]

    def __str__(self) -> str:
        return f"run {self.id} ({self.case_version.case.slug}, {self.player})"

    @property
    def package_dir(self) -> Path:
        """The package the run plays: its variant's data, customer and evaluator."""
        return self.case_version.variant_dir(self.variant)

    @property
    def is_open(self) -> bool:
        return self.status == RunStatus.OPEN and timezone.now() < self.deadline

    @property
    def has_customer(self) -> bool:
        return self.condition in CUSTOMER_CONDITIONS

    def seconds_left(self) -> int:
        return max(0, int((self.deadline - timezone.now()).total_seconds()))

    @staticmethod
    def deadline_for(version: CaseVersion, start: Any) -> Any:
        return start + timedelta(minutes=version.wall_clock_minutes)


class Exchange(models.Model):
    """One round: the player's message and the customer's reply."""

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="exchanges")
    turn = models.PositiveIntegerField()
    client_id = models.CharField(
        max_length=64, blank=True, help_text="the client's message id, for retries"
    )
    question = models.TextField()
    units = models.JSONField(default=list)
    answer = models.TextField()
    stakeholder_id = models.CharField(max_length=80, blank=True)
    stakeholder = models.CharField(max_length=200, blank=True)
    disclosed = models.JSONField(default=list, help_text="fact keys disclosed (scripted backend)")
    speakers = models.JSONField(
        default=list, blank=True, help_text="stakeholder ids that answered, in order"
    )
    latency_ms = models.PositiveIntegerField(default=0)
    contact_cost = models.FloatField(default=0.0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["run", "turn"]
        constraints = [
            models.UniqueConstraint(fields=["run", "turn"], name="unique_run_turn"),
            models.UniqueConstraint(
                fields=["run", "client_id"],
                condition=~models.Q(client_id=""),
                name="unique_run_client_id",
            ),
        ]

    def __str__(self) -> str:
        return f"turn {self.turn} of {self.run_id}"


class SubmissionStatus(models.TextChoices):
    REJECTED = "rejected", "Format check failed"
    RECEIVED = "received", "Format OK, waiting for the run to close"
    QUEUED = "queued", "Queued for scoring"
    SCORING = "scoring", "Scoring"
    SCORED = "scored", "Scored"
    SUPERSEDED = "superseded", "Not scored (a later submission counts)"


def submission_path(instance: Submission, filename: str) -> str:
    return f"submissions/{instance.run_id}/{uuid.uuid4().hex}"


class Submission(models.Model):
    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="submissions")
    number = models.PositiveIntegerField()
    file = models.FileField(upload_to=submission_path, max_length=300)
    original_name = models.CharField(max_length=255)
    size = models.PositiveIntegerField()
    sha256 = models.CharField(max_length=64)
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    created_at = models.DateTimeField(auto_now_add=True)
    format_ok = models.BooleanField(default=False)
    format_errors = models.JSONField(default=list)
    status = models.CharField(max_length=12, choices=SubmissionStatus.choices)
    # Filled by the scoring worker. Hidden from the player of an open ranked run.
    result = models.JSONField(null=True, blank=True)
    score = models.FloatField(null=True, blank=True, help_text="FDE-Bench Quality scale")
    uplift = models.FloatField(null=True, blank=True, help_text="FDE-Gym uplift (valid only)")
    valid = models.BooleanField(null=True, blank=True)
    error_kind = models.CharField(max_length=12, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    queued_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    scored_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["run", "number"]
        constraints = [
            models.UniqueConstraint(fields=["run", "number"], name="unique_run_submission")
        ]
        indexes = [models.Index(fields=["status", "queued_at"])]

    def __str__(self) -> str:
        return f"submission {self.number} of {self.run_id}"


class Exposure(models.Model):
    """A player saw part of a case's hidden side; their later ranked runs on it are informed."""

    PRACTICE_SCORE = "practice_score"
    FULL = "full"
    TARGETS = "targets"
    TRANSCRIPT = "transcript"
    LEVEL_L0 = "level_l0"
    LEVEL_L1 = "level_l1"
    LEVEL_L2 = "level_l2"
    KINDS = [
        (PRACTICE_SCORE, "a practice run's score and verdict"),
        (FULL, "a run under Full information"),
        (TARGETS, "the case's clarification targets"),
        (TRANSCRIPT, "another player's transcript"),
        (LEVEL_L0, "a run told the rules (FDE-Gym L0)"),
        (LEVEL_L1, "a run told the scoring criteria (FDE-Gym L1)"),
        (LEVEL_L2, "a run told the underlying problem (FDE-Gym L2)"),
    ]

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="exposures"
    )
    case = models.ForeignKey("cases.Case", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20, choices=KINDS)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "case", "kind"], name="unique_exposure")
        ]

    def __str__(self) -> str:
        return f"{self.player} saw {self.kind} of {self.case_id}"


class AgentLabel(models.Model):
    """An agent label belongs to the account that used it first (boards key agents by it)."""

    label = models.CharField(max_length=200, unique=True)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.label} ({self.owner})"
