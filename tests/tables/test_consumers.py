"""The table and lobby WebSockets, end to end through the ASGI application (PostgreSQL and the Redis
channel layer in CI)."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db import OperationalError

from apps.engine.bots import get_bot
from apps.engine.game import get_rules
from apps.tables import services
from apps.tables.models import FairDeal, Game, MoveLog, Table
from rummysite.asgi import application
from tests.tables.helpers import make_user, run_due, strongest_bot

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

HOUSE = "tile-rummy"
ORIGIN = (b"origin", b"http://127.0.0.1:8000")
HOST = (b"host", b"127.0.0.1:8000")
db = sync_to_async


def session_cookie(user) -> bytes:
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}".encode()


async def connect(path: str, user=None, origin=ORIGIN, language: str = "") -> WebsocketCommunicator:
    headers = [HOST, origin]
    if language:
        headers.append((b"accept-language", language.encode()))
    if user is not None:
        headers.append((b"cookie", await db(session_cookie)(user)))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect(timeout=30)
    assert connected, path
    return communicator


async def receive(communicator: WebsocketCommunicator, timeout: float = 30) -> dict[str, Any]:
    return json.loads(await communicator.receive_from(timeout=timeout))


async def drain(communicator: WebsocketCommunicator, frames: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Collect every frame already sent; return the newest state frame among them."""
    latest = None
    while not await communicator.receive_nothing(timeout=0.05):
        frame = await receive(communicator)
        frames.append(frame)
        if frame["type"] == "state":
            latest = frame
    return latest


async def until_version(
    communicator: WebsocketCommunicator, frames: list[dict[str, Any]], version: int, latest: dict[str, Any] | None = None,
    ceiling: float = 60.0,
) -> dict[str, Any]:
    """Collect frames until a state frame of at least `version` has arrived (or fail after `ceiling`
    seconds, a bound generous enough for a busy machine: the test waits on the condition, not a time)."""
    async def wait() -> dict[str, Any]:
        newest = latest
        while newest is None or newest["version"] < version:
            frame = await receive(communicator, timeout=ceiling)
            frames.append(frame)
            if frame["type"] == "state" and (newest is None or frame["version"] >= newest["version"]):
                newest = frame
        return newest

    return await asyncio.wait_for(wait(), ceiling)


async def codes_until_closed(communicator: WebsocketCommunicator) -> tuple[list[str | None], int]:
    """Read frames until the server closes the socket: each frame's error code (None for other frames),
    and the close code."""
    codes = []
    while True:
        output = await communicator.receive_output(timeout=30)
        if output["type"] == "websocket.close":
            return codes, output["code"]
        codes.append(json.loads(output["text"]).get("code"))


