from django.apps import AppConfig
from django.conf import settings

from apps.live import loop


class TablesConfig(AppConfig):
    name = "apps.tables"
    label = "tables"

    def ready(self) -> None:
        # These modules read models, which exist only once the registry is ready: Django's own place for
        # such imports is here (not an import circle; tests/site/test_architecture.py allows ready()).
        from apps.accounts.signals import user_barred
        from apps.tables import liveness, rooms
        from apps.tables.services.bans import on_user_barred

        user_barred.connect(on_user_barred, dispatch_uid="tables.on_user_barred")
        # What every web process runs beside its sockets, started with the server's loop.
        loop.on_start(rooms.keep_rooms_current)
        if getattr(settings, "TABLE_WEB_HEARTBEAT", False):
            loop.on_start(liveness.heartbeat)
