"""Whether a player has a socket open at a table, on any web process (SPEC 17: no push then).

Every table socket of a signed-in player counts itself in the shared cache (Redis on the real stack,
so the count is across processes; the process's own memory on the embedded default, which is the
whole site) under one key per table and player: up when it opens, down when it closes. The key lives
KEY_SECONDS and each open socket renews it every RENEW_SECONDS, so a process that died with sockets
open leaves a count that is gone within KEY_SECONDS (meanwhile that player gets no push at that table,
which is the safe side: they had it open a moment ago).
"""

from __future__ import annotations

import asyncio
import logging

from django.core.cache import cache

from apps.live.threads import db, off_loop
from apps.notifications.services import read_at_table
from apps.tables.parts import SocketPart

log = logging.getLogger(__name__)

KEY_SECONDS = 600
RENEW_SECONDS = 120


def here_key(table_id: int, user_id: int) -> str:
    return f"notifications:here:{table_id}:{user_id}"


def arrived(table_id: int, user_id: int) -> None:
    key = here_key(table_id, user_id)
    cache.add(key, 0, KEY_SECONDS)
    try:
        cache.incr(key)
    except ValueError:  # it expired between the two calls
        cache.set(key, 1, KEY_SECONDS)
    cache.touch(key, KEY_SECONDS)


def left(table_id: int, user_id: int) -> None:
    key = here_key(table_id, user_id)
    try:
        if cache.decr(key) <= 0:
            cache.delete(key)
    except ValueError:  # gone already (expired): nothing to take away
        pass


def renew(table_id: int, user_id: int) -> None:
    if not cache.touch(here_key(table_id, user_id), KEY_SECONDS):
        arrived(table_id, user_id)  # expired under an open socket (the cache was flushed): count it again


def is_at_table(table_id: int, user_id: int) -> bool:
    """Whether the player has a socket open at the table now (any process)."""
    count = cache.get(here_key(table_id, user_id))
    return isinstance(count, int) and count > 0


class TablePresencePart(SocketPart):
    """Counts a signed-in player's table socket while it is open (no frames of its own), and reads the
    player's notifications of that table: they are at it now."""

    renewing: asyncio.Task[None] | None = None

    async def opened(self) -> None:
        user_id = self.socket.user_id
        if user_id is None:
            return
        try:
            await off_loop(arrived)(self.socket.table_id, user_id)
        except Exception as error:  # the cache is away: a push may go to an open page, nothing worse
            log.warning("Could not count a socket at table %s: %s", self.socket.table_id, error)
            return
        self.renewing = asyncio.ensure_future(self._renew(self.socket.table_id, user_id))
        await db(read_at_table)(user_id=user_id, table_id=self.socket.table_id)

    async def _renew(self, table_id: int, user_id: int) -> None:
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            try:
                await off_loop(renew)(table_id, user_id)
            except Exception as error:
                log.warning("Could not renew a socket's count at table %s: %s", table_id, error)

    async def closed(self) -> None:
        if self.renewing is None:
            return
        self.renewing.cancel()
        user_id = self.socket.user_id
        assert user_id is not None
        try:
            await off_loop(left)(self.socket.table_id, user_id)
        except Exception as error:
            log.warning("Could not uncount a socket at table %s: %s", self.socket.table_id, error)
