"""docker/Caddyfile, the production proxy, checked by Caddy itself and then run for real in front of the
site (daphne on loopback, a certificate from Caddy's own CA for `localhost`): HTTPS served, plain HTTP
redirected, the WebSocket upgrade passed on 443, X-Forwarded-Proto believed (so the site's HTTPS redirect
does not loop), and X-Forwarded-For set by the proxy, never taken from the client."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CADDYFILE = ROOT / "docker" / "Caddyfile"
CADDY = shutil.which("caddy")
needs_caddy = pytest.mark.skipif(CADDY is None, reason="caddy is not installed (apt-get install caddy; .ci/run does)")
#: A documentation network (RFC 5737) the site is told is internal: whoever is seen there gets details.
INTERNAL = "192.0.2.0/24"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def caddy_environment(tmp_path: Path, **variables: str) -> dict[str, str]:
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "SITE_HOST"))},
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        **variables,
    }


@needs_caddy
def test_caddy_accepts_the_caddyfile_with_the_compose_settings(tmp_path):
    result = subprocess.run(
        [CADDY, "validate", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
        env=caddy_environment(tmp_path, SITE_HOST="rummy.example.com"), capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Valid configuration" in result.stdout + result.stderr


def wait_until(check, what: str, ceiling: float = 90.0):  # type: ignore[no-untyped-def]
    """Poll `check` until it returns something true (or the generous ceiling passes)."""
    deadline = time.monotonic() + ceiling
    last: BaseException | None = None
    while time.monotonic() < deadline:
        try:
            result = check()
            if result:
                return result
        except (OSError, urllib.error.URLError, ssl.SSLError) as error:
            last = error
        time.sleep(0.2)
    raise AssertionError(f"{what} did not happen within {ceiling} s (last error: {last!r})")


class Stack:
    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.web_port, self.http_port, self.https_port, self.admin_port = (free_port() for _ in range(4))
        self.processes: list[subprocess.Popen[bytes]] = []

    def start(self) -> None:
        site = {
            **{k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG"}},
            "SECRET_KEY": "proxy-test-" + "k" * 60, "DEBUG": "0", "ALLOWED_HOSTS": "localhost", "EMAIL_URL": "console",
            "DATABASE_URL": f"sqlite:///{self.tmp_path / 'site.sqlite3'}",
            "TRUSTED_PROXIES": "127.0.0.1", "INTERNAL_NETWORKS": INTERNAL,
            "CELERY_EMBEDDED": "0", "TABLE_WEB_HEARTBEAT": "0",
            # A production process stops at start without collectstatic's manifest (rummysite/checks.py);
            # the paths here fetch no static file.
            "STATIC_ROOT": str(self.tmp_path / "static"),
        }
        (self.tmp_path / "static").mkdir(exist_ok=True)
        (self.tmp_path / "static" / "staticfiles.json").write_text('{"paths": {}, "version": "1.1"}')
        self.processes.append(subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.web_port), "rummysite.asgi:application"],
            cwd=ROOT, env=site, stdout=open(self.tmp_path / "daphne.log", "wb"), stderr=subprocess.STDOUT,
        ))
        wait_until(lambda: self.direct("/livez")[0] == 200, "daphne answering")
        proxy = caddy_environment(
            self.tmp_path, SITE_HOST="localhost", HTTP_PORT=str(self.http_port), HTTPS_PORT=str(self.https_port),
            CADDY_ADMIN=f"localhost:{self.admin_port}", WEB_HOST="127.0.0.1", WEB_PORT=str(self.web_port),
        )
        assert CADDY is not None
        self.processes.append(subprocess.Popen(
            [CADDY, "run", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
            env=proxy, stdout=open(self.tmp_path / "caddy.log", "wb"), stderr=subprocess.STDOUT,
        ))
        root = self.tmp_path / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        wait_until(root.exists, "Caddy making its local CA")
        self.tls = ssl.create_default_context(cafile=str(root))
        wait_until(lambda: self.https("/livez")[0] == 200, "Caddy serving HTTPS")

    def stop(self) -> None:
        for process in reversed(self.processes):
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()

    def direct(self, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
        return fetch(f"http://127.0.0.1:{self.web_port}{path}", {"Host": "localhost", **headers})

    def https(self, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
        return fetch(f"https://localhost:{self.https_port}{path}", headers, context=self.tls)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        return None


def fetch(url: str, headers: dict[str, str], context: ssl.SSLContext | None = None) -> tuple[int, dict[str, str], bytes]:
    opener = urllib.request.build_opener(NoRedirect, urllib.request.HTTPSHandler(context=context))
    try:
        with opener.open(urllib.request.Request(url, headers=headers), timeout=20) as response:
            return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Stack]:
    running = Stack(tmp_path)
    try:
        running.start()
        yield running
    finally:
        running.stop()


@needs_caddy
def test_the_proxy_serves_https_redirects_http_and_passes_websockets(stack: Stack) -> None:
    status, headers, body = stack.https("/livez")
    assert (status, json.loads(body)) == (200, {"ok": True})
    # The site believed the proxy's X-Forwarded-Proto: it sends HSTS, and its own HTTPS redirect
    # (SECURE_SSL_REDIRECT is on) did not send the browser round in a loop.
    assert headers["strict-transport-security"].startswith("max-age=")
    assert "wss://localhost" in headers["content-security-policy"]

    status, headers, _ = fetch(f"http://localhost:{stack.http_port}/livez", {})
    assert status in (301, 308) and headers["location"].startswith("https://localhost") and headers["location"].endswith("/livez")

    async def ping() -> dict:
        import websockets

        origin = f"https://localhost:{stack.https_port}"
        async with websockets.connect(f"wss://localhost:{stack.https_port}/ws/ping/", ssl=stack.tls, origin=origin) as ws:
            await ws.send(json.dumps({"type": "ping", "echo": 443}))
            return json.loads(await asyncio.wait_for(ws.recv(), 20))

    assert asyncio.run(ping()) == {"type": "pong", "echo": 443}


@needs_caddy
def test_a_client_cannot_choose_its_address_through_the_proxy(stack: Stack) -> None:
    """The site shows health details to the internal network only. A client that claims an internal
    address in X-Forwarded-For is still seen at the address the proxy saw (loopback, not internal),
    because the proxy sets the header instead of appending to the client's."""
    for claimed in ("192.0.2.5", "192.0.2.5, 127.0.0.1"):
        status, _, body = stack.https("/readyz", **{"X-Forwarded-For": claimed})
        assert status == 200 and json.loads(body) == {"ok": True}, claimed
    # The control: the same header from the proxy's own address (a trusted proxy) is believed.
    status, _, body = stack.direct("/readyz", **{"X-Forwarded-For": "192.0.2.5"})
    assert status == 200 and set(json.loads(body)["checks"]) == {"database", "live_bus", "broker"}
