"""Cases and their immutable versions.

A run is pinned to a ``CaseVersion``. Importing a changed package creates a new version with its
own stored copy of the package, so old runs keep being scored by the evaluator they were played
against and their results never change.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models


class Case(models.Model):
    FAMILIES = [("CO", "Combinatorial optimisation"), ("ML", "Machine learning")]

    slug = models.SlugField(max_length=80, unique=True)
    title = models.CharField(max_length=200)
    summary = models.CharField(max_length=500, blank=True)
    family = models.CharField(max_length=2, choices=FAMILIES)
    sector = models.CharField(max_length=80, blank=True)
    subtype = models.CharField(max_length=80, blank=True)
    # A guided first case (case.toml ``tutorial = true``): practice only, listed first.
    tutorial = models.BooleanField(default=False)
    published = models.BooleanField(default=False)
    current_version = models.ForeignKey(
        "CaseVersion", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["slug"]

    def __str__(self) -> str:
        return self.slug

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.clean()
        super().save(*args, **kwargs)

    def clean(self) -> None:
        """A case may only point at one of its own versions (admin once let it serve another
        case's package under this slug)."""
        version = self.current_version
        if version is not None and self.pk is not None and version.case_id != self.pk:
            raise ValidationError(
                {"current_version": f"{version} belongs to another case; pick one of {self}'s"}
            )

    @property
    def is_retired(self) -> bool:
        """Retired: its current version was retired. It stays on leaderboards, marked, and
        cannot be started (``cases.selectors.published_cases`` leaves it out)."""
        version = self.current_version
        return version is not None and version.state == CaseVersion.State.RETIRED


class CaseVersion(models.Model):
    """One immutable package of a case: its digest and stored files never change after import.

    ``state`` is the authoring lifecycle (``fdeplatform.authoring.lifecycle``): draft, in
    review, published (the case's current version), retired.
    """

    class State(models.TextChoices):
        DRAFT = "draft", "Draft"
        REVIEW = "review", "In review"
        PUBLISHED = "published", "Published"
        RETIRED = "retired", "Retired"

    #: Fields fixed at import; ``save`` refuses to change them afterwards.
    IMMUTABLE_FIELDS = ("case_id", "version", "digest", "storage_dir", "scoring", "target_count")

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="versions")
    version = models.CharField(max_length=40)
    digest = models.CharField(max_length=64, help_text="sha256 over every file of the package")
    storage_dir = models.CharField(max_length=500, help_text="stored copy, under CASE_STORE")
    public_metadata = models.JSONField(default=dict)
    scoring = models.JSONField(default=dict, help_text="hidden: normalisation, R, B")
    limits = models.JSONField(default=dict)
    target_count = models.PositiveIntegerField(default=0)
    admission = models.JSONField(default=dict, blank=True)
    imported_at = models.DateTimeField(auto_now_add=True)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    state = models.CharField(max_length=10, choices=State.choices, default=State.DRAFT)

    class Meta:
        ordering = ["case", "-imported_at"]
        constraints = [
            models.UniqueConstraint(fields=["case", "digest"], name="unique_case_digest"),
        ]

    def __str__(self) -> str:
        return f"{self.case.slug} {self.version} ({self.digest[:8]})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            self._refuse_content_change()
        super().save(*args, **kwargs)

    def _refuse_content_change(self) -> None:
        """A stored version is immutable: changed content is a new version, never an edit."""
        stored = CaseVersion.objects.filter(pk=self.pk).values(*self.IMMUTABLE_FIELDS).first() or {}
        changed = [
            name
            for name in self.IMMUTABLE_FIELDS
            if stored.get(name, getattr(self, name)) != getattr(self, name)
        ]
        if changed:
            raise ValidationError(
                f"{self} is immutable ({', '.join(changed)}); import the changed package as a "
                "new version"
            )

    @property
    def package_dir(self) -> Path:
        return Path(settings.CASE_STORE) / self.storage_dir

    @property
    def variants(self) -> list[str]:
        """Variant ids, base first (``cases.variants``)."""
        from fdeplatform.cases.variants import version_variants

        return version_variants(self)

    def variant_dir(self, variant: str) -> Path:
        """The materialised package of one variant (the stored copy for a plain package)."""
        from fdeplatform.cases.variants import variant_dir

        return variant_dir(self, variant)

    @property
    def rounds_limit(self) -> int:
        return int(self.limits.get("rounds", 30))

    @property
    def wall_clock_minutes(self) -> int:
        return int(self.limits.get("wall_clock_minutes", 720))

    def public(self) -> dict[str, Any]:
        return dict(self.public_metadata)
