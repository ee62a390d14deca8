"""The `hint` frame of the table WebSocket (docs/protocol.md): a hint goes to the asking player only; a
rated table, a spectator and a fourth hint get an error frame, and nothing changes."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest
from django.core.cache import cache
from django.test import override_settings

from apps.engine.game import Draw
from apps.engine.review.plays import Suggestion
from apps.live.threads import db
from apps.review import hint_pool, services
from apps.review.models import HintUse
from apps.tables.models import Table
from tests.review.helpers import rated_table, unrated_table, with_an_opening
from tests.tables.helpers import make_user
from tests.tables.test_consumers import connect, drain, receive

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
]
# The tests' own database calls (`db`) run as the sockets' do, on apps/live/threads.py: a helper that
# fails fails its test. Through asgiref's `sync_to_async` a StopIteration (a helper's `next()`, now and
# then with the random deal) left the test waiting for good: this file hung one run in five (issue 40).
real_engine_hint = services.engine_hint


async def test_a_hint_frame_goes_to_the_asking_player_only() -> None:
    table, guest = await db(unrated_table)("tile-rummy-rearrange")
    table = await db(with_an_opening)(table)
    player = await connect(f"/ws/tables/{table.pk}/", guest)
    watcher = await connect(f"/ws/tables/{table.pk}/")
    state = await receive(player)
    await receive(watcher)
    await player.send_json_to({"type": "hint"})
    frame = await receive(player, timeout=30)
    assert frame["type"] == "hint" and frame["version"] == state["version"] and frame["left"] == 2
    assert frame["moves"] and all(isinstance(move, str) for move in frame["moves"])
    assert set(frame["placed"]) <= set(state["view"]["rack"])
    others: list[dict] = []
    await drain(watcher, others)
    assert [other["type"] for other in others if other["type"] != "state"] == []  # no hint reached the spectator
    assert all("placed" not in other and "moves" not in other for other in others)
    assert (await db(Table.objects.get)(pk=table.pk)).version == state["version"]
    await player.disconnect()
    await watcher.disconnect()


async def test_a_hint_at_a_rated_table_gets_an_error_frame_and_changes_nothing() -> None:
    table, ana, _ = await db(rated_table)()
    client = await connect(f"/ws/tables/{table.pk}/", ana)
    state = await receive(client)
    await client.send_json_to({"type": "hint", "id": "h1"})
    frame = await receive(client)
    assert frame == {"type": "error", "code": "hints_off", "message": "There are no hints at rated tables.", "ref": "h1"}
    assert await db(HintUse.objects.count)() == 0
    assert (await db(Table.objects.get)(pk=table.pk)).version == state["version"]
    await client.disconnect()


async def test_a_spectator_and_a_fourth_hint_are_refused() -> None:
    table, guest = await db(unrated_table)("tile-rummy-rearrange")
    for watcher in (None, await db(make_user)("watcher")):
        client = await connect(f"/ws/tables/{table.pk}/", watcher)
        await receive(client)
        await client.send_json_to({"type": "hint"})
        assert (await receive(client))["code"] == "hints_for_players"
        await client.disconnect()
    await db(with_an_opening)(table)
    player = await connect(f"/ws/tables/{table.pk}/", guest)
    await receive(player)
    for left in (2, 1, 0):
        await player.send_json_to({"type": "hint"})
        assert (await receive(player, timeout=30))["left"] == left
    await player.send_json_to({"type": "hint"})
    refused = await receive(player)
    assert refused["type"] == "error" and refused["code"] == "hints_used_up"
    assert await db(HintUse.objects.count)() == 3
    await player.disconnect()


# --- the hints' own threads (issue 40: a burst of hints stalled every socket of the process) ------------------


class CountedSearch:
    """The engine's hint, counted, and held at its start until `go` is set (when `hold` is on)."""

    def __init__(self, hold: bool = False) -> None:
        self.calls = 0
        self.started = threading.Event()
        self.go = threading.Event()
        if not hold:
            self.go.set()

    def __call__(self, view: Any) -> Any:
        self.calls += 1
        self.started.set()
        assert self.go.wait(60), "the test never let the search go"
        return real_engine_hint(view)


