"""A burst of page requests leaves a web process within its documented bound of PostgreSQL connections
(docs/operations.md, "Scale": TABLES_DB_THREADS + HTTP_CONCURRENCY + 1), during the burst and after it
(issue 40, section 6: with CONN_MAX_AGE=300 every request thread kept its own idle connection; a burst
took all of the server's, and then /accounts/guest/ answered 500). On PostgreSQL only: a real daphne
process on a database of its own, counted from pg_stat_activity (rummysite/connections.py)."""

from __future__ import annotations

import os
import urllib.parse
from pathlib import Path

import pytest

from bench.page_connections import (
    ConnectionCounter,
    burst,
    create_database,
    daphne,
    drop_database,
    pages,
    prepare,
    server_env,
)
from tests.live_site import free_port

DATABASE_URL = os.environ.get("DATABASE_URL", "")
pytestmark = pytest.mark.skipif(not DATABASE_URL.startswith("postgres"), reason="counts PostgreSQL's connections")

TABLES_DB_THREADS, HTTP_CONCURRENCY = 4, 8  # the defaults (rummysite/settings.py)
BOUND = TABLES_DB_THREADS + HTTP_CONCURRENCY + 1


@pytest.fixture
def server(tmp_path: Path):  # type: ignore[no-untyped-def]
    url = urllib.parse.urlsplit(DATABASE_URL)
    maintenance = url._replace(path="/postgres").geturl()
    database = f"{url.path.lstrip('/')}_pages_{os.getpid()}"[:63]
    redis = urllib.parse.urlsplit(os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0")
    env = server_env(database, int(redis.path.lstrip("/") or 0), tmp_path / "static", CONN_MAX_AGE="300",
                     DATABASE_POOL="0")
    env["DATABASE_URL"] = url._replace(path=f"/{database}").geturl()
    env["REDIS_URL"] = redis.geturl()
    env.pop("LIVE_BUS_CHANNEL", None)
    create_database(database, maintenance)
    try:
        prepare(env)
        port = free_port()
        with daphne(env, port, tmp_path / "daphne.log"):
            yield port, ConnectionCounter(database, maintenance)
    finally:
        drop_database(database, maintenance)


def test_two_hundred_concurrent_page_requests_stay_within_the_connection_bound(server):
    port, counter = server
    with counter:
        statuses = pages(port, 200, "/play/")
    assert statuses.count(200) == 200, sorted(set(statuses))
    assert 1 <= counter.peak <= BOUND, counter.peak
    with counter:
        times, statuses = burst(port, 40)  # 40 guests sign up at once: the lobby, the sign-up, the next page
    assert len(statuses) == 120 and all(status < 400 for status in statuses), sorted(set(statuses))
    assert counter.peak <= BOUND, counter.peak
    assert counter.count() <= 1  # nothing of the requests is kept (the one: asgiref's thread, if it ran)
