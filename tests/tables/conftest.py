"""Fixtures of the tables tests: two registered players (verified email addresses, as tests/tables/
helpers.make_user makes them)."""

from __future__ import annotations

import pytest

from tests.tables.helpers import make_user


@pytest.fixture
def alice():
    return make_user("alice")


@pytest.fixture
def bob():
    return make_user("bob")
