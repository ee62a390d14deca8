from django.urls import path

from apps.tables.consumers import LobbySocket, TableSocket

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", TableSocket.as_asgi()),  # type: ignore[arg-type]  # an ASGI app for channels' URLRouter; the stubs type views only
    path("ws/lobby/", LobbySocket.as_asgi()),  # type: ignore[arg-type]  # an ASGI app for channels' URLRouter; the stubs type views only
]
