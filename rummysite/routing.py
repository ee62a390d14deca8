from django.urls import path

from apps.notifications.routing import websocket_urlpatterns as notification_routes
from apps.pairing.routing import websocket_urlpatterns as pairing_routes
from apps.tables.routing import websocket_urlpatterns as table_routes
from apps.tournaments.routing import websocket_urlpatterns as tournament_routes
from rummysite.consumers import PingSocket

websocket_urlpatterns = [
    path("ws/ping/", PingSocket.as_asgi()),  # type: ignore[arg-type]  # an ASGI app for channels' URLRouter; the stubs type views only
    *table_routes,
    *notification_routes,
    *pairing_routes,
    *tournament_routes,
]
