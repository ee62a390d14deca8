"""The one write path for tables, seats, matches and games (CONVENTIONS 6-10).

Every function here opens one transaction, locks the table row (`select_for_update`), checks what the
caller expected (seat, version), asks the engine, saves, raises the table's version by one and logs the
move. Broadcasts and task enqueues run after commit (`transaction.on_commit`). Views, consumers, Celery
tasks and the admin all call these functions; nothing else writes game state.

The table also acts by itself: a turn timeout, an autopilot turn, a bot's move, the next game of a
match. Whichever is next is stored on the table (`due_action` at `due_at`); a Celery task is queued for
that moment, and a periodic sweep (`tables_sweep_due`) runs anything overdue, so a lost task delays the
table by seconds, never forever. `table_due` runs only what is due, so a late or repeated task is harmless.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.catalog.data import game_name
from apps.engine.bots import bot_levels
from apps.engine.errors import EngineError, IllegalMove, InvalidMove
from apps.engine.game import Back, Leave, Move, Rules, get_rules, is_available
from apps.engine.match import Match as EngineMatch
from apps.engine.match import start_match
from apps.tables import broadcast, liveness
from apps.tables.models import BotLevel, Game, Match, MatchPlayer, MoveLog, Seat, Table
from apps.tables.options import MATCH_LENGTHS, PACES

log = logging.getLogger(__name__)

Due = Table.Due
Actor = MoveLog.Actor

#: Moves only the table itself makes; a player who sends one gets an error.
TABLE_ONLY_MOVES = frozenset({"timeout", "auto"})


def _seconds(name: str, default: float) -> timedelta:
    return timedelta(seconds=float(getattr(settings, name, default)))


# ---------------------------------------------------------------------------------------------------
# Errors


class TableError(Exception):
    """A request the table refuses; the message is shown to the player as it is."""


class TableNotFound(TableError):
    pass


class NotAllowed(TableError):
    pass


class StaleVersion(TableError):
    """The client acted on an old version of the table: it should resync and try again."""

    def __init__(self, expected: int, current: int) -> None:
        super().__init__(
            _("The table has moved on (you saw version %(expected)s, it is at %(current)s): here is the current state.")
            % {"expected": expected, "current": current}
        )
        self.expected = expected
        self.current = current


@dataclass(frozen=True)
class MoveOutcome:
    version: int
    duplicate: bool = False


# ---------------------------------------------------------------------------------------------------
# Helpers


def _lock(table_id: int) -> Table:
    try:
        # The match comes along (it is in every payload); only the table's row is locked.
        table = Table.objects.select_for_update(of=("self",)).select_related("match").get(pk=table_id)
    except Table.DoesNotExist:
        raise TableNotFound(_("There is no table %(id)s.") % {"id": table_id}) from None
    table._due_when_locked = (table.due_action, table.due_at)  # type: ignore[attr-defined]
    return table


def _seats(table: Table) -> list[Seat]:
    return list(Seat.objects.filter(table=table).select_related("user").order_by("index"))


def _seat_of(seats: Sequence[Seat], user: User | None) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return next((seat for seat in seats if seat.user_id == user.pk), None)


def _is_moderator(user: User | None) -> bool:
    return bool(user is not None and user.is_authenticated and user.is_staff)


def _check_may_sit(user: User) -> None:
    if not user.is_authenticated:
        raise NotAllowed(_("Sign in, or play as a guest, to take a seat."))
    if not user.is_active:
        raise NotAllowed(_("This account is disabled."))
    if user.is_banned:
        raise NotAllowed(
            _("Your account is banned from playing until %(until)s.")
            % {"until": date_format(timezone.localtime(user.banned_until), "SHORT_DATETIME_FORMAT")}
        )


def _bump(table: Table) -> None:
    table.version += 1


def _after_commit(
    table: Table,
    *,
    lobby: bool = True,
    seats: Sequence[Seat] | None = None,
    game: Game | None = None,
    state: Any = None,
) -> None:
    """Tell every viewer of the table (and the lobby) about the new version, and queue the next due
    action, once the transaction has committed.

    A due action that has not changed since the table was locked was queued when it was set (and the
    sweep is the backstop), so it is not queued again: a draw within a turn keeps the turn's deadline.

    Given the seats and the game just saved (and the engine state, if at hand), the payload is built
    from them rather than read back from the database: they are exactly what was committed."""
    table_id, version = table.pk, table.version
    due_action, due_at = table.due_action, table.due_at
    queue = bool(due_action and due_at is not None and (due_action, due_at) != getattr(table, "_due_when_locked", None))

    def run() -> None:
        payload = None
        if seats is not None and game is not None:
            from apps.tables.snapshot import payload_from

            try:
                payload = payload_from(table, list(seats), game, table.match, state)
            except Exception:  # never break the caller after its commit: read it back instead
                log.exception("Could not build the payload of table %s v%s from memory", table_id, version)
        broadcast.table_changed(table_id, version, payload=payload)
        if lobby:
            broadcast.lobby_changed(table_id)
        if queue:
            from apps.tables import tasks

            tasks.enqueue_due(table_id, due_action, due_at)  # type: ignore[arg-type]

    transaction.on_commit(run)


def _rules(table: Table) -> Rules[Any]:
    return get_rules(table.game)


def _parse_move(rules: Rules[Any], move: str | Mapping[str, Any]) -> Move:
    """The engine's reading of a move that came from outside. The engine promises InvalidMove for
    anything malformed; should some input slip past that promise (a ValueError from deep inside), it is
    still the player's malformed move, not a server error."""
    try:
        return rules.parse_move(move)
    except EngineError:
        raise
    except (ValueError, TypeError, LookupError, RecursionError) as error:
        log.warning("The engine raised %s instead of InvalidMove for the move %.200r", type(error).__name__, move)
        raise InvalidMove(_("%(move).80r is not a move.") % {"move": move}) from None


