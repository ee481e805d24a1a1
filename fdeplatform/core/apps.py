from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "fdeplatform.core"
    label = "core"
    verbose_name = "Platform core"
