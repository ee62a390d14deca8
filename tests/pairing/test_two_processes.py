"""Two web processes (daphne) on one PostgreSQL database and one Redis share one pool (SPEC 15): a guest
waits on the first, a guest of the second presses the same pool, the second process runs the wave, and
the first guest's waiting socket (on the first process) is told the table through the Redis bus.
Skipped without PostgreSQL and Redis (the suite's real stack)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import urllib.parse
from collections.abc import Iterator
from contextlib import ExitStack

import pytest

from tests.faults.test_two_servers import Visitor
from tests.live_site import daphne, migrate
from tests.live_site import run as run_in_thread

websockets = pytest.importorskip("websockets")
psycopg = pytest.importorskip("psycopg")
from websockets.asyncio.client import connect  # noqa: E402

DATABASE_URL = os.environ.get("DATABASE_URL", "")
REDIS_URL = os.environ.get("REDIS_URL", "")
pytestmark = pytest.mark.skipif(
    not (DATABASE_URL.startswith("postgres") and REDIS_URL), reason="two processes on PostgreSQL and Redis"
)
POOL = "tile-rummy/2/60/casual"


def site_database() -> str:
    """A database of the site's own beside the run's (its name the run's with `_pairing_site`), made anew."""
    url = urllib.parse.urlsplit(DATABASE_URL)
    name = url.path.lstrip("/") + "_pairing_site"
    admin = url._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    return url._replace(path=f"/{name}").geturl()


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[str]]:
    directory = tmp_path_factory.mktemp("pairing")
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DJANGO_SETTINGS_MODULE", "SECRET_KEY"}}
    env.update(DATABASE_URL=site_database(), REDIS_URL=REDIS_URL, CELERY_EMBEDDED="0", LOG_LEVEL="WARNING",
               PYTHONUNBUFFERED="1", TABLE_WEB_HEARTBEAT="0", LIVE_BUS_CHANNEL=f"rummy-live:pairing:{os.getpid()}",
               GUESTS_PER_ADDRESS_PER_HOUR="100000", GUESTS_PER_ADDRESS_BURST="100000",
               # No beat here: the second join runs the wave at once (a pool of two is full enough).
               PAIRING_AT_ONCE="2")
    migrate(env)
    with ExitStack() as stack:
        yield [stack.enter_context(daphne(env, directory / f"daphne-{name}.log")) for name in ("a", "b")]


def test_two_processes_share_one_pool_and_the_waiting_socket_hears_its_table(servers):
    a, b = servers
    waiting, arriving = Visitor(a), Visitor(b)
    assert waiting.post("/play/quick/join/", pool=POOL).endswith("/play/quick/wait/")
    found: dict[str, object] = {}

    async def run() -> None:
        ws = await connect(f"ws://{a}/ws/pairing/", origin=f"http://{a}",
                           additional_headers=[("Cookie", waiting.cookie)], proxy=None)
        while True:  # the waiting screen's facts first: one waits in the pool
            frame = json.loads(await ws.recv())
            if frame["type"] == "waiting":
                found["count"] = frame["count"]
                break
        # The other guest presses the same pool on the other process; its wave seats both.
        found["landed"] = await asyncio.to_thread(arriving.post, "/play/quick/join/", pool=POOL)
        while True:
            frame = json.loads(await ws.recv())
            if frame["type"] == "paired":
                found["paired"] = frame
                break
        await ws.close()

    try:
        run_in_thread(run(), ceiling=120.0)
    except TimeoutError:
        raise AssertionError(f"the waiting socket did not hear its table: {found}") from None
    assert found["count"] == 1
    table = re.search(r"/t/(\d+)/", str(found["landed"]))
    assert table, found["landed"]
    assert found["paired"]["url"] == f"/t/{table.group(1)}/"  # type: ignore[index]
