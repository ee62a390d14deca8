"""The site with faults, for bench/drills.py: `daphne bench.chaos:application`.

CHAOS_DROP_BROADCASTS (default 0.1): the share of table changes whose publish is silently lost on the
way (to every web process and so to every viewer of that table). Each loss is logged (`chaos: dropped
...`) so the drill can count them. Nothing else changes: the rooms' own version check must repair them.
"""

from __future__ import annotations

import logging
import os
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rummysite.asgi import application  # noqa: E402, I001  (first: it sets Django up)
from apps.live import bus  # noqa: E402

log = logging.getLogger("chaos")
DROP = float(os.environ.get("CHAOS_DROP_BROADCASTS", "0.1"))
_chance = random.Random()  # bench code: not a shuffle
_publish = bus.Bus.publish


def publish(self: bus.Bus, topic: str, data: str) -> None:
    if topic.startswith("table:") and _chance.random() < DROP:
        log.warning("chaos: dropped the publish of %s", topic)
        return
    _publish(self, topic, data)


bus.Bus.publish = publish  # type: ignore[method-assign]

__all__ = ["application"]