def _is_rated(seats: Sequence[Seat]) -> bool:
    """Rated only if every seat is a registered human: no bots, no guests (SPEC 5)."""
    return all(seat.user is not None and not seat.user.is_guest and not seat.bot_level for seat in seats)


# ---------------------------------------------------------------------------------------------------
# Opening, joining, leaving


def table_open(
    *,
    host: User,
    game: str,
    seat_count: int,
    match_length: int = 1,
    turn_seconds: int | None = None,
    private: bool = False,
    bots: Sequence[str] = (),
) -> Table:
    """Open a table; the host sits in seat 0, `bots[i]` ("easy", "hard" or "") sits in seat i + 1."""
    _check_may_sit(host)
    if not is_available(game):
        raise TableError(_("There is no game called %(game)r.") % {"game": game})
    rules = get_rules(game)
    if not rules.min_seats <= seat_count <= rules.max_seats:
        raise TableError(
            _("%(game)s is played by %(low)s to %(high)s players.")
            % {"game": game_name(game), "low": rules.min_seats, "high": rules.max_seats}
        )
    if match_length not in MATCH_LENGTHS:
        raise TableError(_("A match is 1, 3 or 5 games."))
    paces = PACES[game]
    if turn_seconds is None:
        turn_seconds = paces[0]
    if turn_seconds not in paces:
        raise TableError(
            _("The pace must be one of %(paces)s seconds per turn (0: no timer).")
            % {"paces": ", ".join(str(p) for p in sorted(paces))}
        )
    levels = list(bots) + [""] * (seat_count - 1 - len(bots))
    if len(levels) != seat_count - 1 or any(level not in ("", *BotLevel.values) for level in levels):
        raise TableError(_("Bots are chosen per empty seat: easy, hard or none."))
    missing = sorted({level for level in levels if level and level not in bot_levels(game)})
    if missing:
        raise TableError(
            _("There is no %(level)s bot for %(game)s yet.")
            % {"level": ", ".join(str(BotLevel(level).label) for level in missing), "game": game_name(game)}
        )
    with transaction.atomic():
        table = Table.objects.create(
            game=game,
            host=host,
            seat_count=seat_count,
            match_length=match_length,
            turn_seconds=turn_seconds,
            private=private,
            version=1,
        )
        now = timezone.now()
        Seat.objects.create(table=table, index=0, user=host, joined_at=now)
        for index, level in enumerate(levels, start=1):
            Seat.objects.create(table=table, index=index, bot_level=level, joined_at=now if level else None)
        _after_commit(table)
    return table


