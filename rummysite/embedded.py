"""Celery inside the web process, for the embedded default (no Redis, no separate worker).

One worker thread (solo pool) consumes the in-memory broker and one beat thread runs the periodic
tasks. Countdown tasks (turn timers, bot delays) are held by the worker until they are due. Everything
here is per process: run a single daphne process with it. Deadlines live in the database, so a periodic
sweep catches what a restart lost.
"""

from __future__ import annotations

import logging
import threading

from celery.beat import EmbeddedService
from django.conf import settings

from rummysite.celery import app

log = logging.getLogger(__name__)

_lock = threading.Lock()
_started = False


def start_embedded_worker() -> bool:
    """Start the worker and beat threads once. Returns True if this call started them."""
    global _started
    if _started:  # the fast path: called on every connection
        return False
    with _lock:
        if _started:
            return False
        _started = True

    # Build everything in a thread of its own: Celery's Django fixup touches the database connections
    # while it sets the worker up, which Django forbids from the server's event loop thread.
    threading.Thread(target=_run, name="celery-embedded-worker", daemon=True).start()
    return True


def _run() -> None:
    app.loader.import_default_modules()
    beat = EmbeddedService(app, thread=True, schedule_filename=settings.CELERY_BEAT_SCHEDULE_FILENAME)
    assert isinstance(beat, threading.Thread)  # thread=True: a thread, not a process
    beat.start()
    worker = app.WorkController(
        pool_cls="solo",
        concurrency=1,
        without_heartbeat=True,
        without_mingle=True,
        without_gossip=True,
        hostname="embedded@localhost",
        loglevel="WARNING",
    )
    log.info("Embedded Celery worker and beat starting")
    worker.start()  # blocks: this thread is the worker
