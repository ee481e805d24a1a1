"""Admin views of runs for staff review (read-only: results come from the scoring pipeline)."""

from __future__ import annotations

from django.contrib import admin

from fdeplatform.runs.models import Exchange, Run, Submission


class ExchangeInline(admin.TabularInline[Exchange, Run]):
    model = Exchange
    extra = 0
    can_delete = False
    fields = readonly_fields = (
        "turn",
        "question",
        "answer",
        "stakeholder",
        "disclosed",
        "latency_ms",
        "contact_cost",
    )


class SubmissionInline(admin.TabularInline[Submission, Run]):
    model = Submission
    extra = 0
    can_delete = False
    fields = readonly_fields = (
        "number", "original_name", "size", "status", "score", "error_kind", "created_at",
    )  # fmt: skip


@admin.register(Run)
class RunAdmin(admin.ModelAdmin[Run]):
    list_display = ["id", "player", "case_version", "mode", "condition", "label", "status", "score"]
    list_filter = ["mode", "condition", "status", "is_agent", "case_version__case"]
    search_fields = ["id", "player__username", "label"]
    readonly_fields = [f.name for f in Run._meta.fields if f.name not in {"incident"}]
    inlines = [ExchangeInline, SubmissionInline]


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin[Submission]):
    list_display = [
        "id",
        "run",
        "number",
        "status",
        "score",
        "error_kind",
        "attempts",
        "created_at",
    ]
    list_filter = ["status", "error_kind"]
    readonly_fields = [f.name for f in Submission._meta.fields]
