"""Shared fixtures. The suite runs on SQLite by default and on PostgreSQL + Redis when DATABASE_URL and
REDIS_URL are set (CI)."""

from __future__ import annotations

import pytest
from asgiref.sync import SyncToAsync
from django.db import connections
from django.utils import translation

from rummysite.catalogues import compile_all


def pytest_configure(config: pytest.Config) -> None:
    # The Romanian pages the suite checks are served from the compiled catalogues (not in git: they are
    # built at install, `make run`); compile them from the .po files as they are now.
    compile_all()


def _leave_async_code_thread() -> None:
    connections.close_all()
    translation.deactivate()


@pytest.fixture(autouse=True)
def close_database_connections_of_async_code():
    """Async views and consumers reach the database from asgiref's single sync thread; close those
    connections after each test so the test database can be flushed and dropped, and drop the language
    a request activated there (Django's LocaleMiddleware activates one per request and leaves it: a
    Romanian page asked for by one test made the next test's refusals Romanian). A plain (sync)
    fixture, so it also works beside tests that run their own event loop (Playwright)."""
    yield
    translation.deactivate()
    SyncToAsync.single_thread_executor.submit(_leave_async_code_thread).result(timeout=30)


@pytest.fixture(autouse=True)
def fresh_limits():
    """The per-address limits count in the cache (new guests: apps/accounts/services.guests_admit) and the
    sockets per user and address in the process (apps/live/quota.py): each test starts with none."""
    from django.core.cache import cache

    from apps.live import quota

    cache.clear()
    quota.reset()
    yield


@pytest.fixture
def stopped_clock(monkeypatch):
    """The frame rate limiter's clock stands still while the test sends: no token comes back, however
    slowly a busy machine serves the frames, so a rate test's verdict is the same on any machine."""
    from apps.live.guard import RateLimiter

    monkeypatch.setattr(RateLimiter, "clock", staticmethod(lambda: 0.0))
