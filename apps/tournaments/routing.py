from django.urls import path

from apps.tournaments.consumers import TournamentSocket

websocket_urlpatterns = [
    path("ws/tournaments/<int:tournament_id>/", TournamentSocket.as_asgi()),  # type: ignore[arg-type]  # an ASGI app for channels' URLRouter; the stubs type views only
]
