from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    verbose_name = _("Players")
    name = "apps.accounts"
    label = "accounts"

    def ready(self) -> None:
        from apps.accounts import signals

        signals.connect()
