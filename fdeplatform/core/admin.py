from django.contrib import admin

from fdeplatform.core.models import WorkerProbe


@admin.register(WorkerProbe)
class WorkerProbeAdmin(admin.ModelAdmin[WorkerProbe]):
    list_display = ["nonce", "created_at", "processed_at", "processed_by"]
