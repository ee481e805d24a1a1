from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "fdeplatform.accounts"
    label = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from fdeplatform.accounts import login_guard, revocation  # noqa: F401  (signals)
