from django.apps import AppConfig


class LeaderboardsConfig(AppConfig):
    name = "fdeplatform.leaderboards"
    label = "leaderboards"
    verbose_name = "Leaderboards and reports"
