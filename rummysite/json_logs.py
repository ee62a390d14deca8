"""Logs as one JSON object per line (settings.LOG_JSON, on in production), for a log collector to index:
time, level, logger, message, process, and the traceback and any `extra=` fields a call passed."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

#: Attributes every LogRecord has; anything else on a record came from `extra=` and is logged too.
_STANDARD = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime", "taskName"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "process": record.process,
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in entry:
                entry[key] = value
        return json.dumps(entry, default=str, ensure_ascii=False)
