#!/usr/bin/env python3
"""A small bot for the Tile Rummy site's bot API (docs/bot-api.md): it plays legal moves of both games.

    pip install websockets
    export RUMMY_BOT_TOKEN=rbt_...        # or --token-file PATH (a file holding only the token)
    python examples/bot/bot.py --url http://127.0.0.1:8000
        waits for invitations and challenges, accepts those of the games it plays, plays them to the end
    python examples/bot/bot.py --url http://127.0.0.1:8000 --open tile-rummy --vs easy
        opens a table against one of the site's bots (easy or hard; or the game tile-rummy-rearrange),
        plays the match to the end, prints the result and exits

The token never goes on the command line: every user of the machine can read a process's arguments
(`ps`), so it comes from the environment variable RUMMY_BOT_TOKEN or from a file (`--token-file`). It is
sent only to the site's own origin: a redirect to another origin is followed without it. And it never
travels in clear over a network: the site's address is `https://`, or `http://` to this machine only
(127.0.0.1, ::1, localhost: a site of your own).

Its brain is the site's own Easy bot (`apps.engine.bots`, the pure rules engine of this repository: run the
script from a checkout, or put the checkout on PYTHONPATH); `--brain hard` plays the Hard bot's moves. A bot
of your own replaces `Brain.next_move`: it gets the view your seat may see (docs/bot-api.md, "The view")
and returns one move in the game's notation.

Only the standard library and `websockets` besides the engine. The HTTP calls run in a thread, so one
process can play several tables at once.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import ipaddress
import json
import os
import random
import secrets
import stat
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the checkout, for apps.engine

from apps.engine.bots import get_bot  # noqa: E402

GAMES = ("tile-rummy", "tile-rummy-rearrange")
#: Close codes after which reconnecting cannot help (docs/bot-api.md, "Errors").
FINAL_CLOSE_CODES = {4401: "the token is unknown or was revoked", 4403: "the bot account is disabled or banned",
                     4404: "there is no such table (or it is private)"}
#: websockets 15 and later read proxy settings from the environment unless told not to; older ones never do.
NO_PROXY = {"proxy": None} if "proxy" in inspect.signature(connect).parameters else {}


def log(*parts: Any) -> None:
    print(*parts, flush=True)


#: How many times a request the site refused for the rate (429) is sent again, after the wait it asks for.
RATE_RETRIES = 2
#: Where the token comes from, unless `--token-file` names a file.
TOKEN_VARIABLE = "RUMMY_BOT_TOKEN"


class Unsafe(ValueError):
    """An address the token must not be sent to: plain http:// to another machine."""


def is_loopback(host: str | None) -> bool:
    if not host:
        return False
    if host.lower() == "localhost" or host.lower().endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def checked_url(url: str) -> str:
    """`url` if the token may be sent there: https://, or http:// to this machine (Unsafe otherwise: on
    plain http anyone on the way reads the token and every move).

    >>> checked_url("https://rummy.example")
    'https://rummy.example'
    >>> checked_url("http://127.0.0.1:8000")
    'http://127.0.0.1:8000'
    >>> try:
    ...     checked_url("http://rummy.example")
    ... except Unsafe as refused:
    ...     print(refused)
    refusing plain http:// to rummy.example: use https:// (http:// is only for this machine)
    """
    parts = urllib.parse.urlsplit(url)
    if parts.scheme == "https" and parts.hostname:
        return url
    if parts.scheme == "http" and is_loopback(parts.hostname):
        return url
    if parts.scheme == "http":
        raise Unsafe(f"refusing plain http:// to {parts.hostname}: use https:// (http:// is only for this machine)")
    raise Unsafe(f"refusing {url!r}: the site's address starts with https://")


def origin(url: str) -> tuple[str, str, int | None]:
    """The scheme, host and port a URL goes to (the default port written out)."""
    parts = urllib.parse.urlsplit(url)
    default = {"http": 80, "https": 443}.get(parts.scheme)
    return parts.scheme, (parts.hostname or "").lower(), parts.port or default


class SameOriginRedirects(urllib.request.HTTPRedirectHandler):
    """Follow a redirect as urllib does, but send the token only to the origin it was given for: urllib
    copies every header of the request into the redirected one, `Authorization` too, to wherever
    `Location` points. A redirect to an address `checked_url` refuses is not followed at all."""

    def redirect_request(self, req: Any, fp: Any, code: int, msg: str, headers: Any, newurl: str) -> Any:
        checked_url(newurl)
        new = super().redirect_request(req, fp, code, msg, headers, newurl)
        if new is not None and origin(newurl) != origin(req.full_url):
            new.remove_header("Authorization")
        return new


