from django.urls import path

from apps.notifications.consumers import BellSocket

websocket_urlpatterns = [
    path("ws/notifications/", BellSocket.as_asgi()),  # type: ignore[arg-type]  # an ASGI app for channels' URLRouter; the stubs type views only
]
