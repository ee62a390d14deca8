from django.urls import path

from apps.pairing.consumers import PairingSocket

websocket_urlpatterns = [
    path("ws/pairing/", PairingSocket.as_asgi()),  # type: ignore[arg-type]  # an ASGI app for channels' URLRouter; the stubs type views only
]
