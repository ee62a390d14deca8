"""A live site for the documentation's examples (tests/live_site.py): the fair deal's window for the
players' seeds is long enough that an example can connect and send its seed while it is open."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.live_site import LiveSite, live_site


@pytest.fixture(autouse=True)
def close_database_connections_of_async_code() -> None:
    """These tests use no database in this process (the site under test has its own)."""


@pytest.fixture(scope="session")
def doc_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveSite]:
    with live_site(tmp_path_factory.mktemp("doc-site"), TABLE_FAIR_SEED_SECONDS="30") as running:
        yield running
        assert running.errors() == [], running.log.read_text()[-4000:]
