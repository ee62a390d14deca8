"""/livez (the process answers) and /readyz (the database, the channel layer and the broker answer), with
their details only for staff, the metrics token and the internal networks."""

from __future__ import annotations

import socket

import pytest

from tests.site.processes import PRODUCTION, shell
from tests.tables.helpers import make_user

PUBLIC = "203.0.113.9"

ASK = """
    import json
    from django.test import Client
    answers = {}
    for path, address in (("/livez", "127.0.0.1"), ("/readyz", "127.0.0.1"), ("/readyz", "203.0.113.9"), ("/healthz", "203.0.113.9")):
        response = Client().get(path, REMOTE_ADDR=address)
        answers[f"{path} {address}"] = [response.status_code, json.loads(response.content)]
    print(json.dumps(answers))
"""


def closed_port() -> int:
    """A port on loopback that nothing listens on (bound for a moment, then let go)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def ask_a_fresh_site(**variables: str) -> dict:
    return shell(ASK, **variables)  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def with_redis_away(tmp_path_factory) -> dict:
    database = tmp_path_factory.mktemp("health") / "site.sqlite3"
    return ask_a_fresh_site(REDIS_URL=f"redis://127.0.0.1:{closed_port()}/0", DATABASE_URL=f"sqlite:///{database}")


def test_with_redis_unreachable_readyz_is_503_and_livez_still_200(with_redis_away):
    assert with_redis_away["/livez 127.0.0.1"] == [200, {"ok": True}]
    status, body = with_redis_away["/readyz 127.0.0.1"]
    assert status == 503 and body["ok"] is False
    checks = body["checks"]
    assert checks["database"]["ok"] is True
    assert checks["live_bus"]["ok"] is False and checks["broker"]["ok"] is False
    assert "Error" in checks["live_bus"]["error"]


def test_an_anonymous_caller_learns_only_that_the_site_is_not_ready(with_redis_away):
    assert with_redis_away["/readyz 203.0.113.9"] == [503, {"ok": False}]
    assert with_redis_away["/healthz 203.0.113.9"] == [503, {"ok": False}]  # the old name, the same answer


@pytest.mark.django_db
def test_livez_answers_the_public_without_asking_any_dependency(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get("/livez", REMOTE_ADDR=PUBLIC)
    assert (response.status_code, response.json()) == (200, {"ok": True})


@pytest.mark.django_db(transaction=True)
def test_staff_see_the_details_from_anywhere(client):
    assert "checks" not in client.get("/readyz", REMOTE_ADDR=PUBLIC).json()
    client.force_login(make_user("player"))
    assert "checks" not in client.get("/readyz", REMOTE_ADDR=PUBLIC).json()
    client.force_login(make_user("moderator", staff=True))
    body = client.get("/readyz", REMOTE_ADDR=PUBLIC).json()
    assert set(body["checks"]) == {"database", "live_bus", "broker"}


def test_in_production_the_health_endpoints_answer_plain_http_and_pages_redirect(tmp_path):
    code = """
        from django.test import Client
        print([Client().get(path).status_code for path in ("/livez", "/readyz", "/metrics", "/")])
    """
    livez, readyz, metrics, home = shell(code, **{**PRODUCTION, "ALLOWED_HOSTS": "testserver",
                                                  "DATABASE_URL": f"sqlite:///{tmp_path / 'site.sqlite3'}"})
    assert (livez, metrics, home) == (200, 200, 301)  # the test client calls from 127.0.0.1: internal
    assert readyz in (200, 503)  # answered, not redirected (no database was migrated here)
