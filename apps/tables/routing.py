from django.urls import path

from apps.tables.consumers import LobbySocket, TableSocket

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", TableSocket.as_asgi()),
    path("ws/lobby/", LobbySocket.as_asgi()),
]
