"""Scale out, proven: two daphne processes on one database and one Redis, no sticky sessions. A player
on one process and a spectator on the other see the same table: a move made through the first reaches
the second (one publish, delivered in every process), and a table opened on one appears in the other's
lobby. Only meaningful on the real stack's bus (Redis pub/sub): skipped without REDIS_URL."""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import os
import random
import re
import subprocess
import sys
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack

import pytest

from tests.live_site import ROOT, daphne, migrate
from tests.live_site import run as run_in_thread

websockets = pytest.importorskip("websockets")
from websockets.asyncio.client import connect  # noqa: E402

pytestmark = pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="scaling out needs the Redis bus")

#: The servers' environment (a command run with it reaches the same database and bus).
SITE_ENV: dict[str, str] = {}


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[str]]:
    directory = tmp_path_factory.mktemp("two")
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DJANGO_SETTINGS_MODULE", "SECRET_KEY"}}
    env.update(DATABASE_URL=f"sqlite:///{directory / 'site.sqlite3'}", CELERY_EMBEDDED="0", LOG_LEVEL="WARNING",
               PYTHONUNBUFFERED="1", TABLE_WEB_HEARTBEAT="0", TABLE_FAIR_SEED_SECONDS="0",
               # Both processes on this run's Redis, on a channel of their own (not the suite's).
               LIVE_BUS_CHANNEL=f"rummy-live:two-servers:{os.getpid()}",
               # No repair from the database within the test: what reaches the other process came by the bus.
               TABLE_ROOM_CHECK_SECONDS="60",
               # Every visitor here comes from 127.0.0.1, run after run, and the cache is the shared Redis.
               GUESTS_PER_ADDRESS_PER_HOUR="100000",
               GUESTS_PER_ADDRESS_BURST="100000")
    SITE_ENV.clear()
    SITE_ENV.update(env)
    migrate(env)
    with ExitStack() as servers:
        yield [servers.enter_context(daphne(env, directory / f"daphne-{name}.log")) for name in ("a", "b")]


class Visitor:
    """A browser-like client of one process: cookies kept, the CSRF token sent with every form."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.opener.open(f"http://{url}/play/", timeout=30)

    def post(self, path: str, **fields: str) -> str:
        """POST a form; the URL it lands on."""
        token = next(cookie.value for cookie in self.jar if cookie.name == "csrftoken")
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **fields}).encode()
        request = urllib.request.Request(f"http://{self.url}{path}", data=body,
                                         headers={"Referer": f"http://{self.url}/play/"})
        return str(self.opener.open(request, timeout=30).geturl())

    @property
    def cookie(self) -> str:
        return "; ".join(f"{cookie.name}={cookie.value}" for cookie in self.jar)


def two_guests_at_a_table(url: str) -> tuple[Visitor, Visitor, int]:
    """Two guests of the process at `url`: the host opens a two-seat table, the other joins it."""
    host, guest = Visitor(url), Visitor(url)
    host.post("/accounts/guest/")
    guest.post("/accounts/guest/")
    table_id = table_of(host.post("/play/new/", game="tile-rummy", seats="2", match_length="1", turn_seconds="60",
                                  seat_1=""))
    guest.post(f"/t/{table_id}/join/")
    return host, guest, table_id


def table_of(landed: str) -> int:
    return int(re.search(r"/t/(\d+)/", landed).group(1))  # type: ignore[union-attr]


async def until_state(ws, version: int, ceiling: float = 60.0) -> dict:  # type: ignore[no-untyped-def]
    async def wait() -> dict:
        while True:
            frame = json.loads(await ws.recv())
            if frame["type"] == "state" and frame["version"] >= version:
                return frame

    return await asyncio.wait_for(wait(), ceiling)


def test_a_move_made_through_one_process_reaches_a_spectator_on_the_other(servers):
    a, b = servers
    host, guest, table_id = two_guests_at_a_table(a)

    async def run() -> tuple[int, dict]:
        from apps.engine.bots import get_bot

        players = [await connect(f"ws://{a}/ws/tables/{table_id}/", origin=f"http://{a}",
                                 additional_headers=[("Cookie", visitor.cookie)], proxy=None)
                   for visitor in (host, guest)]
        spectator = await connect(f"ws://{b}/ws/tables/{table_id}/", origin=f"http://{b}", proxy=None)
        opened = await until_state(players[0], 0)
        await until_state(spectator, 0)
        await players[0].send(json.dumps({"type": "start"}))
        states = [await until_state(ws, opened["version"] + 1) for ws in players]
        mover = next(i for i, state in enumerate(states) if state["view"]["turn"] == state["seat"])
        state = states[mover]
        move = str(get_bot("tile-rummy", "easy").next_move(state["view"], random.Random(1)))
        await players[mover].send(json.dumps({"type": "move", "move": move, "version": state["version"], "id": "m1"}))
        seen = await until_state(spectator, state["version"] + 1)
        for ws in (*players, spectator):
            await ws.close()
        return state["version"] + 1, seen

    version, seen = run_in_thread(run())
    assert seen["version"] == version and seen["seat"] is None and "rack" not in seen["view"]


def test_a_table_opened_on_one_process_appears_in_the_lobby_of_the_other(servers):
    a, b = servers

    async def run() -> tuple[int, list[int]]:
        lobby = await connect(f"ws://{b}/ws/lobby/", origin=f"http://{b}", proxy=None)
        assert json.loads(await lobby.recv())["type"] == "tables"
        landed = await asyncio.get_running_loop().run_in_executor(
            None, lambda: Visitor(a).post("/play/now/", game="tile-rummy", level="easy")
        )
        table_id = table_of(landed)

        async def until_listed() -> list[int]:
            seen = []
            while table_id not in seen:
                frame = json.loads(await lobby.recv())
                if frame["type"] == "table" and frame["entry"] is not None:
                    seen.append(frame["id"])
            return seen

        seen = await asyncio.wait_for(until_listed(), 60)
        await lobby.close()
        return table_id, seen

    table_id, seen = run_in_thread(run())
    assert table_id in seen


def ban_seat_of(table_id: int) -> None:
    """A moderator's ban, saved by another process of the site (as the admin on another replica)."""
    script = (
        "from datetime import timedelta; from django.utils import timezone; "
        "from apps.accounts import services; from apps.tables.models import Seat; "
        f"seat = Seat.objects.get(table_id={table_id}, index=0); "
        "services.user_ban(user_id=seat.user_id, until=timezone.now() + timedelta(days=1), reason='drill')"
    )
    subprocess.run([sys.executable, "manage.py", "shell", "-c", script], cwd=ROOT, env=SITE_ENV, check=True,
                   capture_output=True, timeout=120)


