"""Opening a table, sitting down, standing up, being removed, closing."""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.catalog.data import game_name
from apps.engine.bots import bot_levels
from apps.engine.game import Leave, get_rules, is_available
from apps.engine.match import Match as EngineMatch
from apps.tables import effects
from apps.tables.models import BotLevel, FairDeal, Match, MatchPlayer, MoveLog, Seat, Table
from apps.tables.options import MATCH_LENGTHS, PACES
from apps.tables.services.errors import NotAllowed, TableError
from apps.tables.services.flow import Due, deal_first_game, finish_match
from apps.tables.services.play import apply_and_save
from apps.tables.services.rows import bump, check_may_sit, is_moderator, lock, rules_of, save_seating, seat_row, seats

Actor = MoveLog.Actor


def table_open(
    *,
    by: User,
    game: str,
    seat_count: int,
    match_length: int = 1,
    turn_seconds: int | None = None,
    private: bool = False,
    bots: Sequence[str] = (),
) -> Table:
    """Open a table; its host (`by`) sits in seat 0, `bots[i]` ("easy", "hard" or "") in seat i + 1."""
    check_may_sit(by)
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
            host=by,
            seat_count=seat_count,
            match_length=match_length,
            turn_seconds=turn_seconds,
            private=private,
            version=1,
        )
        now = timezone.now()
        rows = [Seat(table=table, index=0, user=by, joined_at=now)]
        rows += [
            Seat(table=table, index=index, bot_level=level, joined_at=now if level else None)
            for index, level in enumerate(levels, start=1)
        ]
        Seat.objects.bulk_create(rows)
        save_seating(table, rows)
        table.save(update_fields=["seating"])
        effects.after_commit(table)
    return table


def table_join(*, table_id: int, by: User, seat_index: int | None = None, invite_token: str = "") -> Seat:
    """Sit at an open table: the given empty seat, or the first one."""
    check_may_sit(by)
    with transaction.atomic():
        table = lock(table_id)
        if table.status != Table.Status.OPEN:
            raise NotAllowed(_("This table is not taking players."))
        if table.private and not secrets.compare_digest(invite_token or "", table.invite_token):
            raise NotAllowed(_("This table is private: you need its invite link."))
        rows = seats(table)
        if seat_row(rows, by) is not None:
            raise NotAllowed(_("You already have a seat at this table."))
        empty = [seat for seat in rows if seat.is_empty]
        if seat_index is not None:
            empty = [seat for seat in empty if seat.index == seat_index]
            if not empty:
                raise NotAllowed(_("That seat is taken."))
        if not empty:
            raise NotAllowed(_("This table is full."))
        seat = empty[0]
        seat.user = by
        seat.joined_at = timezone.now()
        seat.rematch = False
        seat.save(update_fields=["user", "joined_at", "rematch"])
        save_seating(table, rows)
        bump(table)
        table.save(update_fields=["version", "seating", "updated_at"])
        effects.after_commit(table)
    return seat


def free_seat(seat: Seat) -> None:
    seat.user = None
    seat.bot_level = ""
    seat.joined_at = None
    seat.left_match = False
    seat.rematch = False
    seat.save(update_fields=["user", "bot_level", "joined_at", "left_match", "rematch"])


def _pass_host(table: Table, rows: Sequence[Seat]) -> None:
    """The host stood up from a table that is not playing: the next human becomes host, or it closes."""
    humans = [seat for seat in rows if seat.user_id is not None]
    if humans:
        table.host = humans[0].user
    else:
        table.host = None
        table.status = Table.Status.CLOSED
        table.closed_reason = "empty"
        table.due_action, table.due_at = Due.NOTHING, None


def table_leave(*, table_id: int, by: User) -> None:
    """Stand up. Before the match: the seat is free again. During a match: out of it (SPEC 3), placed
    after everyone still in; the rack leaves the game, the melds stay, the others play on."""
    with transaction.atomic():
        table = lock(table_id)
        rows = seats(table)
        seat = seat_row(rows, by)
        if seat is None:
            raise NotAllowed(_("You have no seat at this table."))
        remove_seat(table, rows, seat, actor=Actor.PLAYER)


