"""The read side of a table: what each viewer is sent (CONVENTIONS 9).

`table_payload` builds, from the database, the public description of a table and one engine view per
seat plus one for spectators. It is built once per change and broadcast to the table's group; each
connection forwards only the view of its own seat (or the spectators' view), so no client ever
receives another seat's rack.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.catalog.data import game_name
from apps.engine.game import get_rules
from apps.engine.match import Match as EngineMatch
from apps.tables.models import BotLevel, Game, Match, Seat, Table
from apps.tables.options import pace_label

SPECTATOR = "spectator"


def seat_info(seat: Seat) -> dict[str, Any]:
    return {
        "index": seat.index,
        "name": seat.display_name,
        "user_id": seat.user_id,
        "bot": seat.bot_level or None,
        "guest": bool(seat.user and seat.user.is_guest),
        "empty": seat.is_empty,
        "left": seat.left_match,
        "rematch": seat.rematch,
    }


def table_info(table: Table, seats: list[Seat], game: Game | None, match: Match | None) -> dict[str, Any]:
    now = timezone.now()
    info: dict[str, Any] = {
        "id": table.pk,
        "game": table.game,
        "game_name": game_name(table.game),
        "status": table.status,
        "seat_count": table.seat_count,
        "match_length": table.match_length,
        "turn_seconds": table.turn_seconds,
        "pace": pace_label(table.turn_seconds),
        "private": table.private,
        "rated": table.rated,
        "host_id": table.host_id,
        "version": table.version,
        "seats": [seat_info(seat) for seat in seats],
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
            "url": reverse("tables:match", args=[match.pk]),
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
        }
    return info


def load(table_id: int) -> tuple[Table, list[Seat], Game | None, Match | None]:
    table = Table.objects.select_related("match", "current_game").get(pk=table_id)
    seats = list(Seat.objects.filter(table=table).select_related("user").order_by("index"))
    return table, seats, table.current_game, table.match


def table_payload(table_id: int) -> dict[str, Any]:
    """Everything every viewer may need for the table's current version, views keyed by seat index
    (as a string) and "spectator"."""
    return payload_from(*load(table_id))


def payload_from(
    table: Table, seats: list[Seat], game: Game | None, match: Match | None, state: Any = None
) -> dict[str, Any]:
    """`table_payload` from rows already at hand (the service that just saved them); `state` is the
    game's engine state if the caller has it, else it is read from `game.state`."""
    views: dict[str, Any] = {}
    if game is not None:
        rules = get_rules(table.game)
        if state is None:
            state = rules.from_dict(game.state)
        views[SPECTATOR] = rules.view_for(state, None)
        for seat in seats:
            if seat.user_id is not None:
                views[str(seat.index)] = rules.view_for(state, seat.index)
    return {"version": table.version, "table": table_info(table, seats, game, match), "views": views}


def seat_index_for(payload: dict[str, Any], user_id: int | None) -> int | None:
    if user_id is None:
        return None
    for seat in payload["table"]["seats"]:
        if seat["user_id"] == user_id:
            return int(seat["index"])
    return None


def frame_for(payload: dict[str, Any], user_id: int | None) -> dict[str, Any]:
    """The `state` frame one viewer receives: the table (in the viewer's words) and only that viewer's
    view."""
    seat = seat_index_for(payload, user_id)
    views = payload["views"]
    view = views.get(str(seat)) if seat is not None else views.get(SPECTATOR)
    if view is None and views:
        view = views.get(SPECTATOR)
        seat = None
    table = in_viewer_words(payload["table"])
    return {"type": "state", "version": payload["version"], "seat": seat, "table": table, "view": view}


def in_viewer_words(info: dict[str, Any]) -> dict[str, Any]:
    """A table's (or a lobby entry's) words in the active language, the viewer's (SPEC 12). A payload is
    built once, in whatever language its builder had, and sent to every viewer: each connection puts
    the game's name, the pace and the bots' names into its own words from the codes beside them."""
    words = {**info, "game_name": game_name(info["game"]), "pace": pace_label(info["turn_seconds"])}
    if "seats" in info:
        words["seats"] = [{**seat, "name": seat_name(seat.get("bot"), seat["name"])} for seat in info["seats"]]
    if "player_seats" in info:
        words["players"] = [seat_name(bot, name) for name, bot in info["player_seats"]]
    return words


def seat_name(bot: str | None, name: str) -> str:
    """A bot's name in the active language (a person's name is the same in every language)."""
    if bot:
        return str(_("Bot (%(level)s)") % {"level": BotLevel(bot).label})
    return name


def lobby_entry(table: Table, seats: list[Seat]) -> dict[str, Any]:
    return {
        "id": table.pk,
        "game": table.game,
        "game_name": game_name(table.game),
        "status": table.status,
        "seat_count": table.seat_count,
        "taken": sum(1 for seat in seats if not seat.is_empty),
        "match_length": table.match_length,
        "turn_seconds": table.turn_seconds,
        "pace": pace_label(table.turn_seconds),
        "rated": _would_be_rated(table, seats),
        "players": [seat.display_name for seat in seats if not seat.is_empty],
        # (name, bot level): for `in_viewer_words`, as a broadcast entry is built in its sender's language.
        "player_seats": [(seat.display_name, seat.bot_level or None) for seat in seats if not seat.is_empty],
        "url": reverse("tables:table", args=[table.pk]),
    }


def _would_be_rated(table: Table, seats: list[Seat]) -> bool:
    if table.status != Table.Status.OPEN:
        return table.rated
    return all(not seat.bot_level and (seat.user is None or not seat.user.is_guest) for seat in seats)


def lobby_tables(limit: int = 100) -> list[dict[str, Any]]:
    """Public tables that are open or playing, newest first."""
    tables = list(
        Table.objects.filter(private=False, status__in=[Table.Status.OPEN, Table.Status.PLAYING]).order_by(
            "-created_at"
        )[:limit]
    )
    seats_by_table: dict[int, list[Seat]] = {table.pk: [] for table in tables}
    for seat in Seat.objects.filter(table__in=tables).select_related("user").order_by("index"):
        seats_by_table[seat.table_id].append(seat)
    return [lobby_entry(table, seats_by_table[table.pk]) for table in tables]
