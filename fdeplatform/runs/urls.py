from django.urls import path

from fdeplatform.runs import views

urlpatterns = [
    path("", views.my_runs, name="my-runs"),
    path("<uuid:run_id>/", views.workspace, name="run-workspace"),
    path("<uuid:run_id>/data/<str:name>", views.run_data_file, name="run-data"),
    path("<uuid:run_id>/bundle/", views.run_bundle, name="run-bundle"),
]
