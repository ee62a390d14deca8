"""docs/bot-api.md, executed against a live site: every request and every frame its examples show is sent,
and each answer must be as the page says: the HTTP status, the headers shown, and the JSON's shape (every
key shown is there, with a value of the same kind: a number, a string, true/false, null, an object, a list
at least as long; `type`, `code`, `status`, `game` and `format` equal to what is shown, and every true and
false too; a key "..." stands for the keys not shown). The views the page shows are compared, more
loosely (a deal differs), with real views of each game.

How an example is written (the page's own syntax, parsed below): `<!-- example: NAME -->` before it;
an HTTP request in an `http` block, its answer in the next `http` block (`HTTP/1.1 STATUS ...`); a socket
in a `ws PATH [TOKEN]` block, one frame a line (`>` sent, `<` answered, continued on indented lines),
`x CODE` for the site closing it. `{TOKEN}`, `{TABLE}` and `{GAME}` are filled in by the test.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import random
import re
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from apps.engine.bots import get_bot
from tests.live_site import ROOT, LiveSite, load_example_bot, run

DOC = ROOT / "docs" / "bot-api.md"
EXACT = {"type", "code", "status", "game", "format"}
NO_PROXY = {"proxy": None} if "proxy" in inspect.signature(connect).parameters else {}
CEILING = 120.0  # seconds any one answer may take on a busy machine before the test gives up


# -- the page's examples ---------------------------------------------------------------------------------


@dataclass
class Request:
    method: str
    path: str
    headers: dict[str, str]
    body: Any = None


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: Any


@dataclass
class Exchange:
    request: Request
    response: Response


@dataclass
class Script:
    path: str
    credential: str
    steps: list[tuple[str, Any]] = field(default_factory=list)  # ("send", frame), ("expect", [frames]), ("close", code)


def _head_and_body(lines: list[str]) -> tuple[str, dict[str, str], Any]:
    first, rest = lines[0], lines[1:]
    headers: dict[str, str] = {}
    while rest and rest[0].strip():
        name, _, value = rest.pop(0).partition(":")
        headers[name.strip()] = value.strip()
    text = "\n".join(rest).strip()
    return first, headers, json.loads(text) if text else None


def _script(info: str, lines: list[str]) -> Script:
    parts = info.split()
    script = Script(parts[1], parts[2] if len(parts) > 2 else "{TOKEN}")
    frames: list[tuple[str, str]] = []
    for line in lines:
        if line[:2] in ("> ", "< ", "x "):
            frames.append((line[0], line[2:]))
        else:  # a frame continued on the next line
            frames[-1] = (frames[-1][0], frames[-1][1] + "\n" + line)
    for kind, text in frames:
        if kind == "x":
            script.steps.append(("close", int(text)))
        elif kind == ">":
            script.steps.append(("send", json.loads(text)))
        elif script.steps and script.steps[-1][0] == "expect":
            script.steps[-1][1].append(json.loads(text))
        else:
            script.steps.append(("expect", [json.loads(text)]))
    return script


def parse(text: str) -> tuple[dict[str, list[Exchange | Script]], dict[str, Any]]:
    """The page's examples by name, and the views it shows by game."""
    examples: dict[str, list[Exchange | Script]] = {}
    views: dict[str, Any] = {}
    lines = text.splitlines()
    kind = name = None
    request: Request | None = None
    at = 0
    while at < len(lines):
        line = lines[at]
        marker = re.fullmatch(r"<!-- (example|view): ([\w-]+) -->", line.strip())
        if marker:
            kind, name = marker.groups()
            at += 1
            continue
        if not line.startswith("```"):
            at += 1
            continue
        info = line[3:].strip()
        end = next(index for index in range(at + 1, len(lines)) if lines[index].startswith("```"))
        block, at = lines[at + 1 : end], end + 1
        if info == "json" and kind == "view" and name:
            views[name] = json.loads("\n".join(block))
            kind = name = None
        elif info == "http" or info.startswith("ws "):
            assert kind == "example" and name, f"an example without a name: {block[0]!r}"
            if info.startswith("ws "):
                examples.setdefault(name, []).append(_script(info, block))
            elif block[0].startswith("HTTP/"):
                first, headers, body = _head_and_body(block)
                assert request is not None, f"{name}: an answer without its request"
                examples.setdefault(name, []).append(Exchange(request, Response(int(first.split()[1]), headers, body)))
                request = None
            else:
                first, headers, body = _head_and_body(block)
                method, path = first.split()
                request = Request(method, path, headers, body)
    return examples, views


