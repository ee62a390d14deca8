"""Settings come from the environment and fail loudly on values that cannot be right."""

from __future__ import annotations

import secrets

import pytest
from django.core.exceptions import ImproperlyConfigured

from rummysite import env
from tests.site.processes import PRODUCTION, manage, shell


def settings_with(names: list[str], **variables: str) -> dict:
    """The named settings of a fresh process started with these variables."""
    return shell(f"import json; from django.conf import settings as s; print(json.dumps({{n: getattr(s, n, None) for n in {names!r}}}, default=str))", **variables)


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
    result = manage(["check"], DATABASE_URL="mysql://nope")
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
    result = manage(["check"], DEBUG="0")
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_production_settings_pass_the_deployment_checklist(tmp_path):
    # The static files are collected (rummysite/checks.py stops a production process without their manifest).
    (tmp_path / "staticfiles.json").write_text('{"paths": {}, "version": "1.1"}')
    result = manage(
        ["check", "--deploy", "--fail-level", "WARNING"],
        STATIC_ROOT=str(tmp_path),
        SECRET_KEY=secrets.token_urlsafe(64),
        DEBUG="0",
        ALLOWED_HOSTS="rummy.example.com",
        DATABASE_URL="postgres://rummy:rummy@127.0.0.1:5432/rummy",
        REDIS_URL="redis://127.0.0.1:6379/0",
        EMAIL_URL="smtp+tls://mailer:secret@smtp.example.com:587",
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_refuses_to_start_without_an_email_url():
    result = manage(["check"], **{**PRODUCTION, "EMAIL_URL": ""})
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and "EMAIL_URL must be set" in result.stderr


def test_production_prints_mail_to_the_console_only_when_told_so():
    assert settings_with(["EMAIL_BACKEND"], **PRODUCTION) == {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    smtp = settings_with(["EMAIL_BACKEND", "EMAIL_HOST", "EMAIL_USE_TLS"], **{**PRODUCTION, "EMAIL_URL": "smtp+tls://u:p@smtp.example.com:587"})
    assert smtp == {"EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend", "EMAIL_HOST": "smtp.example.com", "EMAIL_USE_TLS": True}


def test_a_laptop_without_an_email_url_prints_mail_to_the_console():
    assert settings_with(["DEBUG", "EMAIL_BACKEND"]) == {"DEBUG": True, "EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}


def test_a_first_deploy_sends_short_hsts_without_preload_until_told_otherwise():
    names = ["SECURE_HSTS_SECONDS", "SECURE_HSTS_PRELOAD", "SECURE_SSL_REDIRECT"]
    assert settings_with(names, **PRODUCTION) == {"SECURE_HSTS_SECONDS": 3600, "SECURE_HSTS_PRELOAD": False, "SECURE_SSL_REDIRECT": True}
    later = {**PRODUCTION, "SECURE_HSTS_SECONDS": "31536000", "SECURE_HSTS_PRELOAD": "1", "SECURE_SSL_REDIRECT": "0"}
    assert settings_with(names, **later) == {"SECURE_HSTS_SECONDS": 31536000, "SECURE_HSTS_PRELOAD": True, "SECURE_SSL_REDIRECT": False}


@pytest.mark.parametrize("value", ["10.0.0.300", "proxy.internal", "10.0.0.0/33"])
def test_a_malformed_trusted_proxy_is_refused(value, monkeypatch):
    monkeypatch.setenv("TRUSTED_PROXIES", f"127.0.0.1,{value}")
    with pytest.raises(ImproperlyConfigured, match="TRUSTED_PROXIES"):
        env.get_networks("TRUSTED_PROXIES", [])


def test_trusted_proxies_are_read_as_networks(monkeypatch):
    monkeypatch.setenv("TRUSTED_PROXIES", "172.30.57.10, 10.1.0.0/16,::1")
    assert env.get_networks("TRUSTED_PROXIES", []) == ["172.30.57.10/32", "10.1.0.0/16", "::1/128"]


def test_the_database_pool_replaces_kept_connections_when_chosen():
    names = ["DATABASES"]
    database = {"DATABASE_URL": "postgres://rummy:rummy@127.0.0.1:5432/rummy"}
    kept = settings_with(names, **PRODUCTION, **database)["DATABASES"]["default"]
    assert kept["CONN_MAX_AGE"] == 300 and "pool" not in kept.get("OPTIONS", {})
    pooled = settings_with(names, **PRODUCTION, **database, DATABASE_POOL="1")["DATABASES"]["default"]
    assert pooled["CONN_MAX_AGE"] == 0
    assert pooled["OPTIONS"]["pool"] == {"min_size": 2, "max_size": 20, "timeout": 10.0}
