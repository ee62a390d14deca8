from django.apps import AppConfig
from django.conf import settings


class TablesConfig(AppConfig):
    name = "apps.tables"
    label = "tables"

    def ready(self) -> None:
        # What every web process runs beside its sockets, started with the server's loop.
        from apps.accounts.signals import user_barred
        from apps.live import loop
        from apps.tables import liveness, rooms
        from apps.tables.services.bans import on_user_barred

        user_barred.connect(on_user_barred, dispatch_uid="tables.on_user_barred")
        loop.on_start(rooms.keep_rooms_current)
        if getattr(settings, "TABLE_WEB_HEARTBEAT", False):
            loop.on_start(liveness.heartbeat)
