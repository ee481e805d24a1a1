from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.forms import ModelChoiceField
from django.http import HttpRequest

from fdeplatform.cases.models import Case, CaseVersion


class CaseVersionInline(admin.TabularInline[CaseVersion, Case]):
    model = CaseVersion
    extra = 0
    # Read-only: versions are immutable and their state moves only through the authoring
    # workflow (/staff/cases/), which checks validation and a second approver.
    fields = ("version", "state", "digest", "target_count", "imported_at", "imported_by")
    readonly_fields = fields
    can_delete = False


@admin.action(description="Re-score other versions' submissions with the current version")
def rescore_with_current_version(
    modeladmin: admin.ModelAdmin[Case], request: HttpRequest, queryset: QuerySet[Case]
) -> None:
    from fdeplatform.scoring.rescoring import rescore_queue

    queued = 0
    for case in queryset.select_related("current_version"):
        if case.current_version is not None:
            queued += rescore_queue(version=case.current_version, user=request.user)  # type: ignore[arg-type]
    modeladmin.message_user(request, f"{queued} submission(s) queued for re-scoring.")


@admin.register(Case)
class CaseAdmin(admin.ModelAdmin[Case]):
    list_display = ["slug", "title", "family", "sector", "published", "current_version"]
    list_filter = ["family", "published"]
    search_fields = ["slug", "title"]
    inlines = [CaseVersionInline]
    actions = [rescore_with_current_version]

    def get_form(  # type: ignore[override]
        self, request: HttpRequest, obj: Case | None = None, change: bool = False, **kwargs: Any
    ) -> Any:
        """Offer only this case's own versions as its current version."""
        form = super().get_form(request, obj, change, **kwargs)
        field = form.base_fields.get("current_version")
        if isinstance(field, ModelChoiceField):
            field.queryset = (
                CaseVersion.objects.filter(case=obj) if obj else CaseVersion.objects.none()
            )
        return form