def token_from(path: str | None, environ: Any = os.environ) -> str:
    """The token: the contents of the file `path`, or else the variable RUMMY_BOT_TOKEN (ValueError if
    neither has one). A file others may read is used, with a warning."""
    if path:
        mode = os.stat(path).st_mode
        if os.name == "posix" and mode & (stat.S_IRWXG | stat.S_IRWXO):
            print(f"warning: {path} can be read by other users of this machine (chmod 600 {path})", file=sys.stderr)
        with open(path, encoding="utf-8") as file:
            token = file.read().strip()
        if not token:
            raise ValueError(f"{path} holds no token")
        return token
    token = (environ.get(TOKEN_VARIABLE) or "").strip()
    if not token:
        raise ValueError(f"no token: set {TOKEN_VARIABLE}, or give --token-file PATH (a file holding only the token)")
    return token


class Stopped(Exception):
    """The site closed a socket for good (docs/bot-api.md, "Errors"): reconnecting would not help."""


class ApiError(Exception):
    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(f"{status} {body.get('code')}: {body.get('message')}")
        self.status = status
        self.code = body.get("code")
        self.body = body


class Api:
    """The HTTP side: JSON in and out, the token in the Authorization header (only to the site's own
    origin, and only over https:// or to this machine: `checked_url`)."""

    def __init__(self, url: str, token: str) -> None:
        self.url = checked_url(url.rstrip("/"))
        self.token = token
        self.opener = urllib.request.build_opener(SameOriginRedirects)

    def _call(self, method: str, path: str, body: dict[str, Any] | None) -> dict[str, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.token}")
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        for attempt in range(RATE_RETRIES + 1):
            try:
                with self.opener.open(request, timeout=30) as response:
                    return json.loads(response.read())  # type: ignore[no-any-return]
            except urllib.error.HTTPError as error:
                body = json.loads(error.read() or b"{}")
                wait = error.headers.get("Retry-After", "")
                if error.code == 429 and attempt < RATE_RETRIES and wait.isdigit() and int(wait) <= 120:
                    # Over the bot account's rate (docs/bot-api.md, "Limits"): back no sooner than asked.
                    log(f"{path}: rate limited, again in {wait} s")
                    time.sleep(int(wait))
                    continue
                raise ApiError(error.code, body) from None
        raise AssertionError("unreachable")

    async def get(self, path: str) -> dict[str, Any]:
        return await asyncio.to_thread(self._call, "GET", path, None)

    async def post(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        return await asyncio.to_thread(self._call, "POST", path, body or {})

    def socket_url(self, path: str) -> str:
        return ("wss://" if self.url.startswith("https://") else "ws://") + self.url.split("://", 1)[1] + path

    def connect(self, path: str) -> Any:
        # websockets (14 and later) follows a socket's redirects itself, dropping Authorization across
        # origins and never from wss:// down to ws://.
        return connect(self.socket_url(path), additional_headers={"Authorization": f"Bearer {self.token}"},
                       **NO_PROXY)


class Paced:
    """One socket whose frames keep under the site's limit (docs/bot-api.md, "Limits": 8 a second on
    average, bursts of 30; over it the site closes the socket), with room to spare: each frame takes a token
    from a bucket of `burst` filled at `rate` a second, and waits for one when the bucket is empty. A game
    against the site's bots never waits (they think about a second); two fast programs would.

    >>> now = [0.0]
    >>> paced = Paced(None, rate=2.0, burst=2, clock=lambda: now[0])
    >>> [paced.wait() for _ in range(4)]  # two at once, then one every half second
    [0.0, 0.0, 0.5, 1.0]
    >>> now[0] = 10.0  # a long pause fills the bucket again, never past `burst`
    >>> [paced.wait() for _ in range(3)]
    [0.0, 0.0, 0.5]
    """

    def __init__(
        self, ws: Any, *, rate: float = 7.0, burst: int = 20, clock: Any = time.monotonic, sleep: Any = asyncio.sleep
    ) -> None:
        self.ws, self.rate, self.burst, self.clock, self.sleep = ws, rate, burst, clock, sleep
        self.tokens, self.at = float(burst), clock()

    def wait(self) -> float:
        """Take the token of one more frame: the seconds to wait before sending it."""
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.at) * self.rate) - 1
        self.at = now
        return 0.0 if self.tokens >= 0 else -self.tokens / self.rate

    async def send(self, text: str) -> None:
        delay = self.wait()
        if delay:
            await self.sleep(delay)
        await self.ws.send(text)


class Brain:
    """What to play: one move from the view of your seat (the site's own bots, from the engine)."""

    def __init__(self, level: str = "easy", seed: int | None = None) -> None:
        self.level = level
        self.rng = random.Random(seed)

    def next_move(self, game: str, view: dict[str, Any]) -> str:
        return str(get_bot(game, self.level).next_move(view, self.rng))


