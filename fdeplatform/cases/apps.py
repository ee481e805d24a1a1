from django.apps import AppConfig


class CasesConfig(AppConfig):
    name = "fdeplatform.cases"
    label = "cases"
    verbose_name = "Cases"
