"""Shared fixtures. The suite runs on SQLite by default and on PostgreSQL + Redis when DATABASE_URL and
REDIS_URL are set (CI)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from asgiref.sync import SyncToAsync
from django.db import connections
from django.test import override_settings
from django.utils import translation
from hypothesis import HealthCheck, is_hypothesis_test, settings
from hypothesis.database import DirectoryBasedExampleDatabase

from rummysite.catalogues import compile_all

# Hypothesis (issue 40, section 8). The suite runs the "ci" profile: derandomized, so a run draws the same
# examples every time and a red build is about the code, not about the draw (a rack of one joker at a
# timeout once failed CI at random); print_blob says how to reproduce a failure. `make fuzz` runs the
# property tests alone under "fuzz": new random examples, FUZZ_FACTOR times as many, and the failing ones
# kept in a committed directory that every fuzz run replays first. A failure found there becomes an
# @example on its test, so the suite replays it too (derandomize reads no database).
HYPOTHESIS_EXAMPLES = Path(__file__).parent / "engine" / "hypothesis-examples"
# Neither profile has a deadline or the too-slow health check: both time the machine (CONVENTIONS 22).
settings.register_profile(
    "ci", derandomize=True, print_blob=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "fuzz",
    derandomize=False,
    print_blob=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    database=DirectoryBasedExampleDatabase(HYPOTHESIS_EXAMPLES),
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
FUZZ_FACTOR = int(os.environ.get("FUZZ_FACTOR", "10"))


def pytest_configure(config: pytest.Config) -> None:
    # The Romanian pages the suite checks are served from the compiled catalogues (not in git: they are
    # built at install, `make run`); compile them from the .po files as they are now.
    compile_all()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under the fuzz profile, only the property tests run, each with FUZZ_FACTOR times the examples its
    own @settings asks for (an explicit max_examples overrides any profile, so it is scaled here)."""
    if settings.get_current_profile_name() != "fuzz":
        return
    kept, dropped = [], []
    for item in items:
        test = getattr(item, "obj", None)
        (kept if test is not None and is_hypothesis_test(test) else dropped).append(item)
    for item in kept:
        test = item.obj  # type: ignore[attr-defined]
        own = test._hypothesis_internal_use_settings
        test._hypothesis_internal_use_settings = settings(own, max_examples=own.max_examples * FUZZ_FACTOR)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def _leave_async_code_thread() -> None:
    connections.close_all()
    translation.deactivate()


@pytest.fixture(autouse=True, scope="session")
def quick_password_hashing():
    """Test users' passwords are hashed with a thousand PBKDF2 iterations, not the site's million
    (tests/hashers.py says why the site's own processes still accept them)."""
    with override_settings(PASSWORD_HASHERS=["tests.hashers.QuickPBKDF2PasswordHasher"]):
        yield


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