def keys_in(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {key for item in value.values() for key in keys_in(item)}
    if isinstance(value, list):
        return {key for item in value for key in keys_in(item)}
    return set()


async def play_over_websockets(slug: str, seats: int, query: str = "") -> tuple[list[dict], list[dict], int, Table]:
    """A guest plays a whole match against bots over a WebSocket while a spectator watches. Returns
    every frame the player and the spectator received, the player's seat, and the table. `query`: what
    the sockets ask for besides the game (`?chat=1&presence=1`, as the table page does)."""
    guest = await db(make_user)("guest-ws", guest=True)
    level = strongest_bot(slug)
    table = await db(services.table_open)(by=guest, game=slug, seat_count=seats, bots=[level] * (seats - 1))
    await db(services.table_start)(table_id=table.pk, by=guest)
    player = await connect(f"/ws/tables/{table.pk}/{query}", guest)
    spectator = await connect(f"/ws/tables/{table.pk}/{query}")
    player_frames: list[dict] = []
    spectator_frames: list[dict] = []
    state = await receive(player)
    player_frames.append(state)
    assert state["type"] == "state" and state["seat"] == 0
    spectator_frames.append(await receive(spectator))
    brain = get_bot(slug, "easy")
    rng = random.Random(5)
    for step in range(3000):
        table = await db(Table.objects.get)(pk=table.pk)
        if table.status != Table.Status.PLAYING:
            break
        if table.due_action:
            await db(run_due)(table.pk)
        else:
            view = state["view"]
            assert view["turn"] == 0, "nothing is due, so it must be the guest's turn"
            move = str(brain.next_move(view, rng))
            await player.send_json_to({"type": "move", "move": move, "version": state["version"], "id": f"m{step}"})
        state = await until_version(player, player_frames, state["version"] + 1)  # each step is one change
        await drain(spectator, spectator_frames)
    await drain(spectator, spectator_frames)
    await player.disconnect()
    await spectator.disconnect()
    return player_frames, spectator_frames, 0, table


async def test_a_guest_and_a_bot_play_a_house_match_to_the_end_and_a_spectator_follows():
    player_frames, spectator_frames, seat, table = await play_over_websockets(HOUSE, 2)
    assert table.status == Table.Status.FINISHED
    errors = [frame for frame in player_frames if frame["type"] == "error"]
    assert errors == []
    final = [frame for frame in spectator_frames if frame["type"] == "state"][-1]
    assert final["table"]["status"] == "finished"
    assert final["view"]["over"] and final["view"]["result"]["scores"]
    assert final["version"] == table.version
    assert await db(MoveLog.objects.filter(actor="bot").exists)()


async def test_no_frame_ever_carries_another_seats_rack_or_the_pile():
    # The sockets ask for the chat and the presence too: those frames are checked with the rest.
    player_frames, spectator_frames, seat, table = await play_over_websockets(HOUSE, 3, "?chat=1&presence=1")
    states = [frame for frame in player_frames if frame["type"] == "state"]
    assert len(states) > 20
    others = [frame for frame in player_frames + spectator_frames if frame["type"] not in ("state", "ack")]
    assert {"chat_history", "presence"} <= {frame["type"] for frame in others}
    for frame in others:
        assert not keys_in(frame) & {"rack", "racks", "drawn", "deal", "pile", "pile_order", "view", "server_seed"}
    for frame in states:  # the log names what everyone saw: no entry has a rack in it
        log = (frame["table"].get("current_game") or {}).get("log", [])
        assert not keys_in(log) & {"rack", "racks", "drawn", "pile"}
    for frame in states:
        assert frame["seat"] == seat and frame["view"]["you"] == seat
        assert not keys_in(frame) & {"racks", "pile_order", "deal", "state"}
        assert isinstance(frame["view"]["pile"], int)
    for frame in spectator_frames:
        if frame["type"] == "state":
            assert frame["seat"] is None
            assert not keys_in(frame) & {"rack", "racks", "drawn", "deal", "pile_order"}
    # Each seat's view in a frame is exactly the engine's view for that seat at that version.
    game = await db(Game.objects.filter(match__table=table).order_by("number").last)()
    rules = get_rules(HOUSE)
    last = states[-1]
    if last["view"] is not None and game is not None:
        assert last["view"] == json.loads(json.dumps(rules.view_for(rules.from_dict(game.state), seat)))


@pytest.mark.parametrize("bad", [{"id": 7}, {"id": 7.5}, {"id": None}, {"id": ["m1"]}, {"version": True},
                                 {"version": 3.0}, {"move": ["discard", "r5"]}])
async def test_a_legal_move_with_a_field_of_the_wrong_type_is_refused_as_a_bad_frame_and_changes_nothing(bad):
    alice = await db(make_user)("alice")
    table = await db(services.table_open)(by=alice, game=HOUSE, seat_count=2, bots=["easy"], turn_seconds=60)
    await db(services.table_start)(table_id=table.pk, by=alice)
    client = await connect(f"/ws/tables/{table.pk}/", alice)
    state = await receive(client)
    if state["view"]["turn"] != 0:  # the bot starts: let it play until it is alice's turn
        while (await db(Table.objects.get)(pk=table.pk)).due_action == Table.Due.BOT:
            await db(run_due)(table.pk)
        state = await until_version(client, [], (await db(Table.objects.get)(pk=table.pk)).version)
    version = state["version"]
    rack = state["view"]["rack"]
    legal = "discard " + rack[0] if state["view"]["phase"] != "draw" else "draw"
    frame = {"type": "move", "move": legal, "version": version, "id": "ok-1", **bad}
    await client.send_json_to(frame)
    reply = await receive(client)
    assert reply["type"] == "error" and reply["code"] == "bad_frame", reply
    assert "version" not in reply
    assert (await db(Table.objects.get)(pk=table.pk)).version == version
    await client.disconnect()


async def test_bad_frames_get_error_frames_and_change_nothing():
    alice = await db(make_user)("alice")
    bob = await db(make_user)("bob")
    table = await db(services.table_open)(by=alice, game=HOUSE, seat_count=2)
    await db(services.table_join)(table_id=table.pk, by=bob)
    await db(services.table_start)(table_id=table.pk, by=alice)
    table = await db(Table.objects.get)(pk=table.pk)
    version = table.version
    game_state = (await db(Game.objects.get)()).state
    rules = get_rules(HOUSE)
    to_move = rules.to_move(rules.from_dict(game_state))
    waiting_user = bob if to_move == 0 else alice
    client = await connect(f"/ws/tables/{table.pk}/", waiting_user)
    await receive(client)
    bad_frames = [
        "not json",
        json.dumps([1, 2]),
        json.dumps({"no": "type"}),
        json.dumps({"type": "explode"}),
        json.dumps({"type": "move"}),
        json.dumps({"type": "move", "move": 42}),
        json.dumps({"type": "move", "move": "draw", "version": "x"}),
        json.dumps({"type": "move", "move": "draw", "version": version - 1}),
        json.dumps({"type": "move", "move": "draw"}),  # not this seat's turn
        json.dumps({"type": "move", "move": "timeout"}),
        json.dumps({"type": "move", "move": "discard q7"}),
        json.dumps({"type": "start"}),
    ]
    for raw in bad_frames:
        await client.send_to(text_data=raw)
        frame = await receive(client)
        assert frame["type"] == "error", raw
        assert frame["message"], raw
        if frame["code"] == "stale":
            assert (await receive(client))["type"] == "state"
    assert (await db(Table.objects.get)(pk=table.pk)).version == version
    assert (await db(Game.objects.get)()).state == game_state
    assert await db(MoveLog.objects.count)() == 0
    await client.disconnect()


async def test_a_refused_move_is_told_in_each_sockets_language_and_the_state_frames_are_the_same():
    alice = await db(make_user)("alice")
    bob = await db(make_user)("bob")
    table = await db(services.table_open)(by=alice, game=HOUSE, seat_count=2)
    await db(services.table_join)(table_id=table.pk, by=bob)
    await db(services.table_start)(table_id=table.pk, by=alice)
    rules = get_rules(HOUSE)
    to_move = rules.to_move(rules.from_dict((await db(Game.objects.get)()).state))
    waiting_user = bob if to_move == 0 else alice
    romanian = await connect(f"/ws/tables/{table.pk}/", waiting_user, language="ro-RO,ro;q=0.9")
    state_in_romanian = await receive(romanian)
    english = await connect(f"/ws/tables/{table.pk}/", waiting_user, language="en")
    assert state_in_romanian == await receive(english)  # one frame for every viewer: codes, no words

    async def refusal(client: WebsocketCommunicator, move: str) -> dict[str, Any]:
        await client.send_to(text_data=json.dumps({"type": "move", "move": move, "id": "m1"}))
        return await receive(client)

    not_your_turn = {"type": "error", "code": "illegalmove", "ref": "m1"}
    assert await refusal(romanian, "draw") == {**not_your_turn, "message": "Nu e rândul tău."}
    assert await refusal(english, "draw") == {**not_your_turn, "message": "It is not your turn."}
    assert (await refusal(romanian, "discard q7"))["message"].startswith("q7 nu e o piesă")
    assert (await refusal(english, "discard q7"))["message"].startswith("q7 is not a tile")
    await romanian.disconnect()
    await english.disconnect()


async def test_a_spectator_cannot_act():
    alice = await db(make_user)("alice")
    table = await db(services.table_open)(by=alice, game=HOUSE, seat_count=2, bots=["easy"])
    await db(services.table_start)(table_id=table.pk, by=alice)
    client = await connect(f"/ws/tables/{table.pk}/")
    await receive(client)
    await client.send_json_to({"type": "move", "move": "draw"})
    frame = await receive(client)
    assert frame["type"] == "error" and frame["code"] == "not_signed_in"
    stranger = await connect(f"/ws/tables/{table.pk}/", await db(make_user)("stranger"))
    await receive(stranger)
    await stranger.send_json_to({"type": "move", "move": "draw"})
    assert (await receive(stranger))["code"] == "notallowed"
    await client.disconnect()
    await stranger.disconnect()


async def test_an_oversized_frame_closes_the_connection_with_1008():
    client = await connect("/ws/lobby/")
    await receive(client)
    await client.send_to(text_data=json.dumps({"type": "sync", "pad": "x" * 10000}))
    assert (await receive(client))["code"] == "too_big"
    assert await client.receive_output(timeout=30) == {"type": "websocket.close", "code": 1008}


async def test_a_flood_of_frames_closes_the_connection_with_1008(stopped_clock):
    client = await connect("/ws/lobby/")
    await receive(client)
    for _ in range(60):
        await client.send_json_to({"type": "ping"})
    codes, closed_with = await codes_until_closed(client)
    assert closed_with == 1008
    assert "rate_limited" in codes


async def test_a_websocket_from_a_foreign_origin_is_refused():
    communicator = WebsocketCommunicator(application, "/ws/lobby/", headers=[HOST, (b"origin", b"https://evil.example")])
    connected, _ = await communicator.connect(timeout=30)
    assert not connected


async def test_the_lobby_lists_open_tables_and_hears_about_new_ones():
    client = await connect("/ws/lobby/")
    first = await receive(client)
    assert first == {"type": "tables", "tables": []}
    alice = await db(make_user)("alice")
    table = await db(services.table_open)(by=alice, game=HOUSE, seat_count=3, bots=["easy"])
    update = await receive(client)
    assert update["type"] == "table" and update["id"] == table.pk
    assert update["entry"]["taken"] == 2 and update["entry"]["seat_count"] == 3
    assert update["entry"]["rated"] is False
    await client.disconnect()


async def refusal(path: str, headers: list[tuple[bytes, bytes]]) -> int | None:
    """The close code a socket is refused with: accepted and closed at once, so that a real client
    sees the code (a close before the accept reaches it as a bare HTTP 403)."""
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await communicator.connect(timeout=30)
    if not connected:
        return code
    output = await communicator.receive_output(timeout=30)
    assert output["type"] == "websocket.close", output
    return output["code"]


async def test_a_table_that_does_not_exist_refuses_the_connection_with_4404():
    assert await refusal("/ws/tables/999999/", [HOST, ORIGIN]) == 4404


async def test_reconnecting_restores_the_exact_view():
    alice = await db(make_user)("alice")
    table = await db(services.table_open)(by=alice, game=HOUSE, seat_count=2, bots=["easy"])
    await db(services.table_start)(table_id=table.pk, by=alice)
    first = await connect(f"/ws/tables/{table.pk}/", alice)
    before = await receive(first)
    await first.disconnect()
    again = await connect(f"/ws/tables/{table.pk}/", alice)
    after = await receive(again)
    assert after["view"] == before["view"] and after["version"] == before["version"]
    await again.send_json_to({"type": "sync"})
    assert (await receive(again))["view"] == before["view"]
    await again.disconnect()


async def test_a_change_whose_publish_was_lost_reaches_the_connection_from_the_rooms_own_check():
    """Pub/sub keeps nothing: a change whose publish was lost (here: the version raised in the database
    and never published) is found by the web process's check of its rooms' versions, and every socket
    of the table is sent the state it lacks. Pongs and syncs are answered from the room."""
    from django.db.models import F

    alice = await db(make_user)("alice")
    table = await db(services.table_open)(by=alice, game=HOUSE, seat_count=2, bots=["easy"])
    await db(services.table_start)(table_id=table.pk, by=alice)
    player = await connect(f"/ws/tables/{table.pk}/", alice)
    spectator = await connect(f"/ws/tables/{table.pk}/")
    shown = (await receive(player))["version"]
    await receive(spectator)

    await db(lambda: Table.objects.filter(pk=table.pk).update(version=F("version") + 1))()
    for client in (player, spectator):
        frame = await receive(client)  # within a second or so; the ceiling is generous
        assert frame["type"] == "state" and frame["version"] == shown + 1
    await player.send_json_to({"type": "ping"})
    assert await receive(player) == {"type": "pong", "version": shown + 1}
    await player.send_json_to({"type": "sync"})
    again = await receive(player)
    assert again["type"] == "state" and again["version"] == shown + 1 and again["seat"] == 0
    await player.disconnect()
    await spectator.disconnect()


async def test_two_people_play_a_rearrange_game_to_the_end_while_a_spectator_watches():
    """Both players only draw (and pass once the pool is empty): the game ends when everyone passes in a
    row, with zero-sum scores, and nobody's frames carry another rack."""
    slug = "tile-rummy-rearrange"
    alice = await db(make_user)("alice")
    bob = await db(make_user)("bob", guest=True)
    table = await db(services.table_open)(by=alice, game=slug, seat_count=2, turn_seconds=0)
    await db(services.table_join)(table_id=table.pk, by=bob)
    await db(services.table_start)(table_id=table.pk, by=alice)
    clients = {0: await connect(f"/ws/tables/{table.pk}/", alice), 1: await connect(f"/ws/tables/{table.pk}/", bob)}
    spectator = await connect(f"/ws/tables/{table.pk}/")
    frames: dict[int, list[dict]] = {0: [], 1: []}
    watched: list[dict] = []
    latest = {seat: await receive(client) for seat, client in clients.items()}
    for step in range(400):
        if (await db(Table.objects.get)(pk=table.pk)).status != Table.Status.PLAYING:
            break
        seat = latest[0]["view"]["turn"]
        target = latest[seat]["version"] + 1
        await clients[seat].send_json_to({"type": "move", "move": "draw", "version": target - 1, "id": f"d{step}"})
        for other, client in clients.items():
            latest[other] = await until_version(client, frames[other], target, latest[other])
        await drain(spectator, watched)
    final = latest[0]
    assert final["table"]["status"] == "finished", final["table"]
    assert final["view"]["over"]
    assert sum(final["view"]["result"]["scores"]) == 0
    for seat, seen in frames.items():
        for frame in seen:
            assert frame["type"] != "error", frame
            if frame["type"] == "state":
                assert frame["seat"] == seat and frame["view"]["you"] == seat
    assert all("rack" not in keys_in(frame) for frame in watched if frame["type"] == "state")
    for client in (*clients.values(), spectator):
        await client.disconnect()


async def test_a_guest_and_a_bot_play_a_rearrange_game_to_the_end():
    player_frames, spectator_frames, seat, table = await play_over_websockets("tile-rummy-rearrange", 2)
    assert table.status == Table.Status.FINISHED
    assert [frame for frame in player_frames if frame["type"] == "error"] == []
    final = [frame for frame in spectator_frames if frame["type"] == "state"][-1]
    assert final["view"]["over"] and sum(final["view"]["result"]["scores"]) == 0
    assert all("rack" not in keys_in(frame) for frame in spectator_frames if frame["type"] == "state")
    assert await db(MoveLog.objects.filter(actor="bot").exists)()


async def test_a_private_table_is_watched_only_with_its_invite_or_a_seat():
    alice = await db(make_user)("alice")
    table = await db(services.table_open)(by=alice, game=HOUSE, seat_count=2, private=True)
    stranger = await db(make_user)("stranger")
    for user, query in ((None, ""), (stranger, ""), (stranger, "?invite=wrong")):
        headers = [HOST, ORIGIN] + ([(b"cookie", await db(session_cookie)(user))] if user else [])
        # The same answer as for a table that does not exist: a private table's id stays secret.
        assert await refusal(f"/ws/tables/{table.pk}/{query}", headers) == 4404, (user, query)
    host = await connect(f"/ws/tables/{table.pk}/", alice)
    assert (await receive(host))["type"] == "state"
    invited = await connect(f"/ws/tables/{table.pk}/?invite={table.invite_token}", stranger)
    assert (await receive(invited))["seat"] is None
    await host.disconnect()
    await invited.disconnect()


async def test_a_table_socket_stops_as_soon_as_its_client_leaves_even_with_a_move_still_being_applied(monkeypatch):
    """Daphne kills an application instance that does not stop within its close timeout after the client
    left (it did, with Channels' consumers stuck in the channel layer's receive). A table socket has
    nothing to wait on: it stops at once, even while one of its frames is still being handled on a
    database thread (the service finishes there, in its own transaction)."""
    import threading

    alice = await db(make_user)("alice")
    table = await db(services.table_open)(by=alice, game=HOUSE, seat_count=2, bots=["easy"])
    await db(services.table_start)(table_id=table.pk, by=alice)
    client = await connect(f"/ws/tables/{table.pk}/", alice)
    await receive(client)
    entered, release = threading.Event(), threading.Event()

    def slow_move(**kwargs: Any) -> None:
        entered.set()
        release.wait(30)

    monkeypatch.setattr(services, "game_move", slow_move)
    await client.send_json_to({"type": "move", "move": "draw", "id": "slow"})
    assert await asyncio.get_running_loop().run_in_executor(None, entered.wait, 30)
    await client.send_input({"type": "websocket.disconnect", "code": 1000})
    await asyncio.wait_for(asyncio.shield(client.future), 30)  # stopped, though the move still runs
    assert client.future.done() and not client.future.cancelled() and client.future.exception() is None
    release.set()


async def test_no_frame_carries_the_server_seed_before_the_match_is_over_and_the_last_one_does():
    player_frames, spectator_frames, _, table = await play_over_websockets(HOUSE, 2)
    fair = await db(FairDeal.objects.get)(match_id=table.match_id)
    for frames in (player_frames, spectator_frames):
        states = [frame for frame in frames if frame["type"] == "state"]
        during = [frame for frame in states if not frame["table"]["match"]["over"]]
        assert during and all(frame["table"]["match"]["fair"]["commitment"] == fair.commitment for frame in during)
        assert not any(fair.server_seed in json.dumps(frame).lower() for frame in during)
        assert states[-1]["table"]["match"]["fair"]["server_seed"] == fair.server_seed


async def test_each_human_seats_seed_frame_brings_the_first_deal(settings):
    settings.TABLE_FAIR_SEED_SECONDS = 5.0
    alice, bob = await db(make_user)("alice"), await db(make_user)("bob")

    def start() -> Table:
        table = services.table_open(by=alice, game=HOUSE, seat_count=2)
        services.table_join(table_id=table.pk, by=bob)
        services.table_start(table_id=table.pk, by=alice)
        return table

    table = await db(start)()
    sockets = [await connect(f"/ws/tables/{table.pk}/", user) for user in (alice, bob)]
    for socket in sockets:
        first = await receive(socket)
        assert first["type"] == "state" and first["view"] is None and first["table"]["match"]["fair"]["seeding"]
    await sockets[0].send_json_to({"type": "seed", "seed": "not hex"})
    error = await receive(sockets[0])
    assert error["type"] == "error" and "hex digits" in error["message"]
    await sockets[0].send_json_to({"type": "seed", "seed": "aa" * 16})
    def seeded() -> bool:
        try:
            return bool(FairDeal.objects.get(match__table_id=table.pk).seeds[0])
        except OperationalError:  # SQLite's shared-cache test database: the socket's thread is writing it
            return False

    for _ in range(500):  # a generous ceiling: until alice's seed is stored
        if await db(seeded)():
            break
        await asyncio.sleep(0.02)
    assert not await db(Game.objects.filter(match__table_id=table.pk).exists)()  # still waiting for bob's
    await sockets[1].send_json_to({"type": "seed", "seed": "bb" * 16})
    for socket in sockets:
        dealt = await receive(socket)
        assert dealt["type"] == "state" and dealt["view"] is not None and not dealt["table"]["match"]["fair"]["seeding"]
        await socket.disconnect()
    fair = await db(FairDeal.objects.get)(match_id=(await db(Table.objects.get)(pk=table.pk)).match_id)
    assert fair.seeds == ["aa" * 16, "bb" * 16]
