from django.urls import path

from fdeplatform.api import views

urlpatterns = [
    path("agent-tools/", views.AgentToolsApi.as_view(), name="api-agent-tools"),
    path("cases/", views.CaseListApi.as_view(), name="api-cases"),
    path("cases/<slug:slug>/", views.CaseDetailApi.as_view(), name="api-case"),
    path("cases/<slug:slug>/data/<str:name>", views.CaseDataApi.as_view(), name="api-case-data"),
    path("cases/<slug:slug>/bundle/", views.CaseBundleApi.as_view(), name="api-case-bundle"),
    path("runs/", views.RunCreateApi.as_view(), name="api-runs"),
    path("runs/<uuid:run_id>/", views.RunDetailApi.as_view(), name="api-run"),
    path(
        "runs/<uuid:run_id>/questions/", views.RunQuestionsApi.as_view(), name="api-run-questions"
    ),
    path(
        "runs/<uuid:run_id>/submissions/",
        views.RunSubmissionsApi.as_view(),
        name="api-run-submissions",
    ),
    path("runs/<uuid:run_id>/close/", views.RunCloseApi.as_view(), name="api-run-close"),
    path("runs/<uuid:run_id>/data/<str:name>", views.RunDataApi.as_view(), name="api-run-data"),
    path("runs/<uuid:run_id>/bundle/", views.RunBundleApi.as_view(), name="api-run-bundle"),
    path("runs/<uuid:run_id>/result/", views.RunResultApi.as_view(), name="api-run-result"),
]