def table_join(*, table_id: int, user: User, seat_index: int | None = None, invite_token: str = "") -> Seat:
    """Sit at an open table: the given empty seat, or the first one."""
    _check_may_sit(user)
    with transaction.atomic():
        table = _lock(table_id)
        if table.status != Table.Status.OPEN:
            raise NotAllowed(_("This table is not taking players."))
        if table.private and not secrets.compare_digest(invite_token or "", table.invite_token):
            raise NotAllowed(_("This table is private: you need its invite link."))
        seats = _seats(table)
        if _seat_of(seats, user) is not None:
            raise NotAllowed(_("You already have a seat at this table."))
        empty = [seat for seat in seats if seat.is_empty]
        if seat_index is not None:
            empty = [seat for seat in empty if seat.index == seat_index]
            if not empty:
                raise NotAllowed(_("That seat is taken."))
        if not empty:
            raise NotAllowed(_("This table is full."))
        seat = empty[0]
        seat.user = user
        seat.joined_at = timezone.now()
        seat.rematch = False
        seat.save(update_fields=["user", "joined_at", "rematch"])
        _bump(table)
        table.save(update_fields=["version", "updated_at"])
        _after_commit(table)
    return seat


def _free_seat(seat: Seat) -> None:
    seat.user = None
    seat.bot_level = ""
    seat.joined_at = None
    seat.left_match = False
    seat.rematch = False
    seat.save(update_fields=["user", "bot_level", "joined_at", "left_match", "rematch"])


def _pass_host(table: Table, seats: Sequence[Seat]) -> None:
    """The host stood up from a table that is not playing: the next human becomes host, or it closes."""
    humans = [seat for seat in seats if seat.user_id is not None]
    if humans:
        table.host = humans[0].user
    else:
        table.host = None
        table.status = Table.Status.CLOSED
        table.closed_reason = "empty"
        table.due_action, table.due_at = Due.NOTHING, None


def table_leave(*, table_id: int, user: User) -> None:
    """Stand up. Before the match: the seat is free again. During a match: out of it (SPEC 3), placed
    after everyone still in; the rack leaves the game, the melds stay, the others play on."""
    with transaction.atomic():
        table = _lock(table_id)
        seats = _seats(table)
        seat = _seat_of(seats, user)
        if seat is None:
            raise NotAllowed(_("You have no seat at this table."))
        _remove_seat(table, seats, seat, actor=Actor.PLAYER)


def seat_kick(*, table_id: int, seat_index: int, by: User) -> None:
    """The host removes a player before the start; a moderator removes any seat at any time."""
    with transaction.atomic():
        table = _lock(table_id)
        seats = _seats(table)
        seat = next((s for s in seats if s.index == seat_index), None)
        if seat is None or seat.is_empty:
            raise TableError(_("There is nobody in that seat."))
        moderator = _is_moderator(by)
        if not moderator:
            if table.host_id != by.pk:
                raise NotAllowed(_("Only the host can remove a player."))
            if table.status != Table.Status.OPEN:
                raise NotAllowed(_("The host can remove players only before the match starts."))
            if seat.user_id == by.pk:
                raise NotAllowed(_("To leave your own table, stand up."))
        _remove_seat(table, seats, seat, actor=Actor.MODERATOR if moderator else Actor.PLAYER)


def _remove_seat(table: Table, seats: Sequence[Seat], seat: Seat, *, actor: str) -> None:
    if table.status == Table.Status.PLAYING and not seat.left_match:
        game = Game.objects.select_for_update().get(pk=table.current_game_id)
        rules = _rules(table)
        state = rules.from_dict(game.state)
        match = EngineMatch.from_dict(table.match.state)  # type: ignore[union-attr]
        table.match.state = match.leave(seat.index).to_dict()  # type: ignore[union-attr]
        table.match.save(update_fields=["state"])  # type: ignore[union-attr]
        seat.left_match = True
        seat.save(update_fields=["left_match"])
        MatchPlayer.objects.filter(match_id=table.match_id, seat=seat.index).update(left=True)
        if not rules.is_over(state) and not rules.has_left(state, seat.index):
            _apply_and_save(table, seats, game, rules, state, seat.index, Leave(), actor=actor)
            return
        # Between two games of the match: the next deal leaves the seat out.
        if EngineMatch.from_dict(table.match.state).is_over:  # type: ignore[union-attr]
            _finish_match(table, seats)
        _bump(table)
        table.save()
        _after_commit(table)
        return
    if table.status == Table.Status.PLAYING:
        raise NotAllowed(_("That player has already left the match."))
    _free_seat(seat)
    remaining = [s for s in seats if s.pk != seat.pk]
    if table.host_id is not None and not any(s.user_id == table.host_id for s in remaining):
        _pass_host(table, remaining)
    _bump(table)
    table.save()
    _after_commit(table)


