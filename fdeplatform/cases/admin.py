from django.contrib import admin

from fdeplatform.cases.models import Case, CaseVersion


class CaseVersionInline(admin.TabularInline[CaseVersion, Case]):
    model = CaseVersion
    extra = 0
    fields = ["version", "digest", "target_count", "imported_at", "imported_by"]
    readonly_fields = ["version", "digest", "target_count", "imported_at", "imported_by"]
    can_delete = False


@admin.register(Case)
class CaseAdmin(admin.ModelAdmin[Case]):
    list_display = ["slug", "title", "family", "sector", "published", "current_version"]
    list_filter = ["family", "published"]
    search_fields = ["slug", "title"]
    inlines = [CaseVersionInline]
