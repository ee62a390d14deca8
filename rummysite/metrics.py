"""The site-wide gauges, read when scraped, and what a web process serves (the instruments every app
counts through, and the serving of a process's own metrics, are on the ground floor: apps/lib/metrics.py).

Site-wide figures (open tables, queue length) are read from the database (through the tables' selectors)
and the broker when scraped, by web processes only, so every web replica reports the same value: take
max() across instances. What each metric means is in docs/operations.md ("Observe"). `exposition()` is
what /metrics answers (rummysite/views.py); `start_exporter()` serves the same on METRICS_PORT
(rummysite/asgi.py). A Celery worker serves only its processes' metrics (apps/lib/metrics.py).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

from celery import current_app
from django.db import connections
from kombu.exceptions import ChannelError
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily

from apps.lib import metrics as instruments
from apps.tables.selectors import open_table_counts

log = logging.getLogger(__name__)

# --- Site-wide gauges, read when scraped -----------------------------------------------------------------


class SiteCollector:
    """Open tables (from the database) and the Celery queue's length (from the broker), at scrape time."""

    def describe(self) -> list[GaugeMetricFamily]:
        """The families without their values: registering must not query anything."""
        return [GaugeMetricFamily("rummy_tables_open", ""), GaugeMetricFamily("rummy_celery_queue_length", "")]

    def collect(self) -> Iterator[GaugeMetricFamily]:
        tables = GaugeMetricFamily("rummy_tables_open", "Tables not closed, by game and status.", labels=["game", "status"])
        try:
            for game, status, count in open_tables():
                tables.add_metric([game, status], count)
        except Exception as error:  # a scrape reports what it can; readyz reports the outage
            log.warning("Could not count open tables for the metrics: %s: %s", type(error).__name__, error)
        yield tables
        queue = GaugeMetricFamily("rummy_celery_queue_length", "Tasks waiting in the broker's queue.", labels=["queue"])
        try:
            for name, length in queue_lengths():
                queue.add_metric([name], length)
        except Exception as error:
            log.warning("Could not read the Celery queue length: %s: %s", type(error).__name__, error)
        yield queue


def open_tables() -> list[tuple[str, str, int]]:
    """(game, status, count) of every table not closed. The scraping thread's connection is closed after:
    the exporter serves every scrape from a new thread, which would keep one connection each."""
    try:
        return open_table_counts()
    finally:
        connections.close_all()


def queue_lengths() -> list[tuple[str, int]]:
    """Messages waiting in each queue the workers consume (ETA tasks a worker already holds are not)."""
    app = current_app
    names = [queue.name for queue in (app.conf.task_queues or [])] or [app.conf.task_default_queue]
    lengths = []
    with app.connection_for_read() as connection:
        connection.ensure_connection(max_retries=1, timeout=2)
        with connection.channel() as channel:
            for name in names:
                try:
                    declared = channel.queue_declare(queue=name, passive=True)  # type: ignore[attr-defined]  # a kombu Channel; its stub is StdChannel
                    lengths.append((name, declared.message_count))
                except ChannelError:  # the queue does not exist (yet): nothing waits in it
                    lengths.append((name, 0))
    return lengths


_site_registry = CollectorRegistry()
_site_registry.register(SiteCollector())


def exposition(*, site: bool = True) -> bytes:
    """The text a scrape gets: this process's (or the processes') metrics, and the site-wide gauges."""
    text = generate_latest(instruments.process_registry())
    return text + generate_latest(_site_registry) if site else text


def start_exporter() -> bool:
    """A web process serves its metrics and the site-wide gauges on METRICS_PORT (once; 0: off)."""
    return instruments.start_exporter(_site_registry)