def table_close(*, table_id: int, by: User, reason: str = "") -> None:
    """A moderator (or the host of a table that is not playing) closes the table. A match in progress is
    abandoned: it is not rated."""
    with transaction.atomic():
        table = _lock(table_id)
        if table.status == Table.Status.CLOSED:
            raise TableError(_("This table is already closed."))
        if not _is_moderator(by):
            if table.host_id != by.pk:
                raise NotAllowed(_("Only the host or a moderator can close a table."))
            if table.status == Table.Status.PLAYING:
                raise NotAllowed(_("A match is in progress: stand up to leave it."))
        if table.status == Table.Status.PLAYING and table.match_id is not None:
            Match.objects.filter(pk=table.match_id).update(finished_at=timezone.now(), rated=False)
        table.status = Table.Status.CLOSED
        table.closed_reason = reason or ("moderator" if _is_moderator(by) else "host")
        table.due_action, table.due_at = Due.NOTHING, None
        _bump(table)
        table.save()
        _after_commit(table)


# ---------------------------------------------------------------------------------------------------
# Matches


def table_start(*, table_id: int, by: User) -> Match:
    """The host starts the match once every seat is taken."""
    with transaction.atomic():
        table = _lock(table_id)
        if table.host_id != by.pk and not _is_moderator(by):
            raise NotAllowed(_("Only the host can start the match."))
        if table.status != Table.Status.OPEN:
            raise NotAllowed(_("The match has already started."))
        seats = _seats(table)
        if any(seat.is_empty for seat in seats):
            raise NotAllowed(_("Every seat must be taken before the match starts."))
        return _start_match(table, seats)


def _start_match(table: Table, seats: Sequence[Seat]) -> Match:
    rng = random.SystemRandom()
    # The first deal chooses its starter the game's own way (the rearrange game's draw for the start).
    engine_match, first_deal = start_match(table.game, table.seat_count, rng, table.match_length)
    number = (Match.objects.filter(table=table).count() or 0) + 1
    rated = _is_rated(seats)
    match = Match.objects.create(
        table=table, number=number, game=table.game, state=engine_match.to_dict(), rated=rated
    )
    MatchPlayer.objects.bulk_create(
        MatchPlayer(
            match=match,
            seat=seat.index,
            user=seat.user,
            bot_level=seat.bot_level,
            name=seat.display_name,
        )
        for seat in seats
    )
    for seat in seats:
        if seat.left_match or seat.rematch:
            seat.left_match = False
            seat.rematch = False
            seat.save(update_fields=["left_match", "rematch"])
    table.match = match
    table.rated = rated
    table.status = Table.Status.PLAYING
    _deal_next_game(table, seats, match, engine_match, rng, dealt=first_deal)
    return match


def _deal_next_game(
    table: Table,
    seats: Sequence[Seat],
    match: Match,
    engine_match: EngineMatch,
    rng: random.Random,
    now: datetime | None = None,
    *,
    dealt: Any = None,
) -> Game:
    rules = _rules(table)
    state = dealt if dealt is not None else engine_match.deal_next(rng)
    now = now or timezone.now()
    game = Game.objects.create(
        match=match,
        number=engine_match.games_played + 1,
        state=rules.to_dict(state),
        deal=rules.deal_of(state),
        turn=1,
    )
    table.current_game = game
    _schedule(table, seats, game, rules, state, now, new_turn=True)
    _bump(table)
    table.save()
    game.save()
    _after_commit(table, seats=seats, game=game, state=state)
    return game


def table_rematch(*, table_id: int, user: User) -> None:
    """After a match: this seat wants to play again at the same table."""
    with transaction.atomic():
        table = _lock(table_id)
        if table.status != Table.Status.FINISHED:
            raise NotAllowed(_("A rematch can be asked for once the match is over."))
        seats = _seats(table)
        seat = _seat_of(seats, user)
        if seat is None:
            raise NotAllowed(_("You have no seat at this table."))
        if not seat.rematch:
            seat.rematch = True
            seat.save(update_fields=["rematch"])
            _bump(table)
            table.save()
            _after_commit(table)


