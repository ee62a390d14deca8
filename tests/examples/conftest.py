"""One live site for the example bot's tests (tests/live_site.py), and the example bot's own code."""

from __future__ import annotations

import asyncio
import concurrent.futures
import importlib.util
import sys
from collections.abc import Iterator
from types import ModuleType

import pytest

from tests.live_site import ROOT, LiveSite, live_site


@pytest.fixture(autouse=True)
def close_database_connections_of_async_code() -> None:
    """These tests use no database in this process (the site under test has its own)."""


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveSite]:
    with live_site(tmp_path_factory.mktemp("bot-site")) as running:
        yield running
        assert running.errors() == [], running.log.read_text()[-4000:]


@pytest.fixture(scope="session")
def example_bot() -> ModuleType:
    """examples/bot/bot.py, imported as a module (the tests run its own functions)."""
    spec = importlib.util.spec_from_file_location("example_bot", ROOT / "examples" / "bot" / "bot.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def run(coroutine, ceiling: float = 300.0):  # type: ignore[no-untyped-def]
    """asyncio.run in a thread of its own (the browser tests keep Playwright's loop in the main thread),
    with a generous ceiling: a test waits on the condition, never on a time."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, asyncio.wait_for(coroutine, ceiling)).result()