def test_a_ban_saved_anywhere_closes_the_users_sockets_on_every_process(servers):
    a, b = servers
    player = Visitor(a)
    player.post("/accounts/guest/")
    table_id = table_of(player.post("/play/now/", game="tile-rummy", level="easy"))

    async def run() -> list[int]:
        sockets = [await connect(f"ws://{url}/ws/tables/{table_id}/", origin=f"http://{url}",
                                 additional_headers=[("Cookie", player.cookie)], proxy=None) for url in (a, b)]
        for ws in sockets:
            await until_state(ws, 0)
        await asyncio.get_running_loop().run_in_executor(None, ban_seat_of, table_id)

        async def close_code(ws) -> int:  # type: ignore[no-untyped-def]
            try:
                while True:
                    await ws.recv()
            except websockets.ConnectionClosed as closed:
                return closed.rcvd.code if closed.rcvd is not None else -1

        return [await asyncio.wait_for(close_code(ws), 60) for ws in sockets]

    assert run_in_thread(run()) == [4403, 4403]


async def until_frame(ws, kind: str, ceiling: float = 30.0, **fields: object) -> dict:  # type: ignore[no-untyped-def]
    async def wait() -> dict:
        while True:
            frame = json.loads(await ws.recv())
            if frame["type"] == kind and all(frame.get(key) == value for key, value in fields.items()):
                return frame

    return await asyncio.wait_for(wait(), ceiling)


def test_a_player_on_one_process_sees_the_other_go_away_and_come_back_and_hears_their_chat(servers):
    """Presence and chat cross processes by the bus: the host's socket is on the first process, the
    guest's on the second."""
    a, b = servers
    host, guest, table_id = two_guests_at_a_table(a)
    query = "?chat=1&presence=1"

    async def run() -> tuple[dict, dict, dict, dict]:
        mine = await connect(f"ws://{a}/ws/tables/{table_id}/{query}", origin=f"http://{a}",
                             additional_headers=[("Cookie", host.cookie)], proxy=None)
        await until_frame(mine, "chat_history")
        theirs = await connect(f"ws://{b}/ws/tables/{table_id}/{query}", origin=f"http://{b}",
                               additional_headers=[("Cookie", guest.cookie)], proxy=None)
        await until_frame(theirs, "chat_history")
        here = await until_frame(mine, "presence", away=[])
        await theirs.send(json.dumps({"type": "chat", "phrase": "gl"}))
        heard = await until_frame(mine, "chat")
        await theirs.close()
        gone = await until_frame(mine, "presence", away=[1])
        again = await connect(f"ws://{b}/ws/tables/{table_id}/{query}", origin=f"http://{b}",
                              additional_headers=[("Cookie", guest.cookie)], proxy=None)
        back = await until_frame(mine, "presence", away=[])
        for ws in (mine, again):
            await ws.close()
        return here, heard, gone, back

    here, heard, gone, back = run_in_thread(run())
    assert heard["message"]["phrase"] == "gl" and heard["message"]["seat"] == 1
    assert here["away"] == [] and gone["away"] == [1] and back["away"] == []
