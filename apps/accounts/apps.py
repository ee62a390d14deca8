from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    verbose_name = _("Players")
    name = "apps.accounts"
    label = "accounts"

    def ready(self) -> None:
        from apps.accounts import signals, sockets
        from apps.live import owners

        signals.connect()
        # The backstop of a lost message also closes the sockets of sessions signed out by a new password.
        owners.check_sessions_with(sockets.stale_sessions)
