"""What the tables app connects once the app registry is ready (`TablesConfig.ready` imports this module:
it reads models through the modules below, so it cannot be imported before then).

- A barred user's seated sockets close (apps/accounts' `user_barred` signal).
- Every web process keeps its rooms current beside its sockets, and beats its liveness if asked
  (TABLE_WEB_HEARTBEAT), started with the server's loop.
"""

from __future__ import annotations

from django.conf import settings

from apps.accounts.signals import user_barred
from apps.live import loop
from apps.tables import liveness, rooms
from apps.tables.services.bans import on_user_barred


def connect() -> None:
    user_barred.connect(on_user_barred, dispatch_uid="tables.on_user_barred")
    loop.on_start(rooms.keep_rooms_current)
    if getattr(settings, "TABLE_WEB_HEARTBEAT", False):
        loop.on_start(liveness.heartbeat)