def table_new_match(*, table_id: int, by: User) -> Table:
    """The host starts over at the same table: bots and seats that asked for a rematch stay, the others
    are freed; the match starts at once if every seat is still taken, else the table waits for players."""
    with transaction.atomic():
        table = _lock(table_id)
        if table.host_id != by.pk:
            raise NotAllowed(_("Only the host can start a new match."))
        if table.status != Table.Status.FINISHED:
            raise NotAllowed(_("A new match can start once this one is over."))
        seats = _seats(table)
        for seat in seats:
            stays = seat.bot_level or seat.user_id == by.pk or (seat.rematch and not seat.left_match)
            if not stays and not seat.is_empty:
                _free_seat(seat)
        table.status = Table.Status.OPEN
        table.current_game = None
        table.due_action, table.due_at = Due.NOTHING, None
        if all(not seat.is_empty for seat in seats):
            _start_match(table, seats)
        else:
            _bump(table)
            table.save()
            _after_commit(table)
    return table


def _finish_match(table: Table, seats: Sequence[Seat]) -> None:
    """Places from the engine's standings; queue the rating update for a rated match."""
    match = table.match
    assert match is not None
    engine_match = EngineMatch.from_dict(match.state)
    standings = {standing.seat: standing for standing in engine_match.standings()}
    for player in MatchPlayer.objects.filter(match=match):
        standing = standings[player.seat]
        player.points = standing.points
        player.place = standing.place
        player.left = standing.left
        player.save(update_fields=["points", "place", "left"])
    match.finished_at = timezone.now()
    match.save(update_fields=["finished_at"])
    table.status = Table.Status.FINISHED
    table.due_action, table.due_at = Due.NOTHING, None
    if match.rated:
        match_id = match.pk

        def rate() -> None:
            from apps.leaderboards.tasks import rate_match

            rate_match.delay(match_id)

        transaction.on_commit(rate)


# ---------------------------------------------------------------------------------------------------
# Moves


def game_move(
    *,
    table_id: int,
    user: User,
    move: str | Mapping[str, Any],
    expected_version: int | None = None,
    client_id: str = "",
) -> MoveOutcome:
    """A seated player's move. The same `client_id` sent twice is applied once."""
    client_id = client_id[:64]  # as long as MoveLog keeps it, so that the duplicate check matches
    with transaction.atomic():
        table = _lock(table_id)
        seats = _seats(table)
        seat = _seat_of(seats, user)
        if seat is None:
            raise NotAllowed(_("You are watching this table: only its players can move."))
        if table.status != Table.Status.PLAYING or table.current_game_id is None:
            raise NotAllowed(_("There is no game in progress at this table."))
        if seat.left_match:
            raise NotAllowed(_("You have left this match."))
        game = Game.objects.select_for_update().get(pk=table.current_game_id)
        # One query for both the move's number and "was this client id already applied?".
        logged = MoveLog.objects.filter(game=game).aggregate(
            moves=Count("pk"), duplicates=Count("pk", filter=Q(seat=seat.index, client_id=client_id))
        )
        if client_id and logged["duplicates"]:
            return MoveOutcome(table.version, duplicate=True)
        if expected_version is not None and expected_version != table.version:
            raise StaleVersion(expected_version, table.version)
        rules = _rules(table)
        parsed = _parse_move(rules, move)
        if parsed.kind in TABLE_ONLY_MOVES:
            raise InvalidMove(_("%(move)r is a move only the table makes.") % {"move": str(parsed)})
        if isinstance(parsed, Leave):
            _remove_seat(table, seats, seat, actor=Actor.PLAYER)
            return MoveOutcome(table.version)
        state = rules.from_dict(game.state)
        if rules.is_over(state):
            raise IllegalMove(_("This game is over; the next one starts in a moment."))
        _apply_and_save(
            table, seats, game, rules, state, seat.index, parsed, actor=Actor.PLAYER, client_id=client_id,
            seq=logged["moves"] + 1,
        )
        return MoveOutcome(table.version)


