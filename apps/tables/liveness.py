"""Downtime and the turn clocks: nobody times out because the site was away (SPEC 5).

Every web process writes a heartbeat (the time, in the cache) every HEARTBEAT_SECONDS while it serves.
The periodic sweep (Celery beat, every 2 s) writes its own. From these two:

- the web tier is *down* when its newest heartbeat is older than WEB_DOWN_AFTER seconds: players cannot
  reach their tables, so turn timeouts are held (`timeouts_on_hold`), and the sweep notes since when;
- the whole stack was down when the sweep finds its own previous heartbeat older than SWEEP_GAP;
- when the web is back, the sweep gives every running turn clock the downtime plus a grace
  (`services.games_extend_deadlines`; lichess gives 10-20 s), once, whichever worker gets there first.

This module reads and writes the cache only; the sweep task (apps/tables/tasks.py) acts on its answers.

Without a heartbeat in the cache (tests, a fresh cache, the embedded default after a restart) nothing is
held and nothing is extended: the tables behave as if the site had always been up.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache

from apps.live.threads import off_loop

log = logging.getLogger(__name__)

WEB_KEY = "tables:web-heartbeat"
SWEEP_KEY = "tables:sweep-heartbeat"
DOWN_KEY = "tables:down-since"
HEARTBEAT_SECONDS = 2.0
WEB_DOWN_AFTER = 8.0
SWEEP_GAP = 10.0
#: Heartbeats expire on their own after a day, so a long-gone stack leaves nothing behind.
KEY_TIMEOUT = 24 * 60 * 60


def grace() -> float:
    return float(getattr(settings, "TABLE_DOWNTIME_GRACE", 15.0))


def web_alive() -> None:
    cache.set(WEB_KEY, time.time(), timeout=KEY_TIMEOUT)


def web_down_since(now: float | None = None) -> float | None:
    """The time of the web tier's last heartbeat, if that is too long ago; None if the web is up (or
    has never written one)."""
    now = time.time() if now is None else now
    last = cache.get(WEB_KEY)
    if last is None or now - float(last) <= WEB_DOWN_AFTER:
        return None
    return float(last)


def timeouts_on_hold() -> bool:
    """Whether turn timeouts must wait: the web is down now, or was and its clocks are not yet given back."""
    try:
        return web_down_since() is not None or cache.get(DOWN_KEY) is not None
    except Exception:  # the cache is unreachable: decide as if it said nothing
        log.warning("The cache is unreachable; turn timeouts are not held")
        return False


def check_downtime(now: float | None = None) -> timedelta | None:
    """Called by the sweep before it runs what is due. Returns how much to extend every running turn
    clock by (the downtime just made up for, plus the grace), once: None if there is nothing to make up,
    or another worker got there first. The sweep task applies it (services.games_extend_deadlines)."""
    now = time.time() if now is None else now
    last_sweep = cache.get(SWEEP_KEY)
    cache.set(SWEEP_KEY, now, timeout=KEY_TIMEOUT)
    down = web_down_since(now)
    if down is not None:
        cache.add(DOWN_KEY, down, timeout=KEY_TIMEOUT)  # first noticed now; kept until the web is back
        return None
    if last_sweep is not None and now - float(last_sweep) > SWEEP_GAP:
        cache.add(DOWN_KEY, float(last_sweep), timeout=KEY_TIMEOUT)  # the sweeper itself was away
    since = cache.get(DOWN_KEY)
    if since is None or not cache.delete(DOWN_KEY):  # nothing to make up, or another worker did it
        return None
    downtime = max(0.0, now - float(since))
    log.warning("The site was down for %.1f s: turn clocks get that plus %.0f s", downtime, grace())
    return timedelta(seconds=downtime + grace())


async def heartbeat() -> None:
    """Runs in each web process's event loop for as long as it serves (started by apps.live.loop)."""
    while True:
        try:
            await off_loop(web_alive)()
        except Exception as error:  # the cache is away for a moment: try again at the next beat
            log.warning("Could not write the web heartbeat: %s", error)
        await asyncio.sleep(HEARTBEAT_SECONDS)
