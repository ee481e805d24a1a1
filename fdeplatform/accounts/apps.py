from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "fdeplatform.accounts"
    label = "accounts"
    verbose_name = "Accounts"
