"""The client's address is the one the site's own proxy saw: X-Forwarded-For counts only from the
configured proxies, never as a client sends it (SPEC 11)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator
from django.test import RequestFactory, override_settings

from apps.lib.client_address import PEER_KEY, TrustedProxyMiddleware, client_address, networks, resolve
from rummysite.asgi import application

PROXY = networks(["172.30.57.10"])
PROXIES = networks(["172.30.57.10", "10.0.0.0/8"])


def test_without_a_trusted_proxy_the_peer_is_the_client_whatever_it_forwards():
    assert resolve("203.0.113.9", "198.51.100.1", ()) == "203.0.113.9"
    assert resolve("203.0.113.9", None, PROXY) == "203.0.113.9"


def test_a_spoofed_x_forwarded_for_from_a_client_is_ignored():
    assert resolve("203.0.113.9", "127.0.0.1", PROXY) == "203.0.113.9"
    assert resolve("203.0.113.9", "172.30.57.10", PROXY) == "203.0.113.9"


def test_through_the_trusted_proxy_the_client_is_the_address_the_proxy_saw():
    assert resolve("172.30.57.10", "198.51.100.7", PROXY) == "198.51.100.7"


def test_an_address_a_client_put_before_the_proxys_own_never_wins():
    # A proxy that appends (nginx's $proxy_add_x_forwarded_for) leaves the client's own words on the left.
    assert resolve("172.30.57.10", "127.0.0.1, 10.9.9.9, 198.51.100.7", PROXY) == "198.51.100.7"


def test_a_chain_of_trusted_proxies_is_walked_from_the_right():
    assert resolve("172.30.57.10", "6.6.6.6, 198.51.100.7, 10.1.2.3", PROXIES) == "198.51.100.7"
    assert resolve("172.30.57.10", "10.1.2.3", PROXIES) == "10.1.2.3"  # nothing but proxies: the farthest


def test_an_entry_that_is_not_an_address_stops_at_the_hop_that_wrote_it():
    assert resolve("172.30.57.10", "198.51.100.7, not-an-address", PROXY) == "172.30.57.10"
    assert resolve("172.30.57.10", "", PROXY) == "172.30.57.10"


def test_ports_brackets_and_ipv4_mapped_addresses_are_read_as_addresses():
    assert resolve("::ffff:172.30.57.10", "198.51.100.7:5123", PROXY) == "198.51.100.7"
    assert resolve("172.30.57.10", "[2001:db8::5]:443", PROXY) == "2001:db8::5"
    assert resolve("2001:db8::9", "198.51.100.7", PROXY) == "2001:db8::9"


@override_settings(TRUSTED_PROXIES=["172.30.57.10/32"])
def test_a_request_built_by_django_follows_the_same_rule():
    factory = RequestFactory()
    spoofed = factory.get("/", REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR="127.0.0.1")
    proxied = factory.get("/", REMOTE_ADDR="172.30.57.10", HTTP_X_FORWARDED_FOR="6.6.6.6, 198.51.100.7")
    assert (client_address(spoofed), client_address(proxied)) == ("203.0.113.9", "198.51.100.7")


async def seen_scope(scope: dict[str, Any]) -> dict[str, Any]:
    """The scope the application behind TrustedProxyMiddleware is given."""
    seen: dict[str, Any] = {}

    async def app(inner: dict[str, Any], receive: Any, send: Any) -> None:
        seen.update(inner)

    await TrustedProxyMiddleware(app)(scope, None, None)
    return seen


def scope(kind: str, peer: str, headers: list[tuple[bytes, bytes]]) -> dict[str, Any]:
    return {"type": kind, "path": "/", "headers": headers, "client": (peer, 50000), "scheme": "http" if kind == "http" else "ws"}


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", ["http", "websocket"])
@override_settings(TRUSTED_PROXIES=["172.30.57.10/32"])
async def test_the_middleware_drops_forwarded_headers_from_anyone_but_the_proxy(kind):
    spoofed = await seen_scope(scope(kind, "203.0.113.9", [(b"x-forwarded-for", b"127.0.0.1"), (b"x-forwarded-proto", b"https"), (b"host", b"h")]))
    assert spoofed["client"] == ("203.0.113.9", 50000)
    assert spoofed["headers"] == [(b"host", b"h")]
    assert spoofed["scheme"] in ("http", "ws")
    assert spoofed[PEER_KEY] == "203.0.113.9"
    assert client_address(spoofed) == "203.0.113.9"


@pytest.mark.asyncio
@pytest.mark.parametrize(("kind", "secure"), [("http", "https"), ("websocket", "wss")])
@override_settings(TRUSTED_PROXIES=["172.30.57.10/32"])
async def test_the_middleware_takes_the_client_and_scheme_from_the_proxy(kind, secure):
    proxied = await seen_scope(scope(kind, "172.30.57.10", [(b"x-forwarded-for", b"198.51.100.7"), (b"x-forwarded-proto", b"https")]))
    assert proxied["client"] == ("198.51.100.7", 0)
    assert proxied["scheme"] == secure
    assert proxied[PEER_KEY] == "172.30.57.10"
    assert client_address(proxied) == "198.51.100.7"


async def readyz_as(peer: str, headers: list[tuple[bytes, bytes]]) -> dict[str, Any]:
    """/readyz through the site's own ASGI application, from this TCP peer: the internal networks get
    the details, so whether they are there says which client address the site settled on."""
    communicator = ApplicationCommunicator(
        application,
        {
            "type": "http", "http_version": "1.1", "method": "GET", "path": "/readyz", "raw_path": b"/readyz",
            "query_string": b"", "headers": [(b"host", b"127.0.0.1"), *headers], "client": (peer, 50000),
        },
    )
    await communicator.send_input({"type": "http.request", "body": b""})
    start = await communicator.receive_output(10)
    body = await communicator.receive_output(10)
    await communicator.wait(10)
    return {"status": start["status"], **json.loads(body["body"])}


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_client_that_claims_an_internal_address_is_still_the_public():
    assert "checks" not in await readyz_as("203.0.113.9", [(b"x-forwarded-for", b"127.0.0.1")])
    assert "checks" in await readyz_as("127.0.0.1", [])


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@override_settings(TRUSTED_PROXIES=["127.0.0.1/32"])
async def test_through_a_trusted_proxy_on_loopback_the_forwarded_client_decides():
    assert "checks" not in await readyz_as("127.0.0.1", [(b"x-forwarded-for", b"203.0.113.9")])
    assert "checks" not in await readyz_as("127.0.0.1", [(b"x-forwarded-for", b"127.0.0.1, 203.0.113.9")])
    assert "checks" in await readyz_as("127.0.0.1", [(b"x-forwarded-for", b"127.0.0.5")])
