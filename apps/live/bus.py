"""One publish per change, delivered to the listeners of its topic in every web process.

    bus().publish("table:12", text)          # any thread of any process (web, worker), after commit
    bus().listen("table:12", callback)       # in the web server's loop: callback(text) runs there
    bus().after_subscribing("table:12", check)  # in the loop: check() once the listen can miss nothing
    await bus().until_listening(["lobby"])   # in the loop: wait for that (a round trip), then read state

On the real stack this is Redis pub/sub with one channel per topic (apps/live/bus_redis.py): a web process
subscribes to the channels of the topics it has listeners for, on one Redis server, on the one of several
(LIVE_BUS_URLS) that a stable hash of the topic picks, or on the master of a Redis Cluster that owns the
channel's slot (LIVE_BUS_CLUSTER_URL, sharded pub/sub: apps/live/bus_cluster.py), so it receives the
changes of the tables it has sockets at and not the whole site's. Each server has one subscriber thread
per process, which hands the messages to the server loop (apps/live/bus_shard.py). On the embedded
default (no Redis) the process is the whole site: a publish goes straight to the loop
(apps/live/bus_local.py).

Pub/sub keeps nothing: a message published while a subscriber is reconnecting is lost, and so is one
published before a new listen's SUBSCRIBE reached Redis. Listeners learn of the first kind (`on_gap`) and
can repair the second once it is over (`after_subscribing`), or read their state only after it
(`until_listening`: the lobby and the chat); they must not depend on every message
arriving anyway: the table sockets check their versions against the database every second
(apps/tables/rooms.py).
"""

from __future__ import annotations

import threading

from django.conf import settings

from apps.live.bus_cluster import ClusterBus
from apps.live.bus_local import Bus, Listener, LocalBus
from apps.live.bus_redis import RedisBus

__all__ = ["Bus", "ClusterBus", "Listener", "LocalBus", "RedisBus", "bus", "reset"]

_bus: Bus | None = None
_bus_lock = threading.Lock()


def bus() -> Bus:
    """This process's bus, made on first use: on a Redis Cluster (LIVE_BUS_CLUSTER_URL), on Redis servers
    (LIVE_BUS_URLS), or none for the local bus."""
    global _bus
    if _bus is None:
        with _bus_lock:
            if _bus is None:
                cluster = getattr(settings, "LIVE_BUS_CLUSTER_URL", None)
                url = getattr(settings, "LIVE_BUS_URL", None)
                urls = list(getattr(settings, "LIVE_BUS_URLS", None) or ([url] if url else []))
                if cluster:
                    _bus = ClusterBus(cluster, settings.LIVE_BUS_CHANNEL)
                else:
                    _bus = RedisBus(urls, settings.LIVE_BUS_CHANNEL) if urls else LocalBus()
    return _bus


def reset() -> None:
    """Forget the bus (tests that change LIVE_BUS_URLS), and stop its threads."""
    global _bus
    with _bus_lock:
        if _bus is not None:
            _bus.close()
        _bus = None
