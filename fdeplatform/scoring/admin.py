from django.contrib import admin
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest

from fdeplatform.scoring.models import Rescore, RunCoverage


@admin.action(description="Judge the coverage of the selected runs again")
def judge_again(
    modeladmin: admin.ModelAdmin[RunCoverage], request: HttpRequest, queryset: QuerySet[RunCoverage]
) -> None:
    from fdeplatform.scoring.coverage_service import coverage_queue

    with transaction.atomic():
        runs = [coverage.run for coverage in queryset.select_related("run")]
        for run in runs:
            coverage_queue(run)
    modeladmin.message_user(request, f"{len(runs)} run(s) queued for coverage judging.")


@admin.register(RunCoverage)
class RunCoverageAdmin(admin.ModelAdmin[RunCoverage]):
    list_display = ["run", "status", "judge", "recall", "precision", "ask_f1", "computed_at"]
    list_filter = ["status", "judge"]
    readonly_fields = ["error"]
    actions = [judge_again]


@admin.register(Rescore)
class RescoreAdmin(admin.ModelAdmin[Rescore]):
    list_display = ["submission", "case_version", "score", "valid", "requested_at", "scored_at"]
    readonly_fields = ["submission", "case_version", "result", "score", "valid", "scored_at"]
