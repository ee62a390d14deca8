"""Fixtures of the site tests."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def thread_free_of_the_browsers_loop() -> Iterator[None]:
    """The browser tests' Playwright (a session fixture) marks its event loop as running in this thread
    between its calls, so an async test that runs after them (or `asyncio.run`) would find the thread
    taken. For the length of each test here the mark is lifted, then put back for Playwright."""
    loop = asyncio._get_running_loop()
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(loop)
