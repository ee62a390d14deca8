"""The Celery application. Tasks live in each app's `tasks.py`; settings use the CELERY_ prefix."""

from __future__ import annotations

import logging
import os
from typing import Any

from celery import Celery
from celery.signals import after_setup_logger as setup_logging_done
from celery.signals import task_postrun, task_prerun, worker_process_init, worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummysite.settings")

app = Celery("rummysite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

from apps.lib import metrics  # noqa: E402, F401  (connects the task signals: lag, failures, the worker's exporter)
from apps.live import collector  # noqa: E402


class BrokerOutageInOneLine(logging.Filter):
    """A broker (Redis) outage is one line per failed attempt in the worker's and beat's logs, not a
    traceback with a dump of the stack: beat logs every scheduled task it could not send that way."""

    @staticmethod
    def is_outage(error: BaseException | None) -> bool:
        """The error, or one it was raised from (beat wraps the broker's in a SchedulingError), is the
        broker being unreachable."""
        from kombu.exceptions import OperationalError

        seen = 0
        while error is not None and seen < 5:
            if isinstance(error, (OSError, TimeoutError, OperationalError)):  # ConnectionError is an OSError
                return True
            error, seen = error.__cause__ or error.__context__, seen + 1
        return False

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if self.is_outage(error):
            assert error is not None
            first_line = record.getMessage().splitlines()[0] if record.getMessage() else ""
            record.msg, record.args = f"{first_line} (broker unreachable: {type(error).__name__})", ()
            record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True


@setup_logging_done.connect
def _outages_in_one_line(logger: logging.Logger | None = None, **kwargs: Any) -> None:
    for handler in (logger or logging.getLogger()).handlers:
        handler.addFilter(BrokerOutageInOneLine())


@worker_process_init.connect  # each child of the prefork pool, once it runs
@worker_ready.connect  # the worker's own process (the solo and threads pools run tasks there)
def _freeze_startup_heap(**kwargs: Any) -> None:
    """Django's and the apps' objects made at start (about 130,000 containers) are moved out of the
    garbage collector's reach, as the web processes do (apps/live/collector.py): otherwise about one
    arena pairing pass in twenty paid a full collection of them, 200-640 ms of wall under load (its p99
    138 ms of CPU against 29 ms frozen, bench/README.md "Arenas"). Objects the tasks make later are
    collected as usual."""
    collector.full_collection()


@task_prerun.connect
@task_postrun.connect
def _database_connections_as_a_request(sender: Any = None, **kwargs: Any) -> None:
    """Around each task, the database connections are kept or closed by Django's rules, as around a
    request (settings.CELERY_DB_REUSE_MAX keeps Celery from closing them every task): one past
    CONN_MAX_AGE or left unusable by an error is closed, and a kept one is health-checked at its next use.
    Not for a task run eagerly, inside its caller's transaction (Celery's fixup leaves those alone too)."""
    from django.db import close_old_connections

    if getattr(getattr(sender, "request", None), "is_eager", False):
        return
    close_old_connections()