def seat_kick(*, table_id: int, seat_index: int, by: User) -> None:
    """The host removes a player before the start; a moderator removes any seat at any time."""
    with transaction.atomic():
        table = lock(table_id)
        rows = seats(table)
        seat = next((s for s in rows if s.index == seat_index), None)
        if seat is None or seat.is_empty:
            raise TableError(_("There is nobody in that seat."))
        moderator = is_moderator(by)
        if not moderator:
            if table.host_id != by.pk:
                raise NotAllowed(_("Only the host can remove a player."))
            if table.status != Table.Status.OPEN:
                raise NotAllowed(_("The host can remove players only before the match starts."))
            if seat.user_id == by.pk:
                raise NotAllowed(_("To leave your own table, stand up."))
        remove_seat(table, rows, seat, actor=Actor.MODERATOR if moderator else Actor.PLAYER)


def remove_seat(table: Table, rows: list[Seat], seat: Seat, *, actor: str) -> None:
    """The seat stands up (the table is locked). During a match it is out of the match; before it (or
    after it), the seat is free again."""
    if table.status == Table.Status.PLAYING and table.current_game is None and table.due_action == Due.DEAL:
        # Standing up while the seeds are taken ends the window: the first game is dealt to every seat
        # (game 1 has no absent seats), and the seat then leaves it as it would at any time.
        match = table.match
        assert match is not None
        deal_first_game(table, match, FairDeal.objects.get(match=match), timezone.now())
    if table.status == Table.Status.PLAYING and not seat.left_match:
        game = table.current_game
        assert game is not None and table.match is not None
        rules = rules_of(table)
        state = rules.from_dict(game.state)
        match = table.match
        match.state = EngineMatch.from_dict(match.state).leave(seat.index).to_dict()
        match.save(update_fields=["state"])
        seat.left_match = True
        seat.save(update_fields=["left_match"])
        save_seating(table, rows)
        MatchPlayer.objects.filter(match_id=table.match_id, seat=seat.index).update(left=True)
        if not rules.is_over(state) and not rules.has_left(state, seat.index):
            apply_and_save(table, rules, state, seat.index, Leave(), actor=actor, table_fields=("seating",))
            return
        # Between two games of the match: the next deal leaves the seat out.
        rated_match = finish_match(table) if EngineMatch.from_dict(match.state).is_over else None
        bump(table)
        table.save()
        effects.after_commit(table, rated_match_finished=rated_match)
        return
    if table.status == Table.Status.PLAYING:
        raise NotAllowed(_("That player has already left the match."))
    free_seat(seat)
    save_seating(table, rows)
    if table.host_id is not None and not any(s.user_id == table.host_id for s in rows):
        _pass_host(table, rows)
    bump(table)
    table.save()
    effects.after_commit(table)


def table_close(*, table_id: int, by: User, reason: str = "") -> None:
    """A moderator (or the host of a table that is not playing) closes the table. A match in progress is
    abandoned: it is not rated."""
    with transaction.atomic():
        table = lock(table_id)
        if table.status == Table.Status.CLOSED:
            raise TableError(_("This table is already closed."))
        if not is_moderator(by):
            if table.host_id != by.pk:
                raise NotAllowed(_("Only the host or a moderator can close a table."))
            if table.status == Table.Status.PLAYING:
                raise NotAllowed(_("A match is in progress: stand up to leave it."))
        if table.status == Table.Status.PLAYING and table.match_id is not None:
            Match.objects.filter(pk=table.match_id).update(finished_at=timezone.now(), rated=False)
        table.status = Table.Status.CLOSED
        table.closed_reason = reason or ("moderator" if is_moderator(by) else "host")
        table.due_action, table.due_at = Due.NOTHING, None
        bump(table)
        table.save()
        effects.after_commit(table)
