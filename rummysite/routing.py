from django.urls import path

from apps.tables.routing import websocket_urlpatterns as table_routes
from rummysite.consumers import PingSocket

websocket_urlpatterns = [
    path("ws/ping/", PingSocket.as_asgi()),
    *table_routes,
]
