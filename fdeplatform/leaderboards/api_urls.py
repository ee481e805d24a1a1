"""API routes of leaderboards (mounted under /api/)."""

from django.urls import path

from fdeplatform.leaderboards import api

urlpatterns = [
    path("leaderboard/", api.LeaderboardApi.as_view(), name="api-leaderboard"),
    path("leaderboard/export.csv", api.LeaderboardCsvApi.as_view(), name="api-leaderboard-csv"),
    path("runs/export.json", api.RunsExportApi.as_view(format="json"), name="api-runs-json"),
    path("runs/export.csv", api.RunsExportApi.as_view(format="csv"), name="api-runs-csv"),
]
