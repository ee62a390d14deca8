"""The server loop's background tasks (apps/live/loop.py): started once per loop, and a task that stopped
is started again at the next connection without a second copy of the ones still running."""

from __future__ import annotations

import asyncio

import pytest

from apps.live import loop
from apps.tournaments.live import rooms as tournament_rooms
from apps.tournaments.table_part import shared_reads
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


def test_what_a_loop_keeps_is_its_own_and_a_new_loop_starts_with_nothing_of_an_ended_one():
    """PerLoop (apps/live/loop.py), and the tournaments' rooms and shared reads made with it: a test's
    ended loop leaves its successor no room holding an arena's newer version, no read in flight."""
    made: list[object] = []
    per_loop = loop.PerLoop(lambda: made.append(object()) or made[-1])
    seen: dict[str, object] = {}

    async def first() -> None:
        seen["first"] = per_loop()
        assert per_loop() is seen["first"]  # one per loop
        assert per_loop.every() == [seen["first"]]
        seen["rooms"] = tournament_rooms()
        tournament_rooms().join(1, "viewer")
        tournament_rooms().rooms[1].keep('{"type":"standings","version":7}')
        shared_reads().join(1)

    async def second() -> None:
        seen["second"] = per_loop()
        assert tournament_rooms().rooms == {}  # the room of tournament 1 (version 7) stayed with its loop
        assert shared_reads().listeners == {}

    in_own_loop(first)
    try:
        in_own_loop(second)
    finally:
        seen["rooms"].leave(1, "viewer")  # its bus listener goes with it
    assert seen["second"] is not seen["first"] and len(made) == 2