def game_draft(*, table_id: int, user: User, move: str | Mapping[str, Any] | None) -> None:
    """Keep the play a player is preparing (the rearrange game's scratchpad) so a legal one can stand
    if the clock runs out. Nobody else sees it; the version does not change."""
    with transaction.atomic():
        table = _lock(table_id)
        seats = _seats(table)
        seat = _seat_of(seats, user)
        if seat is None or table.current_game_id is None or table.status != Table.Status.PLAYING:
            raise NotAllowed(_("You have no game in progress at this table."))
        game = Game.objects.select_for_update().get(pk=table.current_game_id)
        rules = _rules(table)
        state = rules.from_dict(game.state)
        if rules.to_move(state) != seat.index:
            raise NotAllowed(_("It is not your turn."))
        # Malformed drafts are refused now, not at the deadline; the draft is kept in the engine's own
        # notation, never as the client sent it (which may hold anything JSON can, NUL included).
        parsed = None if move is None else str(_parse_move(rules, move))
        game.draft = None if parsed is None else {"seat": seat.index, "turn": game.turn, "move": parsed}
        game.save(update_fields=["draft"])


def _apply_and_save(
    table: Table,
    seats: Sequence[Seat],
    game: Game,
    rules: Rules[Any],
    state: Any,
    seat: int,
    move: Move,
    *,
    actor: str,
    client_id: str = "",
    now: datetime | None = None,
    seq: int | None = None,
) -> None:
    """Apply one move to the locked game, log it, decide what is due next, and save. `now` is the
    table's clock (the sweep passes its own; tests pass a fake one); `seq` the move's number in the
    game, if the caller has counted already."""
    before_to_move = rules.to_move(state)
    status_before = table.status
    after = rules.apply(state, seat, move)
    now = now or timezone.now()
    _bump(table)
    if seq is None:
        seq = MoveLog.objects.filter(game=game).count() + 1
    MoveLog.objects.create(
        game=game,
        seq=seq,
        seat=seat,
        move=str(move),
        actor=actor,
        at=now,
        offset_ms=max(0, int((now - game.started_at).total_seconds() * 1000)),
        client_id=client_id[:64],
        version=table.version,
    )
    new_turn = rules.to_move(after) != before_to_move
    if new_turn:
        game.turn += 1
        game.draft = None
    game.state = rules.to_dict(after)
    if rules.is_over(after):
        result = rules.result(after)
        assert result is not None
        game.result = result.to_dict()
        game.finished_at = now
        game.deadline = None
        match = table.match
        assert match is not None
        engine_match = EngineMatch.from_dict(match.state).finish_game(after)
        match.state = engine_match.to_dict()
        match.save(update_fields=["state"])
        if engine_match.is_over:
            _finish_match(table, seats)
        else:
            table.due_action = Due.NEXT_GAME
            table.due_at = now + _seconds("TABLE_NEXT_GAME_DELAY", 6)
    else:
        _schedule(table, seats, game, rules, after, now, new_turn=new_turn)
    game.save(update_fields=["state", "turn", "draft", "deadline", "result", "finished_at"])
    table.save()
    # The lobby lists seats and status, which a move changes only when it ends the match.
    _after_commit(table, lobby=table.status != status_before, seats=seats, game=game, state=after)


def _schedule(
    table: Table, seats: Sequence[Seat], game: Game, rules: Rules[Any], state: Any, now: datetime, *, new_turn: bool
) -> None:
    """Decide what the table does next by itself, and when."""
    to_move = rules.to_move(state)
    if new_turn:
        game.deadline = now + timedelta(seconds=table.turn_seconds) if table.turn_seconds else None
    if to_move is None:
        table.due_action, table.due_at = Due.NOTHING, None
        return
    seat = next(s for s in seats if s.index == to_move)
    if seat.bot_level:
        table.due_action = Due.BOT
        table.due_at = now + _seconds("TABLE_BOT_DELAY", 0.9)
        game.deadline = None
    elif rules.is_away(state, to_move):
        table.due_action = Due.AUTOPILOT
        table.due_at = now + _seconds("TABLE_AUTOPILOT_DELAY", 0.6)
    elif game.deadline is not None:
        table.due_action, table.due_at = Due.TIMEOUT, game.deadline
    else:
        table.due_action, table.due_at = Due.NOTHING, None


# ---------------------------------------------------------------------------------------------------
# What the table does by itself


