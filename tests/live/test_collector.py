"""The web process's garbage collector (apps/live/collector.py): long-lived objects frozen out of the
collections' reach, and the full collection of each period freeing the cycles among them."""

from __future__ import annotations

import asyncio
import gc
import weakref

import pytest

from apps.live import collector
from tests.live.helpers import in_own_loop


class Node:
    """A cycle of two: only the cyclic collector frees it."""

    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


@pytest.fixture
def thawed():
    gc.collect()
    yield
    gc.unfreeze()
    gc.collect()


def test_a_frozen_cycle_waits_for_the_full_collection(thawed):
    ref = cycle()
    collector.freeze()
    assert gc.get_freeze_count() > 0
    gc.collect()  # what every automatic collection does: the frozen cycle is out of reach
    assert ref() is not None
    freed, took = collector.full_collection()
    assert ref() is None
    assert freed >= 2 and took >= 0
    assert gc.get_freeze_count() > 0  # what survived is frozen again


def test_a_cycle_younger_than_the_last_freeze_goes_at_the_next_collection(thawed):
    collector.freeze()
    ref = cycle()
    gc.collect()
    assert ref() is None


def test_the_loop_task_freezes_and_collects_on_its_periods(thawed, settings):
    settings.LIVE_GC_FREEZE_SECONDS = 0.05
    settings.LIVE_GC_FULL_SECONDS = 0.2

    async def main() -> None:
        task = asyncio.ensure_future(collector.keep_collections_short())
        try:
            for _ in range(200):  # up to 10 s: it starts with a full collection and a freeze
                await asyncio.sleep(0.05)
                if gc.get_freeze_count() > 0:
                    break
            assert gc.get_freeze_count() > 0
            ref = cycle()
            for _ in range(200):  # frozen at a period, then freed by a full collection
                await asyncio.sleep(0.05)
                if ref() is None:
                    break
            assert ref() is None
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    in_own_loop(main)


def test_off_by_default_in_the_tests(thawed, settings):
    """Off, no task starts: a loop's background task that ends makes the loop start all of them again."""
    assert not collector.wanted()
    with pytest.raises(ValueError):
        in_own_loop(collector.keep_collections_short)
    assert gc.get_freeze_count() == 0
    settings.LIVE_GC_FREEZE_SECONDS = 10
    assert collector.wanted()
