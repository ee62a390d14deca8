"""Helpers of the live package's tests."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any


def in_own_loop(main: Callable[[], Coroutine[Any, Any, Any]]) -> None:
    """Run `main()` to its end in an event loop of its own, on a thread of its own: the browser tests'
    Playwright (sync API, session-wide) keeps an event loop running on the main thread, and a test of
    pytest-asyncio ordered after them could not start one there."""
    failure: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(main())
        except BaseException as error:  # handed back to the test
            failure.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(60)
    assert not thread.is_alive(), "the loop did not finish within 60 s"
    if failure:
        raise failure[0]
