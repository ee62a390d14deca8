"""ASGI entry point: HTTP through Django, WebSockets through Channels (served by daphne)."""

from __future__ import annotations

import logging
import os
import sys
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummysite.settings")
django_asgi_app = get_asgi_application()  # sets Django up before the consumers are imported

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.exceptions import ImproperlyConfigured  # noqa: E402

from apps.accounts import sockets  # noqa: E402
from apps.bots.asgi import BearerTokenMiddleware  # noqa: E402
from apps.lib.client_address import TrustedProxyMiddleware  # noqa: E402
from apps.lib.metrics import SocketCounter  # noqa: E402
from apps.live import collector, loop, owners  # noqa: E402
from apps.live.daphne import let_access_logs_hide_invites  # noqa: E402
from apps.live.sessions import session_user_stack  # noqa: E402
from rummysite import checks, metrics  # noqa: E402
from rummysite.connections import Bounded  # noqa: E402
from rummysite.embedded import start_embedded_worker  # noqa: E402
from rummysite.routing import websocket_urlpatterns  # noqa: E402

# A process that could only answer 500 stops here, saying why (rummysite/checks.py: DEBUG off, static
# files not collected). Daphne runs no system checks of its own.
for problem in checks.at_start():
    if problem.is_serious():
        raise ImproperlyConfigured(f"{problem.msg} {problem.hint} ({problem.id})")
    logging.getLogger("rummysite").warning("%s %s (%s)", problem.msg, problem.hint, problem.id)

# The event loop shares the GIL with the consumers' database threads; Python hands it over only every
# switch interval (5 ms by default), so a loop waiting behind a busy thread delays every frame of the
# process. A shorter interval keeps the loop responsive (measured in bench/README.md, load benchmark).
sys.setswitchinterval(settings.ASGI_SWITCH_INTERVAL)
# The same loop's pauses for the garbage collector: long-lived objects frozen, one full collection per
# period (apps/live/collector.py).
if collector.wanted():
    loop.on_start(collector.keep_collections_short)
collector.watch_slow_collections(settings.LIVE_GC_LOG_MS)
# Daphne's access log never writes a private table's invite token (apps/live/daphne.py).
let_access_logs_hide_invites()

# The client's address is settled first (apps/lib/client_address.py): Django's REMOTE_ADDR, allauth's
# rate limits and the consumers all read the one the trusted proxy saw. Open WebSockets are counted.
# A socket with `Authorization: Bearer TOKEN` is a bot account's program (SPEC 14, apps/bots/asgi.py):
# the token is its user, and it needs no Origin; every other socket keeps the Origin rule and the session
# (its user found on the sockets' database threads, not channels' single one: apps/live/sessions.py).
# Behind either door every socket has an owner (apps/live/owners.py): a barred account is refused, the
# limits per user and per address hold, and a ban or a sign-out closes the sockets at once.
def endpoints() -> owners.Owners:
    return owners.Owners(URLRouter(websocket_urlpatterns), refuse=sockets.refusal, explain=sockets.explain)


owners.check_with(sockets.barred_among)  # the backstop: every process checks its sockets' users now and then

#: The close code of a socket to a path no endpoint serves, as for a table that does not exist.
UNKNOWN_PATH = 4404


def serves(scope: dict[str, Any]) -> bool:
    """Whether an endpoint serves the socket's path, matched as channels' URLRouter matches it."""
    path, root = scope.get("path", ""), scope.get("root_path", "")
    if root:
        if not path.startswith(root):
            return False
        path = path[len(root):]
    return any(route.pattern.match(path.lstrip("/")) for route in websocket_urlpatterns)


class KnownPaths:
    """A socket to a path no endpoint serves is accepted and closed with 4404, before any session, token
    or quota is looked up: URLRouter raised on it, a server error (and an error report) that anyone
    could cause at will (issue 40)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if serves(scope):
            await self.app(scope, receive, send)
            return
        if (await receive()).get("type") == "websocket.connect":
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": UNKNOWN_PATH})


router = TrustedProxyMiddleware(
    SocketCounter(
        ProtocolTypeRouter(
            {
                # At most HTTP_CONCURRENCY requests in Django at once: what the process holds of the
                # database stays bounded whatever the traffic (rummysite/connections.py).
                "http": Bounded(django_asgi_app, settings.HTTP_CONCURRENCY),
                "websocket": KnownPaths(
                    BearerTokenMiddleware(
                        browsers=AllowedHostsOriginValidator(session_user_stack(endpoints())),
                        tokens=endpoints(),
                    )
                ),
            }
        )
    )
)
metrics.start_exporter()  # this process's metrics for Prometheus on METRICS_PORT, if set


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    # Remember the server's event loop (where published changes are delivered, and what starts with it)
    # and, on the embedded default, start the in-process Celery worker with the first connection.
    loop.remember()
    if settings.CELERY_EMBEDDED:
        start_embedded_worker()
    await router(scope, receive, send)