@dataclass
class Seat:
    """One table this bot plays at: it reads each `state` frame and answers with the frames it calls for."""

    table_id: int
    me: int
    brain: Brain
    shown: int = -1  # the newest version seen (older frames are ignored)
    acted: int = -1  # the version last acted on (one answer per version)
    seeded: set[int] = field(default_factory=set)  # matches whose fair-deal seed was sent
    games: list[int] = field(default_factory=list)  # the games of the match, for their records
    result: dict[str, Any] | None = None

    def reconnected(self) -> None:
        """A new socket: a frame sent on the old one may have been lost with it (the site closed it, say),
        so the first `state` is answered again (a move sent twice has one `id` and is applied once)."""
        self.shown = self.acted = -1
        self.seeded.clear()

    def answer(self, frame: dict[str, Any]) -> list[dict[str, Any]]:
        table, seat, view, version = frame["table"], frame["seat"], frame["view"], frame["version"]
        if version <= self.acted:
            return []
        self.acted = version
        game = table.get("current_game")
        if game and game["id"] not in self.games:
            self.games.append(game["id"])
        if table["status"] in ("finished", "closed"):
            self.result = {**summary(table), "games": self.games}
            return []
        if seat is None:
            return []  # watching (not seated yet)
        if table["status"] == "open":
            host = table["seats"][seat]["user_id"] == table["host_id"] == self.me
            full = all(not other["empty"] for other in table["seats"])
            return [{"type": "start"}] if host and full else []
        match = table.get("match") or {}
        fair = match.get("fair")
        if fair and fair["seeding"] and not fair["sent"][seat] and match["id"] not in self.seeded:
            self.seeded.add(match["id"])  # the fair deal waits for every human seat's seed: docs/fair-deals.md
            return [{"type": "seed", "seed": secrets.token_hex(16)}]
        if view is None or view["over"]:
            return []  # before the deal, or between two games of the match
        if view["players"][seat]["away"]:
            return [{"type": "back"}]  # the table played for us (a timeout): take the seat back
        if view["turn"] != seat:
            return []
        move = self.brain.next_move(table["game"], view)
        return [{"type": "move", "move": move, "version": version, "id": f"t{self.table_id}v{version}"}]


def summary(table: dict[str, Any]) -> dict[str, Any]:
    match = table.get("match") or {}
    names = [seat["name"] or (f"bot ({seat['bot']})" if seat["bot"] else "") for seat in table["seats"]]
    return {
        "table": table["id"],
        "game": table["game"],
        "status": table["status"],
        "match": match.get("id"),
        "totals": match.get("totals"),
        "standings": [{**standing, "name": names[standing["seat"]]} for standing in match.get("standings", [])],
    }


async def connected(api: Api, path: str, what: str, on_frame: Any, *, on_open: Any = None,
                    rate: tuple[float, int] = (7.0, 20)) -> Any:
    """Keep a socket open (reconnecting with backoff: the site restarted, say) and hand each frame to
    `await on_frame(ws, frame)` until it returns something other than None, which this returns; `ws.send`
    keeps under `rate` (frames a second, burst: Paced). `on_open()` runs as each socket opens. A close
    that reconnecting cannot mend raises Stopped."""
    delay = 0.5
    while True:
        try:
            async with api.connect(path) as socket:
                ws = Paced(socket, rate=rate[0], burst=rate[1])
                if on_open is not None:
                    on_open()
                delay = 0.5
                async for text in socket:
                    done = await on_frame(ws, json.loads(text))
                    if done is not None:
                        return done
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else None
            if code in FINAL_CLOSE_CODES:
                raise Stopped(f"{what}: closed with {code}: {FINAL_CLOSE_CODES[code]}") from None
        except OSError as error:
            log(f"{what}: {error}")
        await asyncio.sleep(delay)
        delay = min(8.0, delay * 2)


async def play(api: Api, table_id: int, socket_path: str, me: int, brain: Brain) -> dict[str, Any]:
    """Play at the table until its match is over (or the table closes): the match's result. After a
    reconnect the first state frame says where the table is."""
    seat = Seat(table_id, me, brain)

    async def on_frame(ws: Any, frame: dict[str, Any]) -> dict[str, Any] | None:
        if frame["type"] == "state" and frame["version"] > seat.shown:
            seat.shown = frame["version"]
            for reply in seat.answer(frame):
                await ws.send(json.dumps(reply))
        elif frame["type"] == "error" and frame["code"] != "stale":  # a stale move: a state follows
            log(f"table {table_id}: refused ({frame['code']}): {frame['message']}")
        return seat.result

    result: dict[str, Any] = await connected(api, socket_path, f"table {table_id}", on_frame, on_open=seat.reconnected)
    return result


