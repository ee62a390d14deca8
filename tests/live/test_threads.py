"""The sockets' database threads (apps/live/threads.py): whatever a job on a thread ends with reaches the
coroutine awaiting it. A StopIteration did not (Python 3.11 and 3.12 cannot put one into an asyncio
future, CPython gh-112182): the awaiting coroutine waited for good, which froze a socket's frames, and
the hint frames' tests one run in five."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from apps.live.threads import awaitable, db, off_loop
from tests.live.helpers import in_own_loop

#: How long a test waits for an answer that comes at once when all is well (a generous ceiling: CONVENTIONS 22).
CEILING = 30.0


def a_stray_next() -> int:
    return next(iter(()))


def refused() -> int:
    raise ValueError("refused")


@pytest.mark.django_db
def test_a_database_job_that_raises_stop_iteration_reaches_its_caller_as_a_runtime_error() -> None:
    async def main() -> None:
        with pytest.raises(RuntimeError, match="StopIteration") as raised:
            await asyncio.wait_for(db(a_stray_next)(), timeout=CEILING)
        assert isinstance(raised.value.__cause__, StopIteration)
        with pytest.raises(ValueError, match="refused"):  # any other error as it was
            await asyncio.wait_for(db(refused)(), timeout=CEILING)
        assert await db(int)("7") == 7  # and the threads still serve

    in_own_loop(main)


def test_a_pool_job_that_raises_stop_iteration_reaches_the_awaiting_coroutine_as_a_runtime_error() -> None:
    async def main() -> None:
        with ThreadPoolExecutor(max_workers=1) as pool:
            with pytest.raises(RuntimeError, match="StopIteration") as raised:
                await asyncio.wait_for(awaitable(pool.submit(a_stray_next)), timeout=CEILING)
            assert isinstance(raised.value.__cause__, StopIteration)
            with pytest.raises(ValueError, match="refused"):
                await asyncio.wait_for(awaitable(pool.submit(refused)), timeout=CEILING)
            assert await asyncio.wait_for(awaitable(pool.submit(int, "7")), timeout=CEILING) == 7

    in_own_loop(main)


def test_a_job_off_the_loop_that_raises_stop_iteration_reaches_its_caller_as_a_runtime_error() -> None:
    """The processes' own loops (the bot accounts' presence, the web heartbeat, the socket counts) run
    their cache and Redis round trips through `off_loop`."""

    async def main() -> None:
        with pytest.raises(RuntimeError, match="StopIteration") as raised:
            await asyncio.wait_for(off_loop(a_stray_next)(), timeout=CEILING)
        assert isinstance(raised.value.__cause__, StopIteration)
        with pytest.raises(ValueError, match="refused"):
            await asyncio.wait_for(off_loop(refused)(), timeout=CEILING)
        assert await off_loop(int)("7", base=8) == 7

    in_own_loop(main)


def test_giving_up_on_a_pool_job_still_waiting_for_its_thread_cancels_it() -> None:
    async def main() -> None:
        go = threading.Event()
        with ThreadPoolExecutor(max_workers=1) as pool:
            busy = pool.submit(go.wait, CEILING)
            waiting = pool.submit(int, "7")
            task = asyncio.ensure_future(awaitable(waiting))
            await asyncio.sleep(0)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            await asyncio.sleep(0)  # the future's own callbacks run at the loop's next turn
            assert waiting.cancelled()  # never run: its place in the pool was given back
            go.set()
            assert await awaitable(busy) is True

    in_own_loop(main)
