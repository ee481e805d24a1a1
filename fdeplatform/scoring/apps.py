from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "fdeplatform.scoring"
    label = "scoring"
    verbose_name = "Scoring and coverage"

    def ready(self) -> None:
        from fdeplatform.scoring import signals  # noqa: F401  (connects the worker-start sweep)
