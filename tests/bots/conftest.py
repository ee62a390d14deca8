import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def fresh_cache():
    """The API's rate windows and the online marks live in the cache: each test starts without any."""
    cache.clear()
    yield
    cache.clear()
