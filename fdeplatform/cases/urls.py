from django.urls import path

from fdeplatform.cases import views

urlpatterns = [
    path("", views.case_list, name="case-list"),
    path("<slug:slug>/", views.case_detail, name="case-detail"),
]
