from django.apps import AppConfig


class RunsConfig(AppConfig):
    name = "fdeplatform.runs"
    label = "runs"
    verbose_name = "Runs"
