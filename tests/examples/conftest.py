"""One live site for the example bot's tests (tests/live_site.py), and the example bot's own code."""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType

import pytest

from tests.live_site import LiveSite, live_site, load_example_bot


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
    return load_example_bot()
