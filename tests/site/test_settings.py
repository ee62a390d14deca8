"""Settings come from the environment and fail loudly on values that cannot be right."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from rummysite import env

ROOT = Path(__file__).resolve().parents[2]


def run_django(args: list[str], **variables: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG"}}
    environment.update(variables)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    "url",
    ["not a url", "mysql://user@host/db", "postgres://user@host:5432/", "postgres:///rummy", "postgres://h:notaport/db"],
)
def test_a_malformed_database_url_is_refused(url):
    with pytest.raises((ImproperlyConfigured, ValueError)):
        env.database_from_url(url)


def test_a_postgres_url_becomes_a_psycopg_database():
    config = env.database_from_url("postgres://rummy:secret@db.internal:6432/rummy")
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["HOST"], config["PORT"], config["NAME"], config["USER"]) == ("db.internal", 6432, "rummy", "rummy")


def test_the_process_stops_at_start_on_a_malformed_database_url():
    result = run_django(["check"], DATABASE_URL="mysql://nope")
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and "DATABASE_URL" in result.stderr


@pytest.mark.parametrize("url", ["http://localhost:6379", "redis://", "redis://host:port"])
def test_a_malformed_redis_url_is_refused(url, monkeypatch):
    monkeypatch.setenv("REDIS_URL", url)
    with pytest.raises(ImproperlyConfigured):
        env.redis_url()


def test_a_bad_boolean_is_refused(monkeypatch):
    monkeypatch.setenv("DEBUG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="DEBUG"):
        env.get_bool("DEBUG", False)


def test_production_needs_a_secret_key():
    result = run_django(["check"], DEBUG="0")
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_production_settings_pass_the_deployment_checklist():
    result = run_django(
        ["check", "--deploy", "--fail-level", "WARNING"],
        SECRET_KEY=secrets.token_urlsafe(64),
        DEBUG="0",
        ALLOWED_HOSTS="rummy.example.com",
        DATABASE_URL="postgres://rummy:rummy@127.0.0.1:5432/rummy",
        REDIS_URL="redis://127.0.0.1:6379/0",
    )
    assert result.returncode == 0, result.stdout + result.stderr
