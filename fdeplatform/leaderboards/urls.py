from django.urls import path

from fdeplatform.leaderboards import views

urlpatterns = [
    path("leaderboard/", views.leaderboard, name="leaderboard"),
]
