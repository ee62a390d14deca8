"""What the sockets' owner gate costs (apps/live/owners.py), and how soon a ban reaches an open socket,
in-process through the ASGI application (no daphne), on a throwaway SQLite database.

    .venv/bin/python bench/socket_gate.py [--sockets 200] [--bans 20]      # add REDIS_URL=... for Redis

Prints: the median and 95th percentile of a `/ws/ping/` handshake plus one ping (the gate counts the
socket per address, and per user when signed in: in memory, or in Redis with REDIS_URL), and of the
time from a ban's commit to its socket's 4403 close.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sockets", type=int, default=200)
    parser.add_argument("--bans", type=int, default=20)
    args = parser.parse_args()
    directory = tempfile.mkdtemp(prefix="rummy-gate-")
    os.environ.update(DATABASE_URL=f"sqlite:///{directory}/gate.sqlite3", DJANGO_SETTINGS_MODULE="rummysite.settings",
                      SECRET_KEY=os.environ.get("SECRET_KEY", "bench-" + "x" * 50), DEBUG="1", CELERY_EMBEDDED="0",
                      LOG_LEVEL="WARNING", LIVE_SOCKETS_PER_ADDRESS="100000", LIVE_SOCKETS_PER_USER="100000",
                      TABLE_WEB_HEARTBEAT="0")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator

    from apps.accounts import services as accounts
    from apps.accounts.models import User
    from rummysite.asgi import application
    from tests.tables.test_consumers import HOST, ORIGIN, session_cookie

    async def handshakes() -> list[float]:
        took = []
        for _ in range(args.sockets):
            started = time.perf_counter()
            socket = WebsocketCommunicator(application, "/ws/ping/", headers=[HOST, ORIGIN])
            await socket.connect(timeout=30)
            await socket.send_json_to({"type": "ping"})
            await socket.receive_from(timeout=30)
            took.append(time.perf_counter() - started)
            await socket.disconnect()
        return took

    async def bans() -> list[float]:
        from datetime import timedelta

        from django.utils import timezone

        took = []
        for index in range(args.bans):
            user = await sync_to_async(User.objects.create_user)(username=f"gate{index}", password="x")
            cookie = await sync_to_async(session_cookie)(user)
            socket = WebsocketCommunicator(application, "/ws/lobby/", headers=[HOST, ORIGIN, (b"cookie", cookie)])
            await socket.connect(timeout=30)
            await socket.receive_from(timeout=30)
            until = timezone.now() + timedelta(days=1)
            await sync_to_async(accounts.user_ban)(user_id=user.pk, until=until, reason="bench")
            committed = time.perf_counter()
            while True:
                output = await socket.receive_output(timeout=30)
                if output["type"] == "websocket.close":
                    break
            took.append(time.perf_counter() - committed)
        return took

    shaken = asyncio.run(handshakes())
    banned = asyncio.run(bans())
    bus = "Redis" if os.environ.get("REDIS_URL") else "in-process"
    print(json.dumps({
        "bus": bus,
        "handshake_and_ping_ms": {"median": round(statistics.median(shaken) * 1000, 2),
                                  "p95": round(percentile(shaken, 0.95) * 1000, 2), "n": len(shaken)},
        "ban_commit_to_close_ms": {"median": round(statistics.median(banned) * 1000, 2),
                                   "p95": round(percentile(banned, 0.95) * 1000, 2), "n": len(banned)},
        "load_average": os.getloadavg()[0],
    }, indent=1))


if __name__ == "__main__":
    main()
