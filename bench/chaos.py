"""The site with faults, for bench/drills.py: `daphne bench.chaos:application`.

CHAOS_DROP_BROADCASTS (default 0.1): the share of table broadcasts silently lost on the way (each one
of them, for every viewer of that table), and of their follow-ups (independently). Each loss is logged (`chaos: dropped ...`) so the drill can
count them. Nothing else changes.
"""

from __future__ import annotations

import logging
import os
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rummysite.asgi import application  # noqa: E402, I001  (first: it sets Django up)
from apps.tables import broadcast  # noqa: E402

log = logging.getLogger("chaos")
DROP = float(os.environ.get("CHAOS_DROP_BROADCASTS", "0.1"))
_chance = random.Random()  # bench code: not a shuffle
_deliver = broadcast.group_send
_deliver_later = broadcast.group_send_later


def group_send(group: str, message: dict[str, Any]) -> None:
    if group.startswith("table.") and _chance.random() < DROP:
        version = message.get("payload", {}).get("version")
        log.warning("chaos: dropped the broadcast of %s v%s", group, version)
        return
    _deliver(group, message)


def group_send_later(delay: float, group: str, message: dict[str, Any]) -> None:
    """The broadcasts' follow-ups are lost as often as the broadcasts, independently."""
    if group.startswith("table.") and _chance.random() < DROP:
        log.warning("chaos: dropped the follow-up of %s v%s", group, message.get("version"))
        return
    _deliver_later(delay, group, message)


broadcast.group_send = group_send
broadcast.group_send_later = group_send_later

__all__ = ["application"]
