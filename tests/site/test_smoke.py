"""The ASGI application boots, serves pages and the health check, and speaks WebSocket."""

from __future__ import annotations

import json

import pytest
from channels.testing import HttpCommunicator, WebsocketCommunicator

from rummysite.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def get(path: str, client: tuple[str, int] | None = None) -> dict:
    communicator = HttpCommunicator(application, "GET", path, headers=[(b"host", b"127.0.0.1")])
    if client is not None:  # the TCP peer daphne would put in the scope
        communicator.scope["client"] = client
    response = await communicator.get_response(timeout=10)
    # Let the handler finish (it closes its database connection after the response body).
    await communicator.wait(timeout=10)
    return response


async def test_the_home_page_is_served():
    response = await get("/")
    assert response["status"] == 200
    body = response["body"].decode()
    assert "Play now" in body
    for link in ("/play/", "/games/", "/leaderboards/", "/accounts/login/"):
        assert f'href="{link}"' in body


@pytest.mark.parametrize("path", ["/readyz", "/healthz"])
async def test_the_readiness_check_reports_database_live_bus_and_broker_to_the_internal_network(path):
    response = await get(path, client=("127.0.0.1", 40000))
    payload = json.loads(response["body"])
    assert response["status"] == 200, payload
    assert payload["ok"] is True
    assert set(payload["checks"]) == {"database", "live_bus", "broker"}
    assert all(check["ok"] for check in payload["checks"].values())


async def test_the_readiness_check_tells_the_public_only_that_the_site_is_ready():
    response = await get("/readyz", client=("203.0.113.9", 40000))
    assert response["status"] == 200
    assert json.loads(response["body"]) == {"ok": True}


async def test_a_websocket_from_our_own_origin_is_answered():
    communicator = WebsocketCommunicator(
        application, "/ws/ping/", headers=[(b"host", b"127.0.0.1"), (b"origin", b"http://127.0.0.1:8000")]
    )
    connected, _ = await communicator.connect(timeout=30)
    assert connected
    await communicator.send_json_to({"type": "ping", "echo": 42})
    assert await communicator.receive_json_from(timeout=30) == {"type": "pong", "echo": 42}
    await communicator.disconnect()


async def test_a_websocket_from_a_foreign_origin_is_refused():
    communicator = WebsocketCommunicator(
        application, "/ws/ping/", headers=[(b"host", b"127.0.0.1"), (b"origin", b"https://evil.example")]
    )
    connected, _ = await communicator.connect(timeout=30)
    assert not connected


@pytest.mark.parametrize("path", ["/games/", "/play/", "/leaderboards/", "/accounts/login/", "/accounts/signup/"])
async def test_every_page_in_the_navigation_answers(path):
    response = await get(path)
    assert response["status"] == 200
