"""Staff authoring pages, under /staff/cases/."""

from django.urls import path

from fdeplatform.authoring import views

urlpatterns = [
    path("", views.home, name="authoring-home"),
    path("upload/", views.upload, name="authoring-upload-new"),
    path("uploads/<int:pk>/", views.upload_page, name="authoring-upload"),
    path("uploads/<int:pk>/status.json", views.upload_status, name="authoring-upload-status"),
    path("versions/<int:pk>/", views.version_page, name="authoring-version"),
    path("versions/<int:pk>/status.json", views.version_status, name="authoring-version-status"),
    path("versions/<int:pk>/validate/", views.version_validate, name="authoring-validate"),
    path("versions/<int:pk>/step/", views.version_step, name="authoring-step"),
    path("versions/<int:pk>/export.zip", views.version_export, name="authoring-export"),
    path("versions/<int:pk>/preview/", views.version_preview, name="authoring-preview"),
    path("versions/<int:pk>/data/<str:name>", views.version_data, name="authoring-data"),
    path("versions/<int:pk>/console/", views.version_console, name="authoring-console"),
    path("versions/<int:pk>/answers/", views.version_answer_audit, name="authoring-answer-audit"),
    path("case/<slug:slug>/", views.case_page, name="authoring-case"),
    path("case/<slug:slug>/diff/", views.case_diff, name="authoring-diff"),
]
