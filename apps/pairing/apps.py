from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PairingConfig(AppConfig):
    name = "apps.pairing"
    label = "pairing"
    verbose_name = _("Quick pairing")

    def ready(self) -> None:
        from apps.pairing import subscribers

        subscribers.connect()
