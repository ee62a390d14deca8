"""Prometheus metrics: the instruments, the small functions the rest of the site records through, and
the serving of a process's own metrics (the ground floor: any app may count here; the site-wide gauges
read from the tables and the broker at scrape time are the site's, rummysite/metrics.py).

What each metric means, and how Prometheus scrapes them, is in docs/operations.md ("Observe"). In short:
every process counts for itself. A daphne process is one process: its metrics are its own, exposed on
METRICS_PORT (for Prometheus, on the internal network only) and at /metrics (for staff, a token or the
internal network, rummysite/views.py). A Celery worker runs its tasks in forked children: with
PROMETHEUS_MULTIPROC_DIR set (docker/compose.yaml does, for the worker) prometheus_client keeps each
child's values in files there, and the worker's main process serves their sum on METRICS_PORT.

Call sites outside this module, one line each (the live path's owner may move them):
- `move_applied` in apps/tables/services/play.py (`apply_and_save`), where a move is applied and the
  table's version raised;
- `table_broadcast` in apps/tables/effects.py (`after_commit`), once the table's new version is published
  on the live bus;
- `SocketCounter` in rummysite/asgi.py; the Celery signals below (lag, failures, the worker's exporter)
  connect themselves when rummysite/celery.py imports this module.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from celery.signals import before_task_publish, task_failure, task_prerun, worker_init, worker_process_shutdown
from django.conf import settings
from django.db import transaction
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, multiprocess
from prometheus_client.exposition import start_http_server
from prometheus_client.registry import REGISTRY

log = logging.getLogger(__name__)

MULTIPROCESS_DIR = os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None

# --- Definitions --------------------------------------------------------------------------------------

MOVES = Counter(
    "rummy_moves", "Moves applied and committed (players, bots, timeouts, autopilot): rate() is moves per second.",
    ["game", "actor"],
)
MOVE_BROADCAST_SECONDS = Histogram(
    "rummy_move_broadcast_seconds",
    "From a move's new table version (the engine has applied it) to that version published on the live bus: database writes, commit, frames, publish.",
    ["game"],
    buckets=(0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
WEBSOCKETS = Gauge(
    "rummy_websockets_connected", "WebSocket connections accepted and still open, in this process.", ["endpoint"],
    multiprocess_mode="livesum",
)
TASK_LAG_SECONDS = Histogram(
    "rummy_celery_task_lag_seconds",
    "From when a task should have started (its ETA, or when it was queued) to when a worker started it.",
    ["task"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0),
)
TASK_FAILURES = Counter(
    "rummy_celery_task_failures", "Tasks that raised. Rating tasks are task=~\".*leaderboards.*\".", ["task"],
)

# --- Recording ----------------------------------------------------------------------------------------

#: Moves applied and not yet broadcast, by (table id, version): their start time and game. Bounded: a move
#: whose transaction rolled back (so never broadcast) ages out.
_pending: OrderedDict[tuple[int, int], tuple[float, str]] = OrderedDict()
_pending_lock = threading.Lock()
PENDING_LIMIT = 10_000


def move_applied(*, table_id: int, version: int, game: str, actor: str) -> None:
    """A move was applied to the table (inside the service's transaction), making `version`. Counted
    when the transaction commits; its latency is measured up to `table_broadcast` of that version."""
    with _pending_lock:
        _pending[(table_id, version)] = (time.perf_counter(), game)
        while len(_pending) > PENDING_LIMIT:
            _pending.popitem(last=False)
    transaction.on_commit(lambda: MOVES.labels(game=game, actor=actor).inc())


def table_broadcast(table_id: int, version: int) -> None:
    """The table's `version` was published to the web processes: if a move made it, observe its latency."""
    with _pending_lock:
        started = _pending.pop((table_id, version), None)
    if started is not None:
        MOVE_BROADCAST_SECONDS.labels(game=started[1]).observe(time.perf_counter() - started[0])


def _endpoint(path: str) -> str:
    if path.startswith("/ws/tables/"):
        return "table"
    if path.startswith("/ws/lobby/"):
        return "lobby"
    return "other"


class SocketCounter:
    """ASGI middleware: counts WebSocket connections from the moment the application accepts one to the
    moment its handler returns (closed by either side), whatever the consumer."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope.get("type") != "websocket":
            await self.app(scope, receive, send)
            return
        gauge = WEBSOCKETS.labels(endpoint=_endpoint(scope.get("path", "")))
        accepted = False

        async def counting_send(message: dict[str, Any]) -> None:
            nonlocal accepted
            await send(message)
            if message.get("type") == "websocket.accept" and not accepted:
                accepted = True
                gauge.inc()

        try:
            await self.app(scope, receive, counting_send)
        finally:
            if accepted:
                gauge.dec()


# --- Celery: lag and failures, from its signals ---------------------------------------------------------

PUBLISHED_HEADER = "rummy_published_at"


@before_task_publish.connect
def _stamp_published(headers: dict[str, Any] | None = None, **kwargs: Any) -> None:
    if headers is not None:
        headers[PUBLISHED_HEADER] = time.time()


def task_lag(request: Any, now: float) -> float | None:
    """Seconds a task started late: after its ETA, or after it was queued if it had none."""
    eta = getattr(request, "eta", None)
    if eta:
        try:
            due = (eta if isinstance(eta, datetime) else datetime.fromisoformat(str(eta))).timestamp()
        except ValueError:
            return None
    else:
        published = getattr(request, PUBLISHED_HEADER, None)
        if published is None:
            published = (getattr(request, "headers", None) or {}).get(PUBLISHED_HEADER)
        if published is None:
            return None
        due = float(published)
    return max(0.0, now - due)


@task_prerun.connect
def _observe_lag(task: Any = None, **kwargs: Any) -> None:
    if task is None:
        return
    lag = task_lag(task.request, time.time())
    if lag is not None:
        TASK_LAG_SECONDS.labels(task=task.name).observe(lag)


@task_failure.connect
def _count_failure(sender: Any = None, **kwargs: Any) -> None:
    TASK_FAILURES.labels(task=getattr(sender, "name", "unknown")).inc()


# --- Serving this process's metrics on METRICS_PORT ------------------------------------------------------


def process_registry() -> CollectorRegistry:
    """This process's metrics, or in multiprocess mode the sum over every process writing to the directory."""
    if MULTIPROCESS_DIR is None:
        return REGISTRY
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=MULTIPROCESS_DIR)
    return registry


