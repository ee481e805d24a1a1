from django.urls import path

from fdeplatform.api import views

urlpatterns = [
    path("cases/", views.CaseListApi.as_view(), name="api-cases"),
]
