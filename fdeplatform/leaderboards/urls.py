"""Leaderboard pages (mounted at the site root) and the run report under /runs/."""

from django.urls import path

from fdeplatform.leaderboards import views

urlpatterns = [
    path("leaderboard/", views.leaderboard_page, name="leaderboard"),
    path("leaderboard/case/<slug:slug>/", views.case_page, name="leaderboard-case"),
    path("leaderboard/config/<str:kind>/<path:key>/", views.config_page, name="leaderboard-config"),
    path("leaderboard/compare/", views.compare_page, name="leaderboard-compare"),
    path("leaderboard/conditions/", views.conditions_page, name="leaderboard-conditions"),
    path("leaderboard/analyses/", views.analyses_page, name="leaderboard-analyses"),
    path("runs/<uuid:run_id>/report/", views.run_report_page, name="run-report"),
    path("runs/<uuid:run_id>/report/publish/", views.run_publish, name="run-publish"),
]
