"""The suite's password hasher: Django's PBKDF2 with a thousand iterations instead of a million.

Every test user gets a password (tests/tables/helpers.make_user), and the site's hasher spends a third of
a second of CPU on each on this machine, more under load: the suite made thousands. A hash made here
names its iteration count, so the site's own processes that browser and socket tests start (with the
production hashers) still check these passwords, and bring a hash up to their count at its first login,
as they would an old one's."""

from __future__ import annotations

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class QuickPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    iterations = 1_000
