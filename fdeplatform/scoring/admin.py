from django.contrib import admin

from fdeplatform.scoring.models import Rescore, RunCoverage


@admin.register(RunCoverage)
class RunCoverageAdmin(admin.ModelAdmin[RunCoverage]):
    list_display = ["run", "status", "judge", "recall", "precision", "ask_f1", "computed_at"]
    list_filter = ["status", "judge"]


@admin.register(Rescore)
class RescoreAdmin(admin.ModelAdmin[Rescore]):
    list_display = ["submission", "case_version", "score", "valid", "requested_at", "scored_at"]
    readonly_fields = ["submission", "case_version", "result", "score", "valid", "scored_at"]
