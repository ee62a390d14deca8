"""The read side of a table: what each viewer is sent (CONVENTIONS 9).

A change of a table is published once (`envelope`): the `state` frame of every seated player and the
spectators' one, each already encoded, and who sits where. Every web process hands each of its sockets
the frame of its own viewer (apps/tables/rooms.py), so no client ever receives another seat's rack, and
nothing is encoded once per socket.

Frames carry no translated text: seats, paces and games go by their codes (a bot's level, the seconds
per turn, the game's slug) and each page words them in its own language.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from apps.bots.selectors import is_bot_account
from apps.engine.game import get_rules
from apps.engine.match import Match as EngineMatch
from apps.live.compact import dumps, loads
from apps.tables import rated
from apps.tables.fairness import public_view
from apps.tables.links import url
from apps.tables.models import Game, Match, Seat, Table

SPECTATOR = "spectator"


def seat_info(seat: Seat) -> dict[str, Any]:
    """One seat as every viewer sees it (kept in `Table.seating`). `bot` is a site bot's level;
    `bot_account` marks a program playing through a bot account (SPEC 14); `invited` names the bot
    account an empty seat is kept for."""
    return {
        "index": seat.index,
        "name": seat.user.get_username() if seat.user is not None else "",
        "user_id": seat.user_id,
        "bot": seat.bot_level or None,
        "bot_account": is_bot_account(seat.user),
        "guest": bool(seat.user and seat.user.is_guest),
        "empty": seat.is_empty,
        "invited": seat.invited.get_username() if seat.invited is not None else None,
        "left": seat.left_match,
        "rematch": seat.rematch,
        "berserk": seat.berserk,
    }


def seating_of(seats: list[Seat]) -> list[dict[str, Any]]:
    return [seat_info(seat) for seat in sorted(seats, key=lambda seat: seat.index)]


def table_info(table: Table, game: Game | None, match: Match | None) -> dict[str, Any]:
    now = timezone.now()
    info: dict[str, Any] = {
        "id": table.pk,
        "game": table.game,
        "status": table.status,
        "seat_count": table.seat_count,
        "match_length": table.match_length,
        "turn_seconds": table.turn_seconds,
        "private": table.private,
        "rated": table.rated,
        "unrated": list(table.unrated_reasons or ()),  # why not: codes of apps/tables/rated.py
        "host_id": table.host_id,
        "version": table.version,
        "seats": table.seating,
        "due": table.due_action or None,
        "server_time": now.isoformat(),
    }
    if match is not None:
        engine_match = EngineMatch.from_dict(match.state)
        info["match"] = {
            "id": match.pk,
            "number": match.number,
            "games_played": engine_match.games_played,
            "length": engine_match.length,
            "scores": [list(row) for row in engine_match.scores],
            "totals": list(engine_match.totals),
            "standings": [standing.to_dict() for standing in engine_match.standings()],
            "over": match.finished_at is not None,
            # SPEC 11: the match ended before its abort window closed (a code of apps/tables/rated.py and
            # the seat that stood up), else null.
            "aborted": {"reason": match.aborted, "seat": match.aborted_seat} if match.aborted else None,
            # whether a player who leaves now aborts the match (the Leave dialog says so)
            "leaving_aborts": rated.leaving_aborts(table, game, match),
            "url": url("tables:match", match.pk),
            "fair": public_view(match),
        }
    if game is not None:
        deadline = game.deadline
        info["current_game"] = {
            "id": game.pk,
            "number": game.number,
            "turn": game.turn,
            "deadline": deadline.isoformat() if deadline else None,
            "seconds_left": max(0.0, (deadline - now).total_seconds()) if deadline else None,
            "next_game_at": table.due_at.isoformat()
            if table.due_action == Table.Due.NEXT_GAME and table.due_at
            else None,
            "log": game.log,  # "What happened", from the server (apps/tables/history.py)
            "ready": list(game.ready or ()),  # between the games of a match: the seats ready for the next
        }
    return info


def envelope(table: Table, game: Game | None, match: Match | None, state: Any = None, public: Any = None) -> str:
    """What one change of the table publishes: every viewer's `state` frame, already encoded, and who
    sits where (`pack`). `state` is the game's engine state if the caller has it (else it is read from
    `game.state`), `public` its spectators' view if the caller built that too."""
    table_json = dumps(table_info(table, game, match))
    seated = {seat["user_id"]: seat["index"] for seat in table.seating if seat["user_id"] is not None}
    views: dict[str, Any] = {SPECTATOR: None}
    if game is not None:
        rules = get_rules(table.game)
        if state is None:
            state, public = rules.from_dict(game.state), None
        built = rules.views_for(state, sorted(set(seated.values())), public)
        views = {SPECTATOR if seat is None else str(seat): view for seat, view in built.items()}
    else:
        for index in seated.values():
            views[str(index)] = None
    frames = {}
    for key, view in encoded_views(views).items():
        seat = "null" if key == SPECTATOR else key
        frames[key] = f'{{"type":"state","version":{table.version},"seat":{seat},"table":{table_json},"view":{view}}}'
    return pack(table.version, {str(user): index for user, index in seated.items()}, frames)


