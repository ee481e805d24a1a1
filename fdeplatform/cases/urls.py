from django.urls import path

from fdeplatform.cases import views
from fdeplatform.runs import views as run_views

urlpatterns = [
    path("", views.case_list, name="case-list"),
    path("<slug:slug>/", views.case_detail, name="case-detail"),
    path("<slug:slug>/editorial/", views.case_editorial, name="case-editorial"),
    path("<slug:slug>/start/", run_views.start, name="run-start"),
    path("<slug:slug>/data/<str:name>", run_views.data_file, name="case-data"),
    path("<slug:slug>/bundle.zip", run_views.bundle, name="case-bundle"),
]
