"""The Celery worker's own process (rummysite/celery.py): its startup heap frozen, and its database
connections kept by Django's rules rather than closed around every task."""

from __future__ import annotations

import gc
import weakref
from types import SimpleNamespace
from typing import Any

from celery.fixups.django import DjangoWorkerFixup
from celery.signals import task_postrun, task_prerun, worker_process_init, worker_ready

from rummysite import celery


def receivers(signal: Any) -> list[Any]:
    return [ref() if isinstance(ref, weakref.ReferenceType) else ref for _, ref in signal.receivers]


def test_a_worker_process_freezes_its_startup_heap():
    """A worker's child (or a solo worker) takes its startup objects out of the collector's reach, once
    it runs: the arena's pairing pass otherwise paid a full collection of them now and then."""
    assert celery._freeze_startup_heap in receivers(worker_process_init)
    assert celery._freeze_startup_heap in receivers(worker_ready)
    gc.unfreeze()
    try:
        assert gc.get_freeze_count() == 0
        celery._freeze_startup_heap(sender=None)
        assert gc.get_freeze_count() > 10_000  # Django and the apps, at the least
    finally:
        gc.unfreeze()


def test_the_worker_keeps_its_database_connections_by_djangos_rules(monkeypatch):
    """Celery's fixup would close every connection around each task (a new PostgreSQL connection per
    task); with CELERY_DB_REUSE_MAX it leaves them, and Django's close_old_connections runs around each
    task instead (CONN_MAX_AGE, health checks) -- but never for a task run eagerly in its caller's
    transaction."""
    assert DjangoWorkerFixup(celery.app).db_reuse_max >= 1_000_000
    assert celery._database_connections_as_a_request in receivers(task_prerun)
    assert celery._database_connections_as_a_request in receivers(task_postrun)
    calls: list[int] = []
    monkeypatch.setattr("django.db.close_old_connections", lambda: calls.append(1))
    celery._database_connections_as_a_request(sender=SimpleNamespace(request=SimpleNamespace(is_eager=False)))
    assert calls == [1]
    celery._database_connections_as_a_request(sender=SimpleNamespace(request=SimpleNamespace(is_eager=True)))
    assert calls == [1]