_ABSENT = object()


def encoded_views(views: dict[str, Any]) -> dict[str, str]:
    """Every view as JSON text. A seat's view is built on the spectators' one (`Rules.views_for`): what it
    shares with it (the very same objects) is encoded once for all the seats, and only its own part
    (who it is, what it may do, its rack) for each; the text decodes to the same view, its keys in
    another order.

    >>> public = {"turn": 1, "melds": [["r1", "r2", "r3"]], "you": None, "rack": None}
    >>> views = {"spectator": public, "0": {**public, "you": 0, "rack": ["k5"]}}
    >>> encoded_views(views)["0"]
    '{"you":0,"rack":["k5"],"turn":1,"melds":[["r1","r2","r3"]]}'
    """
    public = views.get(SPECTATOR)
    encoded = {SPECTATOR: dumps(public)}
    shared: dict[frozenset[str], str] = {}
    for key, view in views.items():
        if key == SPECTATOR:
            continue
        if not isinstance(view, dict) or not isinstance(public, dict) or any(name not in view for name in public):
            encoded[key] = dumps(view)
            continue
        own = {name: value for name, value in view.items() if public.get(name, _ABSENT) is not value}
        mine = frozenset(own)
        if mine not in shared:
            shared[mine] = dumps({name: value for name, value in public.items() if name not in mine})
        encoded[key] = _merged(dumps(own), shared[mine])
    return encoded


def _merged(first: str, second: str) -> str:
    """Two JSON objects' texts with no key in common as one object's text."""
    if first == "{}":
        return second
    if second == "{}":
        return first
    return f"{first[:-1]},{second[1:]}"


def pack(version: int, seats: dict[str, int], frames: dict[str, str]) -> str:
    r"""An envelope as text: a header line `{"v": version, "seats": {user id: seat}, "keys": [frame
    keys]}`, then each frame on a line of its own, as it goes to its sockets. Compact JSON never holds
    a newline (the encoder escapes it inside strings), so the frames are neither escaped into the header
    nor decoded to be split out again: a process reads the header alone.

    >>> text = pack(7, {"12": 0}, {"spectator": '{"a":"x\\ny"}', "0": '{"b":1}'})
    >>> text.count("\n")
    2
    >>> unpack(text)
    {'v': 7, 'seats': {'12': 0}, 'frames': {'spectator': '{"a":"x\\ny"}', '0': '{"b":1}'}}
    """
    texts = list(frames.values())
    if any("\n" in text for text in texts):
        raise ValueError("a frame of an envelope holds no newline")
    return "\n".join([dumps({"v": version, "seats": seats, "keys": list(frames)}), *texts])


def unpack(text: str) -> dict[str, Any]:
    """An envelope's {"v", "seats", "frames": {key: frame text}} (`pack`)."""
    header, *texts = text.split("\n")
    published: dict[str, Any] = loads(header)
    published["frames"] = dict(zip(published.pop("keys"), texts, strict=True))
    return published


