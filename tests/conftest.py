"""Shared fixtures. The suite runs on SQLite by default and on PostgreSQL + Redis when DATABASE_URL and
REDIS_URL are set (CI)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.db import connections


@pytest.fixture(autouse=True)
async def close_database_connections_of_async_code():
    """Async views and consumers reach the database from asgiref's worker thread; close those
    connections after each test so the test database can be dropped at the end of the run."""
    yield
    await sync_to_async(connections.close_all)()
