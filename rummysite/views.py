"""Site-level pages: the home page and the health check."""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from apps.catalog.data import CATALOG

CHECK_TIMEOUT = 3.0


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"games": CATALOG})


def _check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        if cursor.fetchone() != (1,):
            raise RuntimeError("SELECT 1 returned something else")


async def _check_channel_layer() -> None:
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer configured")
    channel = await layer.new_channel("healthz.")
    token = uuid.uuid4().hex
    await layer.send(channel, {"type": "healthz", "token": token})
    message = await layer.receive(channel)
    if message.get("token") != token:
        raise RuntimeError("the channel layer returned another message")


def _check_broker() -> None:
    from rummysite.celery import app

    with app.connection_for_write() as conn:
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
        "channel_layer": await _timed(_check_channel_layer),
        "broker": await _timed(sync_to_async(_check_broker)),
    }
    ok = all(check["ok"] for check in checks.values())
    return JsonResponse({"ok": ok, "checks": checks}, status=200 if ok else 503)