async def open_and_play(api: Api, game: str, vs: str, brain: Brain, *, games: int = 1) -> dict[str, Any]:
    """Open a table against one of the site's bots (it starts at once), play the match, return its result."""
    me = (await api.get("/api/bot/account"))["account"]["id"]
    table = (await api.post("/api/bot/tables", {"game": game, "seats": 2, "match_length": games, "seat_1": vs}))["table"]
    log(f"table {table['id']}: {game} against the site's {vs} bot")
    return await play(api, table["id"], table["socket"], me, brain)


async def serve(api: Api, brain: Brain, *, matches: int | None = None) -> list[dict[str, Any]]:
    """Wait for invitations and challenges on the lobby socket; accept those of the games this bot plays and
    play each at once (several at a time). With `matches`, return the results after that many."""
    me = (await api.get("/api/bot/account"))["account"]["id"]
    results: list[dict[str, Any]] = []
    playing: dict[int, asyncio.Task[dict[str, Any]]] = {}
    done = asyncio.Event()

    def finished(task: asyncio.Task[dict[str, Any]]) -> None:
        if not task.cancelled() and task.exception() is None:
            results.append(task.result())
            log("result:", json.dumps(task.result()))
        if matches is not None and len(results) >= matches:
            done.set()

    def start(table_id: int, socket_path: str) -> None:
        if table_id not in playing:
            task = asyncio.ensure_future(play(api, table_id, socket_path, me, brain))
            task.add_done_callback(finished)
            playing[table_id] = task

    async def consider(invitation: dict[str, Any]) -> None:
        table_id = invitation["table"]
        try:
            if invitation["game"] not in GAMES:
                await api.post(f"/api/bot/invitations/{table_id}/decline")
                return
            table = (await api.post(f"/api/bot/invitations/{table_id}/accept"))["table"]
        except ApiError as error:  # withdrawn meanwhile, say
            log(f"table {table_id}: {error}")
            return
        log(f"table {table_id}: accepted {invitation['host']}'s invitation to {invitation['game']}")
        start(table_id, table["socket"])

    for table in (await api.get("/api/bot/tables"))["tables"]:  # back after a restart: the tables it sits at
        if table["status"] in ("open", "playing"):
            start(table["id"], table["socket"])

    async def on_lobby_frame(ws: Any, frame: dict[str, Any]) -> None:
        if frame["type"] == "invitations":
            waiting = frame["invitations"]
        elif frame["type"] == "invitation" and frame["invitation"]:
            waiting = [frame["invitation"]]
        else:
            return
        for invitation in waiting:
            await consider(invitation)

    listener = asyncio.ensure_future(connected(api, "/ws/lobby/", "lobby", on_lobby_frame, rate=(1.5, 8)))
    try:
        if matches is None:
            await listener
        else:
            waiter = asyncio.ensure_future(done.wait())
            finished_first, _ = await asyncio.wait({listener, waiter}, return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
            if listener in finished_first:
                listener.result()  # raises what stopped it
    finally:
        listener.cancel()
        for task in playing.values():
            task.cancel()
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True,
                        help="the site: https://..., or http:// to this machine, e.g. http://127.0.0.1:8000")
    parser.add_argument("--token-file", metavar="PATH",
                        help=f"a file holding only the bot account's token (else the variable {TOKEN_VARIABLE})")
    # Not a way in: a token on the command line is readable by every user of the machine (ps).
    parser.add_argument("--token", help=argparse.SUPPRESS)
    parser.add_argument("--open", choices=GAMES, help="open a table of this game and play it, then exit")
    parser.add_argument("--vs", choices=("easy", "hard"), default="easy", help="the site's bot to play (--open)")
    parser.add_argument("--games", type=int, choices=(1, 3, 5), default=1, help="games in the match (--open)")
    parser.add_argument("--brain", choices=("easy", "hard"), default="easy", help="whose moves this bot plays")
    parser.add_argument("--seed", type=int, default=None, help="seed the brain's choices")
    parser.add_argument("--matches", type=int, default=None, help="waiting: stop after this many matches")
    args = parser.parse_args(argv)
    if args.token is not None:
        parser.error(f"--token: a token on the command line can be read by every user of this machine (ps); "
                     f"set {TOKEN_VARIABLE} or give --token-file PATH instead (and make a new token: this one was seen)")
    try:
        api = Api(args.url, token_from(args.token_file))
    except (OSError, ValueError) as error:
        parser.error(str(error))
    brain = Brain(args.brain, args.seed)
    try:
        if args.open:
            result = asyncio.run(open_and_play(api, args.open, args.vs, brain, games=args.games))
            log("result:", json.dumps(result))
            for standing in result["standings"]:
                log(f"  place {standing['place']}: {standing['name']} ({standing['points']:+d})")
        else:
            asyncio.run(serve(api, brain, matches=args.matches))
    except ApiError as error:
        log(f"refused: {error}")
        return 1
    except Stopped as error:
        log(f"stopped: {error}")
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
