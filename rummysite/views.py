"""Site-level pages: the home page and the health check."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from asgiref.sync import sync_to_async
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from apps.catalog.data import CATALOG
from apps.live.bus import RedisBus, bus
from rummysite.celery import app as celery_app

CHECK_TIMEOUT = 3.0


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"games": CATALOG})


def _check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        if cursor.fetchone() != (1,):
            raise RuntimeError("SELECT 1 returned something else")


def _check_live_bus() -> None:
    """The live bus reaches Redis (on the embedded default it is the process itself: nothing to check)."""
    found = bus()
    if isinstance(found, RedisBus) and not found.client.ping():
        raise RuntimeError("Redis did not answer PING")


def _check_broker() -> None:
    with celery_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=CHECK_TIMEOUT)


async def _timed(check: Any) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        await asyncio.wait_for(check(), CHECK_TIMEOUT)
    except Exception as exc:  # a health check reports every failure, whatever it is
        status: dict[str, Any] = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
    else:
        status = {"ok": True}
    status["ms"] = round((time.perf_counter() - started) * 1000, 1)
    return status


async def healthz(request: HttpRequest) -> JsonResponse:
    """JSON with one entry per dependency; HTTP 503 if any of them fails."""
    checks = {
        "database": await _timed(sync_to_async(_check_database)),
        "live_bus": await _timed(sync_to_async(_check_live_bus)),
        "broker": await _timed(sync_to_async(_check_broker)),
    }
    ok = all(check["ok"] for check in checks.values())
    return JsonResponse({"ok": ok, "checks": checks}, status=200 if ok else 503)
