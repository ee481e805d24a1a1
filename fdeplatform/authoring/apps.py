from django.apps import AppConfig


class AuthoringConfig(AppConfig):
    name = "fdeplatform.authoring"
    label = "authoring"
    verbose_name = "Case authoring"
