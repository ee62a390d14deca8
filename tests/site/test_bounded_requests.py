"""At most HTTP_CONCURRENCY requests are inside Django at once, and a request's database connection is
closed when it ends (rummysite/connections.py; issue 40, section 6). tests/site/test_page_connections.py
counts a real process's connections on PostgreSQL."""

from __future__ import annotations

import asyncio

from django.conf import settings

from rummysite import asgi
from rummysite.connections import Bounded


async def test_no_more_than_the_limit_of_requests_run_at_once_and_the_rest_wait():
    running, most = 0, 0

    async def app(scope, receive, send):  # type: ignore[no-untyped-def]
        nonlocal running, most
        running += 1
        most = max(most, running)
        await asyncio.sleep(0.01)
        running -= 1

    bounded = Bounded(app, 3)
    await asyncio.gather(*(bounded({"type": "http", "path": "/play/"}, None, None) for _ in range(20)))
    assert most == 3 and running == 0


async def test_livez_is_never_kept_waiting():
    entered = asyncio.Event()
    release = asyncio.Event()

    async def app(scope, receive, send):  # type: ignore[no-untyped-def]
        if scope["path"] == "/livez":
            entered.set()
            return
        await release.wait()

    bounded = Bounded(app, 1)
    busy = asyncio.ensure_future(bounded({"type": "http", "path": "/play/"}, None, None))
    await asyncio.sleep(0)
    await asyncio.wait_for(bounded({"type": "http", "path": "/livez"}, None, None), 10)
    assert entered.is_set()
    release.set()
    await busy


def test_the_site_bounds_its_http_requests_by_the_setting():
    http = asgi.router.app.app.application_mapping["http"]  # TrustedProxyMiddleware > SocketCounter > router
    assert isinstance(http, Bounded) and http.limit == settings.HTTP_CONCURRENCY == 8