EXAMPLES, VIEWS = parse(DOC.read_text())
RUN_BY_A_TEST: set[str] = set()


def runs(*names: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    RUN_BY_A_TEST.update(names)
    return lambda test: test


def differences(shown: Any, got: Any, where: str = "$", *, loose: bool = False) -> list[str]:
    """Where `got` is not what `shown` documents (see the module's docstring); `loose` for views: null and
    list lengths may differ."""
    if shown is None:
        return [] if got is None or loose else [f"{where}: null is shown, the answer has {got!r}"]
    if isinstance(shown, dict):
        if not isinstance(got, dict):
            return [f"{where}: an object is shown, the answer has {got!r}"]
        found = []
        for key, value in shown.items():
            if key == "...":
                continue
            if key not in got:
                found.append(f"{where}.{key}: missing from the answer")
                continue
            if key in EXACT and isinstance(value, str) and value != got[key]:
                found.append(f"{where}.{key}: {value!r} is shown, the answer has {got[key]!r}")
            found += differences(value, got[key], f"{where}.{key}", loose=loose)
        return found
    if isinstance(shown, list):
        if not isinstance(got, list):
            return [f"{where}: a list is shown, the answer has {got!r}"]
        if len(got) < len(shown) and not loose:
            return [f"{where}: {len(shown)} items are shown, the answer has {len(got)}"]
        return [problem for index, (item, other) in enumerate(zip(shown, got, strict=False))
                for problem in differences(item, other, f"{where}[{index}]", loose=loose)]
    if isinstance(shown, bool):
        same = isinstance(got, bool) and (loose or got is shown)
        return [] if same else [f"{where}: {shown!r} is shown, the answer has {got!r}"]
    if isinstance(shown, (int, float)):
        same = isinstance(got, (int, float)) and not isinstance(got, bool)
        return [] if same else [f"{where}: a number is shown, the answer has {got!r}"]
    return [] if isinstance(got, str) else [f"{where}: a string is shown, the answer has {got!r}"]


def test_the_comparison_finds_what_differs():
    shown = {"type": "table", "table": {"id": 12, "host": True, "seats": [{"bot": None}], "...": "more"}}
    assert differences(shown, {"type": "table", "table": {"id": 3, "host": True, "seats": [{"bot": None}], "x": 1}}) == []
    assert differences(shown, {"type": "tables", "table": {"id": "3", "host": False, "seats": []}}) == [
        "$.type: 'table' is shown, the answer has 'tables'",
        "$.table.id: a number is shown, the answer has '3'",
        "$.table.host: True is shown, the answer has False",
        "$.table.seats: 1 items are shown, the answer has 0",
    ]


# -- talking to the site -----------------------------------------------------------------------------------


@dataclass
class Context:
    site: LiveSite
    token: str
    table: int | None = None
    game: int | None = None
    version: int = -1
    state: dict[str, Any] | None = None

    def fill(self, text: str) -> str:
        for key, value in (("{TOKEN}", self.token), ("{TABLE}", self.table), ("{GAME}", self.game)):
            if key in text:
                assert value is not None, f"{key} is not known yet"
                text = text.replace(key, str(value))
        return text


def http(site: LiveSite, method: str, path: str, token: str | None = None, body: Any = None,
         headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], Any]:
    sent = dict(headers or {})
    if token is not None:
        sent["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    if data is not None:
        sent.setdefault("Content-Type", "application/json")
    request = urllib.request.Request(site.url + path, data=data if method == "POST" else None, method=method,
                                     headers=sent)
    if method == "POST" and data is None:
        request.data = b""
    try:
        with urllib.request.urlopen(request, timeout=CEILING) as response:
            return response.status, dict(response.headers), json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.loads(error.read())


async def exchange(context: Context, example: Exchange) -> None:
    request = example.request
    headers = {name: context.fill(value) for name, value in request.headers.items()}
    status, answered_headers, body = await asyncio.to_thread(
        http, context.site, request.method, context.fill(request.path), None, request.body, headers)
    shown = example.response
    assert status == shown.status, (request.method, request.path, body)
    for name, value in shown.headers.items():
        assert name in answered_headers, (name, answered_headers)
        if name == "Content-Type":
            assert answered_headers[name].startswith(value), answered_headers[name]
    assert differences(shown.body, body) == [], body


class Socket:
    """One socket as the page's scripts use it: frames in, frames matched, the latest state kept."""

    def __init__(self, context: Context, ws: Any) -> None:
        self.context = context
        self.ws = ws
        self.listeners: list[Callable[[dict[str, Any]], Awaitable[None] | None]] = []

    async def receive(self) -> dict[str, Any]:
        frame = json.loads(await asyncio.wait_for(self.ws.recv(), CEILING))
        if frame["type"] == "state" and frame["version"] >= self.context.version:
            self.context.version, self.context.state = frame["version"], frame
        for listener in self.listeners:
            done = listener(frame)
            if done is not None:
                await done
        return frame

    async def send(self, frame: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(frame))


async def open_socket(context: Context, path: str, credential: str = "{TOKEN}") -> Socket:
    ws = await connect(context.site.url.replace("http://", "ws://") + context.fill(path),
                       additional_headers={"Authorization": f"Bearer {context.fill(credential)}"}, **NO_PROXY)
    return Socket(context, ws)


def matches(shown: dict[str, Any], frame: dict[str, Any]) -> bool:
    return frame.get("type") == shown.get("type") and ("code" not in shown or frame.get("code") == shown["code"])


async def play_script(context: Context, script: Script, socket: Socket | None = None, *,
                      own_version: bool = False) -> Socket:
    """Run the script's steps (on `socket`, or a new one): the frames answered may come in any order within
    a group of `<` lines, and other frames (a state pushed meanwhile) may come between. With
    `own_version`, a sent frame's `version` is the client's own: the latest state's."""
    socket = socket or await open_socket(context, script.path, script.credential)
    for kind, value in script.steps:
        if kind == "send":
            frame = dict(value)
            if own_version and "version" in frame:
                frame["version"] = context.version
            await socket.send(frame)
        elif kind == "expect":
            waiting = list(value)
            while waiting:
                frame = await socket.receive()
                shown = next((item for item in waiting if matches(item, frame)), None)
                if shown is not None:
                    assert differences(shown, frame) == [], frame
                    waiting.remove(shown)
        else:
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    await socket.receive()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == value
    return socket


def only(name: str, kind: type) -> Any:
    [example] = [example for example in EXAMPLES[name] if isinstance(example, kind)]
    return example


async def api(context: Context, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    status, _headers, answer = await asyncio.to_thread(http, context.site, method, path, token or context.token, body)
    assert status < 300, answer
    return answer


async def until_state(socket: Socket, condition: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    state = socket.context.state
    while state is None or not condition(state):
        await socket.receive()
        state = socket.context.state
    return state


async def seeded(socket: Socket) -> dict[str, Any]:
    """Send the seat's seed for the match's fair deal; the first dealt state."""
    await until_state(socket, lambda state: state["table"].get("match") is not None)
    await socket.send({"type": "seed", "seed": "5f1c0b9e2d7a4c3b8e6f1a0d9c8b7a65"})
    return await until_state(socket, lambda state: state["view"] is not None)


# -- the scenarios -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tokens(doc_site: LiveSite) -> dict[str, str]:
    """Every bot account the scenarios need, made at once; "another-bot" is the one the page names."""
    names = ["another-bot", *(f"doc-bot-{n}" for n in range(1, 31))]
    return doc_site.bot_accounts(*names)


class Bots:
    def __init__(self, tokens: dict[str, str]) -> None:
        self.free = [name for name in tokens if name != "another-bot"]
        self.tokens = tokens

    def take(self) -> tuple[str, str]:
        name = self.free.pop(0)
        return name, self.tokens[name]


@pytest.fixture(scope="module")
def bots(tokens: dict[str, str]) -> Bots:
    return Bots(tokens)


def new_context(site: LiveSite, bots: Bots) -> tuple[str, Context]:
    name, token = bots.take()
    return name, Context(site, token)


@runs("account", "open-table", "tables", "table", "errors-http", "error-bad-token", "error-bad-request")
def test_the_account_and_opening_tables_are_answered_as_documented(doc_site, bots):
    _name, context = new_context(doc_site, bots)

    async def scenario() -> None:
        for name in ("account", "errors-http", "error-bad-token", "error-bad-request", "open-table", "tables"):
            await exchange(context, only(name, Exchange))
        context.table = (await api(context, "GET", "/api/bot/tables"))["tables"][0]["id"]
        await exchange(context, only("table", Exchange))

    run(scenario())


@runs("open-invite")
def test_inviting_another_bot_account_is_answered_as_documented(doc_site, bots):
    _name, context = new_context(doc_site, bots)
    run(exchange(context, only("open-invite", Exchange)))


@runs("join", "error-not-allowed")
def test_joining_is_answered_as_documented(doc_site, bots):
    _name, context = new_context(doc_site, bots)
    _host, host_token = bots.take()

    async def scenario() -> None:
        context.table = (await api(context, "POST", "/api/bot/tables", {}, token=host_token))["table"]["id"]
        await exchange(context, only("join", Exchange))
        context.table = await asyncio.to_thread(doc_site.shell, """
            from apps.accounts.models import User
            from apps.tables import services
            person = User.objects.create_user(username="a-person")
            print(services.table_open(by=person, game="tile-rummy", seat_count=2).pk)
        """)
        await exchange(context, only("error-not-allowed", Exchange))

    run(scenario())


@runs("invitations", "accept", "decline")
def test_invitations_are_answered_as_documented(doc_site, bots):
    name, context = new_context(doc_site, bots)
    _host, host_token = bots.take()

    async def invite() -> int:
        body = {"seat_1": "account", "seat_1_account": name}
        return int((await api(context, "POST", "/api/bot/tables", body, token=host_token))["table"]["id"])

    async def scenario() -> None:
        context.table = await invite()
        await exchange(context, only("invitations", Exchange))
        await exchange(context, only("accept", Exchange))
        context.table = await invite()
        await exchange(context, only("decline", Exchange))

    run(scenario())


@runs("lobby", "lobby-invitation", "socket-bad-token", "socket-revoked")
def test_the_lobby_socket_is_answered_as_documented(doc_site, bots):
    async def scenario() -> None:
        _name, context = new_context(doc_site, bots)
        await play_script(context, only("lobby", Script))
        await play_script(context, only("socket-bad-token", Script))

        name, invited = new_context(doc_site, bots)
        _host, host_token = bots.take()
        socket = await open_socket(invited, "/ws/lobby/")

        async def invite_once_listening(frame: dict[str, Any]) -> None:
            if frame["type"] == "invitations":
                await api(invited, "POST", "/api/bot/tables", {"seat_1": "account", "seat_1_account": name},
                          token=host_token)

        socket.listeners.append(invite_once_listening)
        await play_script(invited, only("lobby-invitation", Script), socket)

        _revoked_name, revoked = new_context(doc_site, bots)
        token_id = (await api(revoked, "GET", "/api/bot/account"))["token"]["id"]
        socket = await open_socket(revoked, "/ws/lobby/")

        async def revoke_once_listening(frame: dict[str, Any]) -> None:
            if frame["type"] == "invitations":
                await asyncio.to_thread(doc_site.manage, "bot_token", "revoke", str(token_id))

        socket.listeners.append(revoke_once_listening)
        await play_script(revoked, only("socket-revoked", Script), socket)

    run(scenario())


@runs("table-state", "error-not-finished")
def test_a_tables_first_frames_and_the_seed_are_answered_as_documented(doc_site, bots):
    _name, context = new_context(doc_site, bots)

    async def scenario() -> None:
        context.table = (await api(context, "POST", "/api/bot/tables", {"seat_1": "easy"}))["table"]["id"]
        socket = await play_script(context, only("table-state", Script))
        assert context.state is not None and context.state["view"] is not None
        context.game = context.state["table"]["current_game"]["id"]
        await exchange(context, only("error-not-finished", Exchange))
        await socket.ws.close()

    run(scenario())


@runs("move", "move-refused", "ping", "errors-frames")
def test_moves_and_refusals_are_answered_as_documented(doc_site, bots):
    _name, context = new_context(doc_site, bots)
    brain = get_bot("tile-rummy", "easy")
    rng = random.Random(11)

    async def scenario() -> None:
        context.table = (await api(context, "POST", "/api/bot/tables", {"seat_1": "easy"}))["table"]["id"]
        socket = await open_socket(context, "/ws/tables/{TABLE}/")
        await seeded(socket)
        while True:  # play (the Easy bot's moves) until a turn of ours starts with a draw, as the example does
            state = await until_state(socket, lambda s: s["view"] is not None and s["view"]["turn"] == s["seat"])
            if state["view"]["phase"] == "draw":
                break
            await socket.send({"type": "move", "move": str(brain.next_move(state["view"], rng)), "version": state["version"]})
            await until_state(socket, lambda s, seen=state["version"]: s["version"] > seen)
        await play_script(context, only("move", Script), socket, own_version=True)
        for name in ("move-refused", "ping", "errors-frames"):
            await play_script(context, only(name, Script), socket)
        await socket.ws.close()

    run(scenario())


@runs("start", "leave")
def test_hosting_and_standing_up_are_answered_as_documented(doc_site, bots):
    _name, host = new_context(doc_site, bots)
    _guest_name, guest = new_context(doc_site, bots)

    async def scenario() -> None:
        host.table = (await api(host, "POST", "/api/bot/tables", {}))["table"]["id"]
        await api(guest, "POST", f"/api/bot/tables/{host.table}/join")
        socket = await play_script(host, only("start", Script))
        await socket.ws.close()

        _other, other_token = bots.take()
        guest.table = (await api(guest, "POST", "/api/bot/tables", {}, token=other_token))["table"]["id"]
        await api(guest, "POST", f"/api/bot/tables/{guest.table}/join")
        socket = await play_script(guest, only("leave", Script))
        await socket.ws.close()

    run(scenario())


@pytest.fixture(scope="module")
def finished_table(doc_site: LiveSite, bots: Bots) -> tuple[str, dict[str, Any]]:
    """A match the example bot played to its end against the site's Easy bot: its token and result."""
    example_bot = load_example_bot()
    _name, token = bots.take()
    api = example_bot.Api(doc_site.url, token)
    return token, run(example_bot.open_and_play(api, "tile-rummy", "easy", example_bot.Brain("easy", seed=5)))


@runs("record", "rematch")
def test_a_finished_match_is_answered_as_documented(doc_site, finished_table):
    token, result = finished_table
    context = Context(doc_site, token, table=result["table"], game=result["games"][0])

    async def scenario() -> None:
        await exchange(context, only("record", Exchange))
        socket = await play_script(context, only("rematch", Script))
        await socket.ws.close()

    run(scenario())


@runs("error-rate-limited")
def test_the_rate_limit_is_answered_as_documented(doc_site, bots):
    _name, context = new_context(doc_site, bots)
    example = only("error-rate-limited", Exchange)
    headers = {name: context.fill(value) for name, value in example.request.headers.items()}
    for _request in range(1000):  # a fresh token: the request is answered as shown once its minute is spent
        status, answered_headers, body = http(doc_site, example.request.method, example.request.path, None, None, headers)
        if status != 200:
            break
    assert status == example.response.status and "Retry-After" in answered_headers
    assert differences(example.response.body, body) == [], body


@pytest.mark.parametrize("game", ["tile-rummy", "tile-rummy-rearrange"])
def test_the_views_shown_are_the_views_a_bot_receives(doc_site, bots, game):
    _name, context = new_context(doc_site, bots)

    async def view() -> dict[str, Any]:
        context.table = (await api(context, "POST", "/api/bot/tables", {"game": game, "seat_1": "easy"}))["table"]["id"]
        socket = await open_socket(context, "/ws/tables/{TABLE}/")
        state = await seeded(socket)
        await socket.ws.close()
        return state["view"]

    view_now = run(view())
    assert differences(VIEWS[game], view_now, loose=True) == []
    assert set(VIEWS[game]) == set(view_now)  # no key missing from the page either
    assert VIEWS[game]["game"] == game


def test_every_example_of_the_page_is_run_by_a_test():
    assert set(EXAMPLES) == RUN_BY_A_TEST
    assert set(VIEWS) == {"tile-rummy", "tile-rummy-rearrange"}
    assert all(EXAMPLES.values())


def test_the_page_gives_the_example_bot_its_token_as_the_bot_takes_it():
    """Never on the command line (issue 40: `ps` shows it to every user of the machine): the page's
    commands use the variable the example reads, and no `--token` argument."""
    page = DOC.read_text(encoding="utf-8")
    commands = [line for line in page.splitlines() if "examples/bot/bot.py" in line and "python" in line]
    assert commands and all("--token " not in line for line in commands)
    assert f"export {load_example_bot().TOKEN_VARIABLE}=rbt_" in page
