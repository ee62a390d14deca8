"""Site-level pages: the home page, the health endpoints and the metrics.

- /livez: the process answers (no dependency is asked): for a supervisor deciding to restart it.
- /readyz: the database, the live bus and the broker answer: for a proxy or an orchestrator
  deciding to send traffic. 503 when any of them fails. (/healthz is the same, kept for old checks.)
- /metrics: Prometheus text (rummysite/metrics.py).

Which dependency failed, and how, is shown only to staff, to a caller with the metrics token, and to
the internal networks (settings.INTERNAL_NETWORKS: the containers' own healthchecks, Prometheus);
anyone else learns only whether the site is ready. The metrics are refused to them altogether.
"""

from __future__ import annotations

import asyncio
import hmac
import time
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from apps.catalog.data import CATALOG
from apps.lib.client_address import client_address, in_networks, networks
from apps.live.bus import RedisBus, bus
from rummysite import metrics
from rummysite.celery import app as celery_app

CHECK_TIMEOUT = 3  # seconds, whole: kombu's ensure_connection takes an int


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"games": CATALOG})


# --- Who may see the internals ---------------------------------------------------------------------


def _has_metrics_token(request: HttpRequest) -> bool:
    token = getattr(settings, "METRICS_TOKEN", None)
    given = request.headers.get("Authorization", "")
    return bool(token) and hmac.compare_digest(given.encode(), f"Bearer {token}".encode())


async def may_see_internals(request: HttpRequest) -> bool:
    """Staff, the metrics token, or a client address in the internal networks (after the proxy rule)."""
    if _has_metrics_token(request):
        return True
    if in_networks(client_address(request), networks(settings.INTERNAL_NETWORKS)):
        return True
    user = await request.auser()
    return bool(user.is_authenticated and user.is_staff)


# --- Health ----------------------------------------------------------------------------------------


def _check_database() -> None:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            if cursor.fetchone() != (1,):
                raise RuntimeError("SELECT 1 returned something else")
    finally:
        connection.close()  # a connection that failed must not be kept; a good one is cheap to open


def _check_live_bus() -> None:
    """The live bus reaches Redis (on the embedded default it is the process itself: nothing to check)."""
    found = bus()
    if isinstance(found, RedisBus) and not found.ping():
        raise RuntimeError("Redis did not answer PING")


def _check_broker() -> None:
    with celery_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=CHECK_TIMEOUT)


async def _timed(check: Callable[[], Awaitable[None]]) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        await asyncio.wait_for(check(), CHECK_TIMEOUT)
    except Exception as exc:  # a health check reports every failure, whatever it is
        status: dict[str, Any] = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
    else:
        status = {"ok": True}
    status["ms"] = round((time.perf_counter() - started) * 1000, 1)
    return status


async def livez(request: HttpRequest) -> JsonResponse:
    """200 whenever the process can answer at all: nothing else is asked."""
    return JsonResponse({"ok": True})


async def readyz(request: HttpRequest) -> JsonResponse:
    """200 if the database, the live bus (Redis pub/sub, which carries every table's changes) and the
    broker all answer, else 503; the details (which check, how long, what error) only for those who may
    see the internals. The checks run at once, each in a thread of its own: a stuck one never holds up
    the thread the site's synchronous views run in."""
    checks = dict(
        zip(
            ("database", "live_bus", "broker"),
            await asyncio.gather(
                _timed(sync_to_async(_check_database, thread_sensitive=False)),
                _timed(sync_to_async(_check_live_bus, thread_sensitive=False)),
                _timed(sync_to_async(_check_broker, thread_sensitive=False)),
            ),
            strict=True,
        )
    )
    ok = all(check["ok"] for check in checks.values())
    body: dict[str, Any] = {"ok": ok}
    if await may_see_internals(request):
        body["checks"] = checks
    return JsonResponse(body, status=200 if ok else 503)


# --- Metrics ---------------------------------------------------------------------------------------


async def metrics_view(request: HttpRequest) -> HttpResponse:
    """Prometheus text of the process that answers (Prometheus itself scrapes every process on
    METRICS_PORT: docs/operations.md). Refused (404, as if absent) to the public."""
    if not await may_see_internals(request):
        return HttpResponse(status=404)
    body = await sync_to_async(metrics.exposition, thread_sensitive=False)()
    return HttpResponse(body, content_type="text/plain; version=0.0.4; charset=utf-8")
