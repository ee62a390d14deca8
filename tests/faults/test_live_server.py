"""Against a real daphne process (the channels testing communicator skips the server): a frame over
the cap or the rate closes with 1008 as the protocol says (daphne's autobahn refuses to send 1008
from an application unless the endpoints let it: apps/live/daphne.py), a WebSocket stays open through a
quiet spell longer than redis-py's default 5 s read timeout (it used to end sockets with 1011 on the
old channel layer; the live bus's subscriber must not either), and a crowd connecting at once gets in."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.live_site import daphne, migrate, problems_in
from tests.live_site import run as run_in_thread

websockets = pytest.importorskip("websockets")
from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """daphne on a free port, on its own SQLite file, and on this run's Redis when there is one (CI)."""
    directory = tmp_path_factory.mktemp("live")
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DJANGO_SETTINGS_MODULE", "SECRET_KEY"}}
    # No web heartbeat: it would land in the suite's own cache (CI's Redis), and once this server is
    # gone the tests' turn timeouts would be held as if the site were down.
    # The crowd below comes from one address (127.0.0.1): more sockets than SPEC 11's 50 per address.
    env.update(DATABASE_URL=f"sqlite:///{directory / 'site.sqlite3'}", CELERY_EMBEDDED="0", LOG_LEVEL="WARNING",
               PYTHONUNBUFFERED="1", TABLE_WEB_HEARTBEAT="0", LIVE_SOCKETS_PER_ADDRESS="1000")
    migrate(env)
    log = directory / "daphne.log"
    with daphne(env, log) as url:
        yield url, log
    assert problems_in(log) == [], log.read_text()[-3000:]


async def lobby(url: str):  # type: ignore[no-untyped-def]
    ws = await connect(f"ws://{url}/ws/lobby/", origin=f"http://{url}", proxy=None, compression=None)
    assert json.loads(await ws.recv())["type"] == "tables"
    return ws


def test_a_frame_over_the_cap_closes_the_socket_with_1008_through_daphne(server):
    url, _ = server

    async def run() -> tuple[dict, int | None]:
        ws = await lobby(url)
        await ws.send(json.dumps({"type": "sync", "pad": "x" * 9000}))
        reply = json.loads(await ws.recv())
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), 10)
        return reply, closed.value.rcvd.code if closed.value.rcvd else None

    reply, code = run_in_thread(run())
    assert reply["code"] == "too_big"
    assert code == 1008


def test_a_flood_closes_the_socket_with_1008_through_daphne(server):
    url, _ = server

    async def run() -> tuple[list[str], int | None]:
        ws = await lobby(url)
        for _ in range(60):
            await ws.send(json.dumps({"type": "ping"}))
        codes = []
        try:
            while True:
                codes.append(json.loads(await asyncio.wait_for(ws.recv(), 10)).get("code"))
        except ConnectionClosed as closed:
            return codes, closed.rcvd.code if closed.rcvd else None

    codes, code = run_in_thread(run())
    assert codes[-1] == "rate_limited" and code == 1008


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="the quiet spell matters on the Redis bus")
def test_a_socket_stays_open_through_a_quiet_spell_longer_than_redis_read_timeout(server):
    url, _ = server

    async def run() -> dict:
        ws = await lobby(url)
        await asyncio.sleep(7)  # nothing published meanwhile
        await ws.send(json.dumps({"type": "ping"}))
        return json.loads(await asyncio.wait_for(ws.recv(), 10))

    assert run_in_thread(run())["type"] == "pong"


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="the crowd matters on the Redis bus")
def test_many_sockets_connecting_at_once_all_get_in(server):
    """A crowd connecting to one process together (as after a restart) all get in (redis-py's pool once
    refused commands beyond 100 connections in use at once, and closed sockets with 1011)."""
    url, _ = server

    async def run() -> int:
        sockets = await asyncio.gather(*(lobby(url) for _ in range(150)))
        await asyncio.gather(*(ws.close() for ws in sockets))
        return len(sockets)

    assert run_in_thread(run()) == 150
