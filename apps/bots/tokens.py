"""Personal access tokens: how one is made, kept and recognised.

A token is `rbt_` and 43 characters of `secrets.token_urlsafe(32)`: 256 random bits. Only its SHA-256
digest is stored, and a presented token is found by the digest of what was presented (a unique index).

Why a fast unsalted hash, when passwords get a slow salted one (PBKDF2): a slow hash protects a secret a
person chose, which an attacker holding the digests can guess from a dictionary; salts stop one guess
serving every row. A token is not chosen: with 2**256 equally likely values there is no dictionary, and
finding a preimage of SHA-256 is out of reach, so a leaked table of digests gives nothing to try, salt or
no salt. A slow hash would only cost every socket and API request milliseconds of CPU, and a salt would
make the lookup by digest impossible. A keyed hash (HMAC with SECRET_KEY) would add nothing against a
leak of the rows alone and would revoke every token the day the key rotates.

Looking a token up by its digest also leaks nothing through timing: what the index compares is the
digest of the caller's own input, which tells them nothing about any stored digest.
"""

from __future__ import annotations

import hashlib
import secrets

PREFIX = "rbt_"
#: How many characters of a token its list shows (the marker and a few random characters).
SHOWN = 10
#: The longest a presented token may be before it is refused without hashing (a real one is 47).
MAX_LENGTH = 200


def new_token() -> str:
    return PREFIX + secrets.token_urlsafe(32)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def shown_part(token: str) -> str:
    return token[:SHOWN]


def bearer(header: str | None) -> str | None:
    """The token of an `Authorization: Bearer TOKEN` header (None if the header is absent or another
    scheme; "" if it is a Bearer header with nothing usable in it)."""
    if not header:
        return None
    scheme, _, value = header.strip().partition(" ")
    if scheme.lower() != "bearer":
        return None
    value = value.strip()
    if not value or len(value) > MAX_LENGTH or not value.isascii():
        return ""
    return value