def table_due(*, table_id: int, action: str | None = None, now: datetime | None = None) -> bool:
    """Run the table's due action if it is due (and is `action`, when given). Returns whether it ran.
    Safe to call any number of times: what is not due, or already done, is left alone."""
    now = now or timezone.now()
    with transaction.atomic():
        table = _lock(table_id)
        if not table.due_action or table.due_at is None:
            return False
        if action is not None and table.due_action != action:
            return False
        if table.due_at > now + timedelta(milliseconds=50):
            return False
        if table.due_action == Due.TIMEOUT and liveness.timeouts_on_hold():
            return False  # the site is (or was just) down: the sweep gives the clocks back first
        seats = _seats(table)
        if table.due_action == Due.NEXT_GAME:
            match = table.match
            assert match is not None
            _deal_next_game(table, seats, match, EngineMatch.from_dict(match.state), random.SystemRandom(), now)
            return True
        game = Game.objects.select_for_update().get(pk=table.current_game_id)
        rules = _rules(table)
        state = rules.from_dict(game.state)
        seat = rules.to_move(state)
        if seat is None:
            table.due_action, table.due_at = Due.NOTHING, None
            table.save(update_fields=["due_action", "due_at"])
            return False
        if table.due_action == Due.TIMEOUT:
            pending = _pending_play(rules, game, seat)
            move = rules.timeout(state, seat, pending)
            _apply_and_save(table, seats, game, rules, state, seat, move, actor=Actor.TIMEOUT, now=now)
        elif table.due_action == Due.AUTOPILOT:
            move = rules.autopilot(state, seat)
            _apply_and_save(table, seats, game, rules, state, seat, move, actor=Actor.AUTOPILOT, now=now)
        elif table.due_action == Due.BOT:
            level = next(s.bot_level for s in seats if s.index == seat)
            _bot_move(table, seats, game, rules, state, seat, level, now)
        return True


def _pending_play(rules: Rules[Any], game: Game, seat: int) -> Move | None:
    draft = game.draft
    if not isinstance(draft, dict) or draft.get("seat") != seat or draft.get("turn") != game.turn:
        return None
    try:
        return rules.parse_move(draft["move"])
    except EngineError:
        return None


def _bot_move(
    table: Table,
    seats: Sequence[Seat],
    game: Game,
    rules: Rules[Any],
    state: Any,
    seat: int,
    level: str,
    now: datetime,
) -> None:
    from apps.engine.bots import get_bot

    rng = random.Random(secrets.randbits(64))
    try:
        move = get_bot(table.game, level).next_move(rules.view_for(state, seat), rng)
        rules.apply(state, seat, move)  # a bot plays only through the same checks as people
    except EngineError:
        # A bot must never stall a table: fall back to the autopilot's move, and say so in the log.
        log.exception("Bot %s at table %s made an illegal move; playing the autopilot move", level, table.pk)
        move = rules.autopilot(state, seat)
    _apply_and_save(table, seats, game, rules, state, seat, move, actor=Actor.BOT, now=now)


def tables_sweep_due(*, now: datetime | None = None, grace_seconds: float = 1.0) -> int:
    """Run every table action overdue by more than `grace_seconds` (the backstop for lost tasks)."""
    now = now or timezone.now()
    overdue = list(
        Table.objects.filter(due_at__lte=now - timedelta(seconds=grace_seconds))
        .exclude(due_action="")
        .order_by("due_at")
        .values_list("pk", flat=True)[:500]
    )
    ran = 0
    for table_id in overdue:
        try:
            ran += table_due(table_id=table_id, now=now)
        except Exception:  # one broken table must not stop the sweep of the others
            log.exception("Sweeping table %s failed", table_id)
    return ran


def games_extend_deadlines(*, by: timedelta, now: datetime | None = None) -> int:
    """After downtime: give every running turn clock the time it lost plus a grace, so nobody times out
    because the server was away (SPEC 5: disconnecting is not leaving). A turn keeps what it had left
    when the site went down: its deadline moves by `by` (the downtime plus the grace), and never to
    before now. Called by the sweep (apps/tables/liveness.py)."""
    now = now or timezone.now()
    count = 0
    with transaction.atomic():
        for table in Table.objects.select_for_update().filter(due_action=Due.TIMEOUT, due_at__isnull=False):
            table.due_at = max(table.due_at + by, now)  # type: ignore[operator]
            Game.objects.filter(pk=table.current_game_id).update(deadline=table.due_at)
            _bump(table)
            table.save(update_fields=["due_at", "version", "updated_at"])
            _after_commit(table, lobby=False)
            count += 1
    return count


def game_back(*, table_id: int, user: User) -> MoveOutcome:
    """"I'm back": the seat leaves autopilot."""
    return game_move(table_id=table_id, user=user, move=str(Back()))
