"""A player at an arena's table hears the arena on the table's own socket (apps/tournaments/table_part.py):
their rank, points and the time left when it opens, and again after a standings change; a plain table's
socket hears nothing of arenas."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from apps.tables import services as tables
from apps.tournaments import services
from apps.tournaments.models import ArenaSeat, ArenaTable
from apps.tournaments.services import Finish
from rummysite.asgi import application
from tests.tables.helpers import make_user
from tests.tables.test_consumers import HOST, ORIGIN, session_cookie
from tests.tournaments.test_socket import running_arena

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
db = sync_to_async


async def connect(path: str, user) -> WebsocketCommunicator:
    headers = [HOST, ORIGIN, (b"cookie", await db(session_cookie)(user))]
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect(timeout=30)
    assert connected, path
    return communicator


async def until(communicator: WebsocketCommunicator, kind: str, ceiling: float = 60.0) -> dict[str, Any]:
    """Frames until one of `kind` (failing after `ceiling` seconds of silence)."""
    for _ in range(200):
        frame = json.loads(await communicator.receive_from(timeout=ceiling))
        if frame["type"] == kind:
            return frame
    raise AssertionError(f"no {kind} frame")


async def test_a_seated_player_hears_their_rank_points_and_time_left_and_again_after_a_change():
    arena = await db(running_arena)()
    ana, bogdan = await db(make_user)("ana"), await db(make_user)("bogdan")
    for user in (ana, bogdan):
        await db(services.tournament_join)(tournament_id=arena.pk, by=user)
    await db(services.arenas_tick)()
    table_id = (await db(ArenaTable.objects.get)(tournament=arena)).table_id

    socket = await connect(f"/ws/tables/{table_id}/", ana)
    frame = await until(socket, "arena")
    assert frame["name"] == "Live arena" and frame["url"] == f"/tournaments/{arena.pk}/"
    assert frame["rank"] == 1 and frame["points"] == 0 and frame["streak"] == 0  # equal points: the earlier entrant
    assert frame["over"] is False and frame["status"] == "running"
    assert 3500 < frame["left"] <= 3540  # started a minute ago, an hour long
    assert frame["ends_at"] == arena.ends_at.isoformat()

    # Bogdan wins the match: ana's socket is told she is second, with 0 points, and her match is over.
    await db(services.arena_match_finished)(
        table_id=table_id, match_id=987654, finishes=[Finish(bogdan.pk, 1, False), Finish(ana.pk, 2, False)]
    )
    frame = await until(socket, "arena")
    assert frame["rank"] == 2 and frame["points"] == 0 and frame["over"] is True

    # A spectator of the same table gets the arena's own part, never a player's standing.
    carol = await db(make_user)("carol")
    watching = await connect(f"/ws/tables/{table_id}/", carol)
    seen = await until(watching, "arena")
    assert seen["name"] == "Live arena" and "rank" not in seen and "points" not in seen
    await watching.disconnect()
    await socket.disconnect()


async def test_a_plain_tables_socket_gets_no_arena_frame():
    dana = await db(make_user)("dana")
    table = await db(tables.table_open)(by=dana, game="tile-rummy", seat_count=2)
    socket = await connect(f"/ws/tables/{table.pk}/", dana)
    await until(socket, "state")
    await socket.send_to(text_data=json.dumps({"type": "ping"}))  # a frame after the opening ones:
    kinds = []
    for _ in range(50):  # every frame up to the answer of the ping (the parts ran before it)
        frame = json.loads(await socket.receive_from(timeout=60))
        kinds.append(frame["type"])
        if frame["type"] == "pong":
            break
    assert "pong" in kinds and "arena" not in kinds
    await socket.disconnect()


async def test_the_seated_sockets_of_a_process_share_one_read_of_the_arena_per_change(monkeypatch):
    """After a change every seated socket needs its place: one process reads the arena once for all of
    them (an arena of 1,000 read it once per socket before), and each still gets its own place."""
    from apps.tournaments import table_part

    reads: list[int] = []
    real = table_part.shared_read

    def counted(tournament_id: int):  # type: ignore[no-untyped-def]
        reads.append(tournament_id)
        return real(tournament_id)

    monkeypatch.setattr(table_part, "shared_read", counted)
    arena = await db(running_arena)()
    players = [await db(make_user)(name) for name in ("ana", "bogdan", "carmen", "dan")]
    for user in players:
        await db(services.tournament_join)(tournament_id=arena.pk, by=user)
    await db(services.arenas_tick)()
    sockets = {}
    for arena_table in await db(list)(ArenaTable.objects.filter(tournament=arena)):
        seated = await db(list)(ArenaSeat.objects.filter(arena_table=arena_table).values_list("user_id", flat=True))
        for user in players:
            if user.pk in seated:
                sockets[user.username] = await connect(f"/ws/tables/{arena_table.table_id}/", user)
    assert len(sockets) == 4
    for socket in sockets.values():
        assert (await until(socket, "arena"))["rank"] in (1, 2, 3, 4)
    assert reads == []  # opening reads each socket's own table, as before

    first = await db(ArenaTable.objects.filter(tournament=arena).order_by("id").first)()
    winner, loser = await db(list)(ArenaSeat.objects.filter(arena_table=first).order_by("user_id").values_list("user_id", flat=True))
    await db(services.arena_match_finished)(
        table_id=first.table_id, match_id=987655, finishes=[Finish(winner, 1, False), Finish(loser, 2, False)]
    )
    frames = {name: await until(socket, "arena") for name, socket in sockets.items()}
    assert reads == [arena.pk]  # one read for the four sockets
    by_id = {user.pk: user.username for user in players}
    assert frames[by_id[winner]]["rank"] == 1 and frames[by_id[winner]]["points"] == 2
    assert frames[by_id[winner]]["over"] is True and frames[by_id[loser]]["over"] is True
    still = [name for name in frames if name not in (by_id[winner], by_id[loser])]
    assert all(frames[name]["over"] is False and frames[name]["points"] == 0 for name in still)
    assert sorted(frame["rank"] for frame in frames.values()) == [1, 2, 3, 4]
    for socket in sockets.values():
        await socket.disconnect()
    assert arena.pk not in table_part.shared_reads().kept  # forgotten with the arena's last socket
