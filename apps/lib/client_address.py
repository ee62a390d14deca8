"""The client's network address: the one the site's own proxy saw, never one the client wrote (SPEC 11).

A request reaches daphne from its TCP peer. When that peer is one of the configured proxies
(settings.TRUSTED_PROXIES: addresses or networks), the client is named by the proxy's X-Forwarded-For;
otherwise the peer *is* the client, and whatever X-Forwarded-For or X-Forwarded-Proto it sent is
ignored. The proxy (docker/Caddyfile) sets X-Forwarded-For to the address it was connected from, and
never appends to the client's; behind a chain of trusted proxies the header is read from the right, and
the first address that is not a trusted proxy is the client's. Daphne runs without --proxy-headers,
which would take the leftmost X-Forwarded-For from anyone: the address a client chose for itself.

`client_address(request_or_scope)` is the one answer, for an HTTP request and a WebSocket scope alike;
`TrustedProxyMiddleware` (rummysite/asgi.py) puts that answer in every ASGI scope's "client" (so Django's
REMOTE_ADDR, allauth's rate limits and the consumers all see it), sets the scheme the trusted proxy
reports, and drops forwarded headers that came from anyone else.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.http import HttpRequest

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

#: Set in a scope once TrustedProxyMiddleware has put the client's address in "client"; holds the peer.
PEER_KEY = "rummy.peer"
_FORWARDED_HEADERS = (b"x-forwarded-for", b"x-forwarded-proto")


def parse_networks(values: Iterable[str]) -> tuple[Network, ...]:
    """Addresses or networks ("10.0.0.7", "172.30.57.0/24", "::1"); raises ValueError on anything else."""
    return tuple(ipaddress.ip_network(value.strip(), strict=False) for value in values if value.strip())


@lru_cache(maxsize=16)
def _cached_networks(values: tuple[str, ...]) -> tuple[Network, ...]:
    return parse_networks(values)


def networks(values: Iterable[str]) -> tuple[Network, ...]:
    """parse_networks, remembered: settings hold the same few lists for the life of the process."""
    return _cached_networks(tuple(values))


def trusted_proxies() -> tuple[Network, ...]:
    return networks(getattr(settings, "TRUSTED_PROXIES", ()))


def parse_address(text: str | None) -> Address | None:
    """An IP address from a peer or an X-Forwarded-For entry ("1.2.3.4", "[2001:db8::1]:443",
    "1.2.3.4:5678"), IPv4-mapped IPv6 read as IPv4; None if it is not an address."""
    if not text:
        return None
    text = text.strip().strip('"')
    if text.startswith("["):
        text = text[1:].split("]", 1)[0]
    elif text.count(":") == 1:  # IPv4 with a port; IPv6 has two colons or more
        text = text.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def in_networks(address: str | Address | None, networks: Iterable[Network]) -> bool:
    parsed = parse_address(address) if isinstance(address, str) or address is None else address
    return parsed is not None and any(parsed.version == network.version and parsed in network for network in networks)


def resolve(peer: str | None, forwarded_for: str | None, trusted: tuple[Network, ...]) -> str | None:
    """The client's address, given the TCP peer, the X-Forwarded-For it sent, and the trusted proxies.

    An untrusted peer is the client. From a trusted one, X-Forwarded-For is walked from the right (its
    last entry was written by the nearest proxy): each trusted proxy in it is skipped, and the first
    address that is not one is the client. An entry that is not an address ends the walk at the hop that
    wrote it; a chain of nothing but trusted proxies gives its leftmost one."""
    address = parse_address(peer)
    if address is None:
        return peer or None
    if not in_networks(address, trusted):
        return str(address)
    for entry in reversed((forwarded_for or "").split(",")):
        hop = parse_address(entry)
        if hop is None:
            break
        address = hop
        if not in_networks(hop, trusted):
            break
    return str(address)


def _header(headers: Iterable[tuple[bytes, bytes]], name: bytes) -> str | None:
    values = [value.decode("latin-1") for key, value in headers if key.lower() == name]
    return ",".join(values) if values else None


def of_scope(scope: dict[str, Any]) -> str | None:
    """The client's address of an ASGI scope (HTTP or WebSocket)."""
    client = scope.get("client")
    peer = client[0] if client else None
    if PEER_KEY in scope:  # TrustedProxyMiddleware already resolved it
        return peer
    return resolve(peer, _header(scope.get("headers", ()), b"x-forwarded-for"), trusted_proxies())


def of_request(request: HttpRequest) -> str | None:
    """The client's address of a Django request (served over ASGI, or built by the test client)."""
    scope = getattr(request, "scope", None)
    if isinstance(scope, dict):
        return of_scope(scope)
    return resolve(request.META.get("REMOTE_ADDR"), request.META.get("HTTP_X_FORWARDED_FOR"), trusted_proxies())


def client_address(source: HttpRequest | dict[str, Any]) -> str | None:
    """The client's address of a request or of a WebSocket (or HTTP) scope: the one rule, SPEC 11."""
    return of_scope(source) if isinstance(source, dict) else of_request(source)


class TrustedProxyMiddleware:
    """ASGI middleware: every HTTP and WebSocket scope gets the client's address in "client" (the TCP
    peer is kept under PEER_KEY), the scheme a trusted proxy reports in X-Forwarded-Proto, and no
    X-Forwarded-For or X-Forwarded-Proto at all when the peer is not a trusted proxy (so nothing
    downstream, SECURE_PROXY_SSL_HEADER included, can be told a story by a client)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope.get("type") in ("http", "websocket") and PEER_KEY not in scope:
            scope = self.resolved(scope)
        await self.app(scope, receive, send)

    @staticmethod
    def resolved(scope: dict[str, Any]) -> dict[str, Any]:
        client = scope.get("client")
        peer = client[0] if client else None
        headers = list(scope.get("headers", ()))
        trusted = trusted_proxies()
        scope = dict(scope)
        scope[PEER_KEY] = peer
        if in_networks(peer, trusted):
            address = resolve(peer, _header(headers, b"x-forwarded-for"), trusted)
            if address is not None:
                scope["client"] = (address, 0)
            proto = (_header(headers, b"x-forwarded-proto") or "").split(",")[-1].strip().lower()
            if proto in ("https", "wss"):
                scope["scheme"] = "https" if scope["type"] == "http" else "wss"
            elif proto in ("http", "ws"):
                scope["scheme"] = "http" if scope["type"] == "http" else "ws"
        else:
            scope["headers"] = [(key, value) for key, value in headers if key.lower() not in _FORWARDED_HEADERS]
        return scope