_exporter_started = False


def start_exporter(*more: CollectorRegistry) -> bool:
    """Serve this process's metrics, and those of `more` registries (the site's gauges), on
    settings.METRICS_ADDR:METRICS_PORT from a thread, once per process (0: off)."""
    global _exporter_started
    port = int(getattr(settings, "METRICS_PORT", 0) or 0)
    if not port or _exporter_started:
        return False
    registry = _CombinedRegistry(more)
    start_http_server(port, addr=getattr(settings, "METRICS_ADDR", "127.0.0.1"), registry=registry)
    _exporter_started = True
    log.info("Prometheus metrics on %s:%s", getattr(settings, "METRICS_ADDR", "127.0.0.1"), port)
    return True


class _CombinedRegistry:
    """What start_http_server needs of a registry (collect, restricted_registry), over the process's
    registry (read at each scrape: in multiprocess mode it sums the files there now) and `more`."""

    def __init__(self, more: tuple[CollectorRegistry, ...]) -> None:
        self.more = more

    def collect(self) -> Iterator[Any]:
        for registry in (process_registry(), *self.more):
            yield from registry.collect()

    def restricted_registry(self, names: Any) -> Any:
        return self


@worker_init.connect
def _worker_exporter(**kwargs: Any) -> None:
    """The worker's main process serves every child's metrics; files of a previous run are stale."""
    if MULTIPROCESS_DIR is not None and os.path.isdir(MULTIPROCESS_DIR):
        for name in os.listdir(MULTIPROCESS_DIR):
            if name.endswith(".db"):
                os.remove(os.path.join(MULTIPROCESS_DIR, name))
    start_exporter()


@worker_process_shutdown.connect
def _child_gone(pid: int | None = None, **kwargs: Any) -> None:
    if MULTIPROCESS_DIR is not None:
        multiprocess.mark_process_dead(pid or os.getpid(), MULTIPROCESS_DIR)
