from tests.leaderboards.factories import fast_password_hashing  # noqa: F401 (an autouse fixture)
