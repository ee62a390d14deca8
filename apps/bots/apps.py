from django.apps import AppConfig


class BotsConfig(AppConfig):
    name = "apps.bots"
    label = "bots"

    def ready(self) -> None:
        # What every web process runs beside its sockets: which bot accounts are online, and a check of
        # the open token sockets against the database (revoked, banned or disabled meanwhile).
        from apps.bots import asgi, presence
        from apps.live import loop

        loop.on_start(presence.refresh_forever)
        loop.on_start(asgi.check_forever)
