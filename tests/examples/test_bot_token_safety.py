"""The example bot keeps its token to itself (issue 40, section 4): it reads it from the environment or a
file, never from the command line (where `ps` shows it to every user of the machine); it sends it only to
the site's own origin, dropping it on a redirect to another; and it never sends it over plain http:// to
another machine. And it comes back after a 429 no sooner than the site asks. Without a site: small HTTP
servers on this machine stand for the site and a stranger."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.live_site import ROOT, run

#: The ports these servers may take (this machine's tests keep their servers in this range).
PORTS = range(18340, 18400)


@contextmanager
def server(answer) -> Iterator[tuple[int, list[dict]]]:
    """A server on 127.0.0.1 that records each request's path and headers and answers `answer(path, port)`:
    (status, headers, body)."""
    seen: list[dict] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append({"path": self.path, "headers": {name.lower(): value for name, value in self.headers.items()}})
            status, headers, body = answer(self.path, self.server.server_port)
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            pass

    for port in PORTS:
        try:
            httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
            break
        except OSError:
            continue
    else:
        pytest.skip("no free port in 18340-18399")
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield httpd.server_port, seen
    finally:
        httpd.shutdown()
        httpd.server_close()


ACCOUNT = json.dumps({"type": "account", "account": {"id": 7}}).encode()


def account(_path: str, _port: int):
    return 200, {"Content-Type": "application/json"}, ACCOUNT


def redirect_to(url: str):
    return lambda _path, _port: (302, {"Location": url}, b"")


def test_a_redirect_to_another_origin_is_followed_without_the_token(example_bot):
    with server(account) as (stranger, stranger_saw):
        # Another origin: another port (and here another name) of this machine.
        with server(redirect_to(f"http://localhost:{stranger}/api/bot/account")) as (site, site_saw):
            api = example_bot.Api(f"http://127.0.0.1:{site}", "rbt_secret")
            assert run(api.get("/api/bot/account"))["account"]["id"] == 7
    assert site_saw[0]["headers"]["authorization"] == "Bearer rbt_secret"
    [followed] = stranger_saw
    assert "authorization" not in followed["headers"]


def test_a_redirect_within_the_site_keeps_the_token(example_bot):
    def answer(path: str, port: int):
        if path == "/old":
            return 301, {"Location": f"http://127.0.0.1:{port}/api/bot/account"}, b""
        return account(path, port)

    with server(answer) as (site, seen):
        api = example_bot.Api(f"http://127.0.0.1:{site}", "rbt_secret")
        run(api.get("/old"))
    assert [request["headers"].get("authorization") for request in seen] == ["Bearer rbt_secret"] * 2


def test_a_redirect_to_plain_http_on_another_machine_is_not_followed(example_bot):
    with server(redirect_to("http://rummy.example/api/bot/account")) as (site, _seen):
        api = example_bot.Api(f"http://127.0.0.1:{site}", "rbt_secret")
        with pytest.raises(example_bot.Unsafe):
            run(api.get("/api/bot/account"))


@pytest.mark.parametrize("url", ["http://rummy.example", "http://10.0.0.5:8000", "ftp://rummy.example", "rummy.example"])
def test_plain_http_to_another_machine_is_refused(example_bot, url):
    with pytest.raises(example_bot.Unsafe):
        example_bot.Api(url, "rbt_secret")


@pytest.mark.parametrize(
    "url", ["https://rummy.example", "http://127.0.0.1:8000", "http://localhost:8000", "http://[::1]:8000"]
)
def test_https_and_http_to_this_machine_are_allowed(example_bot, url):
    assert example_bot.Api(url, "rbt_secret").url == url


def test_the_token_comes_from_the_environment_or_a_file(example_bot, tmp_path):
    assert example_bot.token_from(None, {"RUMMY_BOT_TOKEN": " rbt_from_env\n"}) == "rbt_from_env"
    path = tmp_path / "token"
    path.write_text("rbt_from_file\n")
    path.chmod(0o600)
    assert example_bot.token_from(str(path), {"RUMMY_BOT_TOKEN": "rbt_from_env"}) == "rbt_from_file"
    with pytest.raises(ValueError, match="RUMMY_BOT_TOKEN"):
        example_bot.token_from(None, {})


def test_a_token_file_others_can_read_is_used_with_a_warning(example_bot, tmp_path, capsys):
    path = tmp_path / "token"
    path.write_text("rbt_from_file")
    path.chmod(0o644)
    assert example_bot.token_from(str(path), {}) == "rbt_from_file"
    assert "chmod 600" in capsys.readouterr().err


def bot(*args: str, token: str | None = None) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key != "RUMMY_BOT_TOKEN"}
    if token is not None:
        env["RUMMY_BOT_TOKEN"] = token
    return subprocess.run([sys.executable, "examples/bot/bot.py", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env={**env, "PYTHONPATH": ""})


def test_a_token_on_the_command_line_is_refused_and_the_bot_says_where_to_put_it():
    done = bot("--url", "http://127.0.0.1:9", "--token", "rbt_secret")
    assert done.returncode == 2 and "RUMMY_BOT_TOKEN" in done.stderr and "ps" in done.stderr
    assert "rbt_secret" not in done.stdout + done.stderr


def test_without_a_token_the_bot_says_where_to_put_it():
    done = bot("--url", "http://127.0.0.1:9")
    assert done.returncode == 2 and "RUMMY_BOT_TOKEN" in done.stderr and "--token-file" in done.stderr


def test_the_bot_refuses_plain_http_to_another_machine_before_sending_anything():
    done = bot("--url", "http://rummy.example", token="rbt_secret")
    assert done.returncode == 2 and "https://" in done.stderr


def test_a_request_over_the_rate_is_sent_again_after_the_wait_the_site_asks_for(example_bot, monkeypatch):
    slept = []
    monkeypatch.setattr(example_bot.time, "sleep", slept.append)
    answers = iter([(429, {"Retry-After": "7", "Content-Type": "application/json"},
                     b'{"type": "error", "code": "rate_limited", "message": "Too many requests"}')])

    def answer(path: str, port: int):
        return next(answers, None) or account(path, port)

    with server(answer) as (site, seen):
        api = example_bot.Api(f"http://127.0.0.1:{site}", "rbt_secret")
        assert run(api.get("/api/bot/account"))["account"]["id"] == 7
    assert slept == [7] and len(seen) == 2