async def answer_to_hint(client: Any) -> dict[str, Any]:
    """The next `hint` or `error` frame of a socket (a `state` frame may come between)."""
    while True:
        frame = await receive(client, timeout=60)
        if frame["type"] in ("hint", "error"):
            return frame


async def until(condition: Any, ceiling: float = 60.0) -> None:
    for _ in range(int(ceiling / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the condition never held")


async def test_twenty_hints_at_once_from_one_accounts_sockets_search_at_most_three_times(monkeypatch: pytest.MonkeyPatch) -> None:
    table, guest = await db(unrated_table)("tile-rummy-rearrange")
    await db(with_an_opening)(table)
    search = CountedSearch()
    monkeypatch.setattr(services, "engine_hint", search)
    sockets = [await connect(f"/ws/tables/{table.pk}/", guest) for _ in range(20)]
    for client in sockets:
        await receive(client)
    answers: list[dict[str, Any]] = []
    for _round in range(5):  # five bursts of twenty: the first three answer once each, then none
        for client in sockets:
            await client.send_json_to({"type": "hint"})
        answers += await asyncio.gather(*(answer_to_hint(client) for client in sockets))
    hints = [answer for answer in answers if answer["type"] == "hint"]
    assert len(hints) == 3 and sorted(hint["left"] for hint in hints) == [0, 1, 2]
    assert search.calls == 3  # every other request was refused before any search
    assert {answer["code"] for answer in answers if answer["type"] == "error"} <= {"hint_not_now", "hints_used_up"}
    assert await db(HintUse.objects.count)() == 3
    for client in sockets:
        await client.disconnect()


async def test_a_user_has_one_search_at_a_time_whatever_the_socket(monkeypatch: pytest.MonkeyPatch) -> None:
    table, guest = await db(unrated_table)("tile-rummy-rearrange")
    await db(with_an_opening)(table)
    search = CountedSearch(hold=True)
    monkeypatch.setattr(services, "engine_hint", search)
    first, second = [await connect(f"/ws/tables/{table.pk}/", guest) for _ in range(2)]
    await receive(first)
    await receive(second)
    await first.send_json_to({"type": "hint", "id": "a"})
    await until(search.started.is_set)
    assert await db(HintUse.objects.count)() == 1  # reserved before the search
    await second.send_json_to({"type": "hint", "id": "b"})
    refused = await answer_to_hint(second)  # at once, while the first search is held
    assert refused == {"type": "error", "code": "hint_not_now", "message": "Your last hint is still being looked for: wait for it.", "ref": "b"}
    search.go.set()
    assert (await answer_to_hint(first))["left"] == 2
    assert search.calls == 1 and await db(HintUse.objects.count)() == 1
    await second.send_json_to({"type": "hint"})
    assert (await answer_to_hint(second))["left"] == 1  # the first is done: the next one searches
    await first.disconnect()
    await second.disconnect()


async def test_a_hint_that_finds_nothing_to_play_costs_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    table, guest = await db(unrated_table)("tile-rummy-rearrange")
    monkeypatch.setattr(services, "engine_hint", lambda view: Suggestion((Draw(),), (), 0, 0))  # as for a rack with no opening
    player = await connect(f"/ws/tables/{table.pk}/", guest)
    await receive(player)
    for _ in range(4):  # more than the three hints of a game
        await player.send_json_to({"type": "hint"})
        frame = await answer_to_hint(player)
        assert frame["type"] == "hint" and frame["moves"] == ["draw"] and frame["tiles"] == 0 and frame["left"] == 3
    assert await db(HintUse.objects.count)() == 0
    await player.disconnect()


async def test_a_search_past_its_budget_is_refused_uncounted_and_holds_the_users_next_hint_until_it_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table, guest = await db(unrated_table)("tile-rummy-rearrange")
    await db(with_an_opening)(table)
    search = CountedSearch(hold=True)
    monkeypatch.setattr(services, "engine_hint", search)
    player = await connect(f"/ws/tables/{table.pk}/", guest)
    await receive(player)
    with override_settings(HINT_SEARCH_SECONDS=0.2):
        await player.send_json_to({"type": "hint"})
        refused = await answer_to_hint(player)
    assert refused["code"] == "hint_not_now" and refused["message"] == "This position is too long to search for a hint: it was not counted."
    assert await db(HintUse.objects.count)() == 0
    await player.send_json_to({"type": "hint"})
    assert (await answer_to_hint(player))["message"] == "Your last hint is still being looked for: wait for it."
    search.go.set()  # the search that ran out of time ends: the user may ask again
    await until(lambda: cache.get(services._search_lock(guest.pk)) is None)
    await player.send_json_to({"type": "hint"})
    assert (await answer_to_hint(player))["left"] == 2
    assert search.calls == 2
    await player.disconnect()


async def test_a_hint_is_refused_at_once_when_the_hint_threads_are_full(monkeypatch: pytest.MonkeyPatch) -> None:
    table, guest = await db(unrated_table)("tile-rummy-rearrange")
    await db(with_an_opening)(table)
    full = threading.BoundedSemaphore(1)
    full.acquire()
    monkeypatch.setattr(hint_pool, "_places", full)
    player = await connect(f"/ws/tables/{table.pk}/", guest)
    await receive(player)
    await player.send_json_to({"type": "hint"})
    refused = await answer_to_hint(player)
    assert refused["code"] == "hint_not_now" and refused["message"] == "Hints are busy right now: ask again in a moment."
    assert await db(HintUse.objects.count)() == 0 and cache.get(services._search_lock(guest.pk)) is None
    full.release()
    await player.send_json_to({"type": "hint"})
    assert (await answer_to_hint(player))["left"] == 2
    await player.disconnect()


async def test_the_search_runs_on_the_hint_threads_not_on_the_sockets_database_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    table, guest = await db(unrated_table)("tile-rummy-rearrange")
    await db(with_an_opening)(table)
    threads: list[str] = []

    def spying(view: Any) -> Any:
        threads.append(threading.current_thread().name)
        return real_engine_hint(view)

    monkeypatch.setattr(services, "engine_hint", spying)
    player = await connect(f"/ws/tables/{table.pk}/", guest)
    await receive(player)
    await player.send_json_to({"type": "hint"})
    assert (await answer_to_hint(player))["type"] == "hint"
    assert len(threads) == 1 and threads[0].startswith("hint-search")
    await player.disconnect()


async def test_the_web_process_searches_in_a_worker_process_of_its_own() -> None:
    table, guest = await db(unrated_table)("tile-rummy-rearrange")
    table = await db(with_an_opening)(table)
    player = await connect(f"/ws/tables/{table.pk}/", guest)
    await receive(player)
    with override_settings(HINT_SEARCH_POOL="process"):
        await player.send_json_to({"type": "hint"})
        frame = await answer_to_hint(player)
    assert frame["type"] == "hint" and frame["left"] == 2 and frame["tiles"] >= 3  # the run r11 r12 r13 at least
    assert isinstance(hint_pool._pools["process"], ProcessPoolExecutor)
    assert await db(HintUse.objects.count)() == 1
    await player.disconnect()


async def test_a_worker_process_past_its_budget_is_stopped_and_the_next_hint_gets_a_new_one() -> None:
    table, guest = await db(unrated_table)("tile-rummy-rearrange")
    table = await db(with_an_opening)(table)
    player = await connect(f"/ws/tables/{table.pk}/", guest)
    await receive(player)
    with override_settings(HINT_SEARCH_POOL="process", HINT_SEARCH_SECONDS=0.05):
        if "process" in hint_pool._pools:  # a new worker: its start alone (an interpreter, the engine) takes longer than that
            hint_pool._stop_overrun(hint_pool._pools["process"])
        await player.send_json_to({"type": "hint"})
        refused = await answer_to_hint(player)
    assert refused["code"] == "hint_not_now" and refused["message"] == "This position is too long to search for a hint: it was not counted."
    assert "process" not in hint_pool._pools  # the worker was stopped, its pool dropped
    assert await db(HintUse.objects.count)() == 0
    await until(lambda: cache.get(services._search_lock(guest.pk)) is None)  # freed as the stopped search ended
    with override_settings(HINT_SEARCH_POOL="process"):
        await player.send_json_to({"type": "hint"})
        frame = await answer_to_hint(player)
    assert frame["type"] == "hint" and frame["left"] == 2
    await player.disconnect()
