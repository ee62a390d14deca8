"""The server loop's background tasks (apps/live/loop.py): started once per loop, and a task that stopped
is started again at the next connection without a second copy of the ones still running."""

from __future__ import annotations

import asyncio

import pytest

from apps.live import loop
from tests.live.helpers import in_own_loop


@pytest.fixture
def starters(monkeypatch):
    monkeypatch.setattr(loop, "_starters", [])
    monkeypatch.setattr(loop, "_tasks", type(loop._tasks)())
    return loop._starters


def test_a_stopped_task_starts_again_alone(starters):
    in_own_loop(a_stopped_task_starts_again_alone)


async def a_stopped_task_starts_again_alone() -> None:
    runs = {"steady": 0, "brief": 0}
    release = asyncio.Event()

    async def steady() -> None:
        runs["steady"] += 1
        await release.wait()

    async def brief() -> None:
        runs["brief"] += 1

    loop.on_start(steady)
    loop.on_start(brief)
    loop.remember()
    loop.remember()  # a second connection while both run: nothing new
    await asyncio.sleep(0)
    assert runs == {"steady": 1, "brief": 1}
    await asyncio.sleep(0)  # brief has ended
    loop.remember()
    await asyncio.sleep(0)
    assert runs == {"steady": 1, "brief": 2}
    release.set()
    for task in loop._tasks[asyncio.get_running_loop()]:
        await task
