import pytest
from django.core.cache import cache

from tests.leaderboards.factories import fast_password_hashing  # noqa: F401 (an autouse fixture)


@pytest.fixture(autouse=True)
def empty_cache():
    """The sightings remember in the cache what they wrote today: each test starts from nothing."""
    cache.clear()
    yield
    cache.clear()
