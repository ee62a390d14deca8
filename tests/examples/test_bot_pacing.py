"""The example bot keeps under the site's frame limit and answers again after a reconnect, without a site:
its pacing against the server's own limiter on a clock the test moves, and its seat's memory of a socket.
(CI once saw a fast machine's game outrun the limit: the socket was closed with `rate_limited`, and the
move refused with it was never sent again, so the table timed the bot out.)"""

from __future__ import annotations

import doctest

import pytest
from django.conf import settings

from apps.live.guard import RateLimiter
from apps.tables.consumers import LobbySocket


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_docstrings(example_bot):
    result = doctest.testmod(example_bot)
    assert result.attempted > 0
    assert result.failed == 0


def frames_refused(example_bot, monkeypatch, rate: float, burst: int, pacing: tuple[float, int], gaps: list[float]):
    """Send one frame after each gap (seconds of the bot's own thinking), waiting as Paced says; how many
    the server's limiter (same clock) refuses."""
    clock = Clock()
    monkeypatch.setattr(RateLimiter, "clock", staticmethod(clock))
    server = RateLimiter(rate, burst)
    paced = example_bot.Paced(None, rate=pacing[0], burst=pacing[1], clock=clock)
    refused = 0
    for gap in gaps:
        clock.now += gap
        clock.now += paced.wait()
        refused += not server.allow()
    return refused


def test_a_bot_as_fast_as_it_can_stays_under_the_table_sockets_limit(example_bot, monkeypatch):
    rate, burst = settings.LIVE_FRAMES_PER_SECOND, settings.LIVE_FRAME_BURST
    assert frames_refused(example_bot, monkeypatch, rate, burst, (7.0, 20), [0.0] * 500) == 0
    thinking = [0.001 * (i % 7) for i in range(500)]  # bursts and pauses mixed
    assert frames_refused(example_bot, monkeypatch, rate, burst, (7.0, 20), thinking) == 0
    # Without pacing the same bot would be closed: the check can fail.
    assert frames_refused(example_bot, monkeypatch, rate, burst, (1e9, 10**9), [0.0] * 500) > 0


def test_the_lobby_pacing_stays_under_the_lobbys_limit(example_bot, monkeypatch):
    rate, burst = LobbySocket.frame_rate
    assert frames_refused(example_bot, monkeypatch, rate, burst, (1.5, 8), [0.0] * 200) == 0


def test_paced_send_waits_then_sends_in_order(example_bot):
    sent, slept = [], []

    class Socket:
        async def send(self, text: str) -> None:
            sent.append(text)

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    paced = example_bot.Paced(Socket(), rate=2.0, burst=1, clock=Clock(), sleep=sleep)

    async def three() -> None:
        for text in ("a", "b", "c"):
            await paced.send(text)

    # Nothing here suspends, so the coroutine runs to its end in one step, with no event loop (the
    # browser tests keep Playwright's loop running in this thread).
    with pytest.raises(StopIteration):
        three().send(None)
    assert sent == ["a", "b", "c"]
    assert slept == [0.5, 1.0]  # the clock stood still: each frame waits for its own token


def state(version: int, *, turn: int = 0) -> dict:
    seats = [{"user_id": 1, "empty": False}, {"user_id": 2, "empty": False}]
    table = {"id": 5, "game": "tile-rummy-rearrange", "status": "playing", "host_id": 1, "seats": seats,
             "current_game": {"id": 9}, "match": {"id": 3, "fair": None}}
    view = {"over": False, "turn": turn, "players": [{"away": False}, {"away": False}]}
    return {"type": "state", "table": table, "seat": 0, "view": view, "version": version}


def test_after_a_reconnect_the_same_version_is_answered_again(example_bot, monkeypatch):
    brain = example_bot.Brain("easy", seed=1)
    monkeypatch.setattr(brain, "next_move", lambda game, view: "draw")
    seat = example_bot.Seat(5, 1, brain)
    first = seat.answer(state(12))
    assert first == [{"type": "move", "move": "draw", "version": 12, "id": "t5v12"}]
    assert seat.answer(state(12)) == []  # one answer per version on one socket
    seat.reconnected()  # the socket closed: that move may never have arrived
    assert seat.answer(state(12)) == first  # the same move with the same id: the site applies it once
    assert seat.answer(state(13, turn=1)) == []  # not its turn
