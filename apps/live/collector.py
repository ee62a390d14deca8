"""Short pauses of the garbage collector in a web process that holds many sockets.

Python's cyclic collector, in a full collection, walks every container object of the process while it
holds the GIL: nothing else of the process runs meanwhile. A web process with 1,225 open sockets holds
about 350,000 of them (each socket's protocol, session and queues, beside the 118,000 of the modules),
and on the bench machine a full collection took 110-340 ms, once every 5-20 seconds: the p99 of
move-to-broadcast at 250 tables was those pauses (bench/README.md, "Pauses of the garbage collector").

Objects that live as long as the process or a socket need not be walked every few seconds, so each
server loop (`keep_collections_short`, started by the ASGI entry point):

- collects once at its start and freezes what is left (`gc.freeze()`: a generation the collector never
  walks);
- every LIVE_GC_FREEZE_SECONDS freezes what survived since, so the automatic collections walk only what
  is younger than that;
- every LIVE_GC_FULL_SECONDS unfreezes everything and makes one full collection, so the garbage cycles
  of frozen objects (the sockets closed since, mostly) are freed: one long pause each period instead of
  one every few seconds. Memory held by such garbage is bounded by what the sockets closed in a period
  leave.

LIVE_GC_FREEZE_SECONDS = 0 leaves the collector as Python has it (the tests' default: their processes
open and close many loops): the task is then not started at all. LIVE_GC_LOG_MS > 0 logs every
collection that took longer (`watch_slow_collections`, a diagnostic).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)


def freeze() -> None:
    """Move every object the collector tracks out of its reach (until `full_collection`)."""
    gc.freeze()


def full_collection() -> tuple[int, float]:
    """Unfreeze, collect everything, freeze what is left: (objects freed, seconds taken)."""
    started = time.perf_counter()
    gc.unfreeze()
    freed = gc.collect()
    gc.freeze()
    return freed, time.perf_counter() - started


def wanted() -> bool:
    """Is the loop task on (LIVE_GC_FREEZE_SECONDS > 0)? A background task of the loop must run for as
    long as the loop does: apps/live/loop.py starts one that has ended again at the next connection."""
    return float(settings.LIVE_GC_FREEZE_SECONDS) > 0


async def keep_collections_short() -> None:
    """The loop's background task: freeze every LIVE_GC_FREEZE_SECONDS, a full collection every
    LIVE_GC_FULL_SECONDS (see the module's docstring). Start it only if `wanted()`."""
    freeze_every = float(settings.LIVE_GC_FREEZE_SECONDS)
    if freeze_every <= 0:
        raise ValueError("LIVE_GC_FREEZE_SECONDS is 0: the collector is Python's own, no task is needed")
    full_every = max(freeze_every, float(settings.LIVE_GC_FULL_SECONDS))
    freed, took = full_collection()
    log.info("Collected %s objects and froze %s (%.0f ms)", freed, gc.get_freeze_count(), took * 1000)
    last_full = time.monotonic()
    while True:
        await asyncio.sleep(freeze_every)
        if time.monotonic() - last_full >= full_every:
            freed, took = full_collection()
            last_full = time.monotonic()
            log.info("Full collection: %s objects freed, %s kept (%.0f ms)", freed, gc.get_freeze_count(), took * 1000)
        else:
            freeze()


def watch_slow_collections(threshold_ms: float) -> None:
    """Log each collection that takes longer than `threshold_ms` (0: none is watched). Once per process
    (the ASGI entry point calls it)."""
    if threshold_ms <= 0:
        return
    started = [0.0]

    def callback(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
            return
        took = (time.perf_counter() - started[0]) * 1000
        if took > threshold_ms:
            log.warning(
                "A collection of generation %s took %.1f ms (%s freed, %s frozen)",
                info["generation"], took, info["collected"], gc.get_freeze_count(),
            )

    gc.callbacks.append(callback)
