"""A broker outage is logged by the worker and beat in one line per attempt, not a traceback."""

from __future__ import annotations

import logging
import sys

from kombu.exceptions import OperationalError

from rummysite.celery import BrokerOutageInOneLine


def record_of(error: BaseException, message: str, *args: object) -> logging.LogRecord:
    try:
        raise error
    except BaseException:
        return logging.LogRecord("celery.beat", logging.ERROR, __file__, 1, message, args, sys.exc_info())


def test_beat_failing_to_send_a_task_is_one_line_without_the_stack():
    """As celery.beat logs it: a SchedulingError raised from kombu's OperationalError, and the stack."""
    from celery.beat import SchedulingError

    def wrapped() -> None:
        try:
            raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        except OperationalError as error:
            raise SchedulingError(f"Couldn't apply scheduled task tables-sweep-due: {error}") from error

    try:
        wrapped()
    except SchedulingError as error:
        record = logging.LogRecord("celery.beat", logging.ERROR, __file__, 1, "Message Error: %s\n%s",
                                   (error, ["  File x\n"] * 20), sys.exc_info())
    assert BrokerOutageInOneLine().filter(record)
    line = logging.Formatter("%(levelname)s %(message)s").format(record)
    assert line == ("ERROR Message Error: Couldn't apply scheduled task tables-sweep-due: Error 111 connecting to "
                    "127.0.0.1:6379. Connection refused. (broker unreachable: SchedulingError)")


def test_a_connection_refused_in_the_worker_is_one_line():
    record = record_of(ConnectionRefusedError(111, "Connection refused"), "consumer: Cannot connect")
    assert BrokerOutageInOneLine().filter(record)
    assert logging.Formatter().format(record) == "consumer: Cannot connect (broker unreachable: ConnectionRefusedError)"


def test_other_errors_keep_their_traceback():
    record = record_of(ValueError("a bug"), "Task failed")
    assert BrokerOutageInOneLine().filter(record)
    assert "Traceback" in logging.Formatter().format(record)
    assert "ValueError: a bug" in logging.Formatter().format(record)

