from django.urls import path

from fdeplatform.progress import views

urlpatterns = [
    path("players/<str:username>/", views.profile, name="player-profile"),
    path("activity/", views.activity, name="activity"),
]
