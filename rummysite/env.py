"""Reading settings from the environment, failing loudly on values that cannot be right.

Every function here raises ImproperlyConfigured with a message naming the variable, so a typo in a
deployment stops the process at start instead of surfacing later as a confusing runtime error.
"""

from __future__ import annotations

import ipaddress
import os
from typing import Any, overload
from urllib.parse import urlsplit

import environ
from django.core.exceptions import ImproperlyConfigured

_env = environ.Env()

_DB_ENGINES = {
    "postgres": "django.db.backends.postgresql",
    "postgresql": "django.db.backends.postgresql",
    "pgsql": "django.db.backends.postgresql",
    "sqlite": "django.db.backends.sqlite3",
}


@overload
def get_str(name: str, default: str) -> str: ...
@overload
def get_str(name: str, default: None = None) -> str | None: ...
def get_str(name: str, default: str | None = None) -> str | None:
    """The variable's value, or `default` when it is unset or empty (so a default makes it a `str`)."""
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value


def get_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    lowered = raw.strip().lower()
    if lowered in {"1", "true", "yes", "on"}:
        return True
    if lowered in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean: use 1/0, true/false, yes/no or on/off")


def get_int(name: str, default: int, *, minimum: int | None = None, maximum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number") from None
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        raise ImproperlyConfigured(f"{name}={value} is outside {minimum}..{maximum}")
    return value


def get_float(name: str, default: float, *, minimum: float = 0.0, maximum: float = 3600.0) -> float:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a number") from None
    if not minimum <= value <= maximum:
        raise ImproperlyConfigured(f"{name}={value} is outside {minimum}..{maximum}")
    return value


def get_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def get_networks(name: str, default: list[str]) -> list[str]:
    """A comma-separated list of IP addresses or networks ("10.0.0.7, 172.30.57.0/24, ::1"), normalised."""
    networks = []
    for item in get_list(name, default):
        try:
            networks.append(str(ipaddress.ip_network(item, strict=False)))
        except ValueError:
            raise ImproperlyConfigured(f"{name}: {item!r} is not an IP address or network (such as 10.0.0.0/8)") from None
    return networks


def database_from_url(url: str, *, name: str = "DATABASE_URL") -> dict[str, Any]:
    """A Django DATABASES entry from a URL; only PostgreSQL and SQLite are supported."""
    scheme = urlsplit(url).scheme
    engine = _DB_ENGINES.get(scheme)
    if "://" not in url or engine is None:
        raise ImproperlyConfigured(
            f"{name}={url!r} is not a database URL this site supports: use postgres://USER:PASSWORD@HOST:PORT/NAME "
            "or sqlite:///PATH"
        )
    config: dict[str, Any] = dict(_env.db_url_config(url))
    config["ENGINE"] = engine
    if not config.get("NAME"):
        raise ImproperlyConfigured(f"{name}={url!r} names no database (the part after the last '/')")
    if engine == "django.db.backends.postgresql":
        if not config.get("HOST"):
            raise ImproperlyConfigured(f"{name}={url!r} names no host")
        if config.get("PORT") in ("", None):
            config["PORT"] = 5432
    return config


def redis_url(name: str = "REDIS_URL") -> str | None:
    url = get_str(name)
    if url is None:
        return None
    parts = urlsplit(url)
    if parts.scheme not in {"redis", "rediss", "unix"} or (parts.scheme != "unix" and not parts.hostname):
        raise ImproperlyConfigured(f"{name}={url!r} is not a Redis URL: use redis://HOST:PORT/DB")
    try:
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError:
        raise ImproperlyConfigured(f"{name}={url!r} has a bad port") from None
    return url