def load(table_id: int) -> tuple[Table, Game | None, Match | None]:
    table = Table.objects.select_related("match", "match__fair_deal", "current_game").get(pk=table_id)
    return table, table.current_game, table.match


def table_envelope(table_id: int) -> str | None:
    """The envelope of the table's current version, from the database (None: no such table)."""
    try:
        return envelope(*load(table_id))
    except Table.DoesNotExist:
        return None


def frame_in(published: dict[str, Any], user_id: int | None) -> str:
    """The frame (as text) of one viewer in an unpacked envelope: their seat's, else the spectators'."""
    frames: dict[str, str] = published["frames"]
    seat = published["seats"].get(str(user_id)) if user_id is not None else None
    if seat is None:
        return frames[SPECTATOR]
    return frames.get(str(seat)) or frames[SPECTATOR]


def frame_for_user(table_id: int, user_id: int | None) -> dict[str, Any]:
    """The `state` frame one viewer would receive now (the table page embeds it)."""
    text = table_envelope(table_id)
    assert text is not None
    frame: dict[str, Any] = loads(frame_in(unpack(text), user_id))
    return frame


def lobby_entry(table: Table) -> dict[str, Any]:
    return {
        "id": table.pk,
        "game": table.game,
        "status": table.status,
        "seat_count": table.seat_count,
        "taken": sum(1 for seat in table.seating if not seat["empty"]),
        "match_length": table.match_length,
        "turn_seconds": table.turn_seconds,
        "rated": table.rated,
        "unrated": list(table.unrated_reasons or ()),
        "players": [
            {"name": seat["name"], "bot": seat["bot"], "bot_account": seat.get("bot_account", False)}
            for seat in table.seating
            if not seat["empty"]
        ],
        "url": url("tables:table", table.pk),
    }


def invitation_entry(table: Table, seat: Seat) -> dict[str, Any]:
    """An invitation of a bot account into a seat (SPEC 14), as its bot is told of it (codes, not words)."""
    invited = rated.seating_verdict(
        [{**info, "bot_account": True, "empty": False, "user_id": seat.invited_id} if info["index"] == seat.index else info for info in table.seating],
        turn_seconds=table.turn_seconds,
    )
    return {
        "table": table.pk,
        "seat": seat.index,
        "game": table.game,
        "seat_count": table.seat_count,
        "match_length": table.match_length,
        "turn_seconds": table.turn_seconds,
        "private": table.private,
        # Rated as the seats would be with the invited bot account in its seat.
        "rated": invited.rated,
        "unrated": list(invited.reasons),
        "host": table.host.get_username() if table.host is not None else "",
        "players": [
            {"name": info["name"], "bot": info["bot"], "bot_account": info.get("bot_account", False)}
            for info in table.seating
            if not info["empty"]
        ],
        "invited_at": seat.invited_at.isoformat() if seat.invited_at else None,
        "url": url("tables:table", table.pk),
        "socket": f"/ws/tables/{table.pk}/",
    }


def invitations_for(user_id: int) -> list[dict[str, Any]]:
    """The invitations waiting for this bot account, oldest first (one query)."""
    seats = (
        Seat.objects.filter(invited_id=user_id, table__status=Table.Status.OPEN)
        .select_related("table", "table__host")
        .order_by("invited_at", "pk")
    )
    return [invitation_entry(seat.table, seat) for seat in seats]


def invitation_of(table_id: int, user_id: int) -> dict[str, Any] | None:
    """This bot account's invitation at that table, if one waits."""
    seat = (
        Seat.objects.filter(table_id=table_id, invited_id=user_id, table__status=Table.Status.OPEN)
        .select_related("table", "table__host")
        .first()
    )
    return None if seat is None else invitation_entry(seat.table, seat)


def lobby_tables(limit: int = 100) -> list[dict[str, Any]]:
    """Public tables that are open or playing, newest first (one query)."""
    tables = Table.objects.filter(private=False, status__in=[Table.Status.OPEN, Table.Status.PLAYING]).order_by(
        "-created_at"
    )[:limit]
    return [lobby_entry(table) for table in tables]
