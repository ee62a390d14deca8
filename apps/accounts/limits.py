"""Counters in the shared cache: "at most N in a window", reserved before the work (CONVENTIONS 25).

    if window_hit("chat:user:7", seconds=10) > 5:   # this one is the sixth in the window: refuse
        ...

The first hit of a key opens its window (`cache.add` with the window's timeout); each hit is one
`cache.incr`, atomic on Redis (one INCR: every web process and thread counts on the same key) and under
the cache's lock on the embedded default's per-process locmem cache (one process: the whole site). A
count read and a row inserted after it would race: two sockets sending at once both read 4 and both
write the fifth. The count here is the reservation itself, taken before the row is written, and given
back (`window_give_back`) if the work then fails.
"""

from __future__ import annotations

import math

from django.core.cache import cache


def window_hit(key: str, *, seconds: float) -> int:
    """Count one more hit in the key's window (opened by its first hit, `seconds` long); returns how many
    there are now, this one included."""
    timeout = max(1, math.ceil(seconds))
    cache.add(key, 0, timeout=timeout)
    try:
        count = int(cache.incr(key))
    except ValueError:  # the window ended between the two calls: this hit opens the next one
        cache.add(key, 0, timeout=timeout)
        count = int(cache.incr(key))
    if count == 1:
        # Redis' incr is "exists, then INCR": a key that expired in between comes back from INCR without a
        # timeout, a window that would never end. The first hit (re)sets it.
        cache.touch(key, timeout)
    return count


def window_give_back(key: str) -> None:
    """Return a hit whose work did not happen (its window may have ended meanwhile: nothing to return)."""
    try:
        cache.decr(key)
    except ValueError:
        pass
