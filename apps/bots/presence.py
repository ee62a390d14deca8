"""Which bot accounts are online: a socket of theirs is open (SPEC 14: the lobby's invite search offers
these first).

Each web process counts the open token sockets of each bot account (apps/bots/asgi.py calls `arrived`
and `departed`) and keeps a key per online bot in the cache, refreshed every REFRESH_SECONDS and living
ONLINE_SECONDS, so a process that dies takes its bots offline within a minute. A bot whose last socket of
one process closes is taken offline at once; if it still has a socket in another process, that process's
next refresh brings it back (within REFRESH_SECONDS): presence, not a ledger.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import Counter
from collections.abc import Iterable

from django.core.cache import cache

from apps.live.threads import off_loop

log = logging.getLogger(__name__)

ONLINE_SECONDS = 60
REFRESH_SECONDS = 20.0

#: This process's open token sockets per bot account (called from the sockets' threads: under the lock).
_open: Counter[int] = Counter()
_lock = threading.Lock()


def key(user_id: int) -> str:
    return f"bots:online:{user_id}"


def arrived(user_id: int) -> None:
    with _lock:
        _open[user_id] += 1
    cache.set(key(user_id), time.time(), timeout=ONLINE_SECONDS)


def departed(user_id: int) -> None:
    with _lock:
        _open[user_id] -= 1
        last = _open[user_id] <= 0
        if last:
            del _open[user_id]
    if last:
        cache.delete(key(user_id))


def online(user_ids: Iterable[int]) -> set[int]:
    """Which of these bot accounts have a socket open somewhere (one cache round trip)."""
    wanted = {user_id: key(user_id) for user_id in user_ids}
    if not wanted:
        return set()
    found = cache.get_many(list(wanted.values()))
    return {user_id for user_id, name in wanted.items() if name in found}


def refresh() -> None:
    with _lock:
        here = list(_open)
    if here:
        now = time.time()
        cache.set_many({key(user_id): now for user_id in here}, timeout=ONLINE_SECONDS)


async def refresh_forever() -> None:
    """Runs in each web process's loop (started by apps.live.loop, see BotsConfig.ready)."""
    while True:
        await asyncio.sleep(REFRESH_SECONDS)
        try:
            await off_loop(refresh)()
        except Exception as error:  # the cache is away for a moment: the next round tries again
            log.warning("Could not refresh the online bot accounts: %s", error)
