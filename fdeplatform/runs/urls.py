from django.urls import path

from fdeplatform.runs import views

urlpatterns = [
    path("", views.my_runs, name="my-runs"),
    path("<uuid:run_id>/", views.workspace, name="run-workspace"),
]
