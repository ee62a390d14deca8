from django.urls import path

from apps.tables.routing import websocket_urlpatterns as table_routes
from rummysite.consumers import PingConsumer

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
    *table_routes,
]
