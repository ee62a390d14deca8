"""Opening a table, sitting down, standing up, being removed, closing."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.bots.selectors import is_bot_account
from apps.catalog.data import game_name
from apps.engine.bots import bot_levels
from apps.engine.game import Leave, get_rules, is_available
from apps.engine.match import Match as EngineMatch
from apps.lib.events import Event
from apps.social.selectors import has_blocked
from apps.tables import effects, rated
from apps.tables.events import InvitationChanged, SeatChanged, TableClosed, TableOpened
from apps.tables.models import BotLevel, FairDeal, Match, MatchPlayer, MoveLog, Seat, Table
from apps.tables.options import MATCH_LENGTHS, PACES
from apps.tables.services.errors import NotAllowed, TableError, TableNotFound
from apps.tables.services.flow import Due, abort_match, deal_first_game, finish_match, in_abort_window
from apps.tables.services.play import apply_and_save
from apps.tables.services.rows import (
    SEATING_FIELDS,
    bump,
    check_host_limit,
    check_may_sit,
    check_seat_limit,
    hold_user_limits,
    is_moderator,
    lock,
    no_such_table,
    rules_of,
    save_seating,
    seat_row,
    seats,
)

Actor = MoveLog.Actor

#: Table.closed_reason of a playing table whose last person left (only site bots were left).
NO_HUMAN = "no_human"
#: Table.closed_reason of a quick pairing's table that a paired player did not come to (SPEC 15).
NO_SHOW = "no_show"


def table_open(
    *,
    by: User,
    game: str,
    seat_count: int,
    match_length: int = 1,
    turn_seconds: int | None = None,
    private: bool = False,
    bots: Sequence[str] = (),
    invite: Mapping[int, User] | None = None,
) -> Table:
    """Open a table; its host (`by`) sits in seat 0, `bots[i]` ("easy", "hard" or "") in seat i + 1, and
    `invite[i]`, a bot account, is invited into seat i (SPEC 14: the seat is kept for it until it accepts
    or declines). A user hosts at most a few tables that have not started, and sits at a few at once
    (SPEC 11: rows.check_host_limit, rows.check_seat_limit)."""
    check_may_sit(by)
    invite = dict(invite or {})
    levels = check_options(
        game, seat_count=seat_count, match_length=match_length, turn_seconds=turn_seconds, bots=bots, people=1
    )
    if turn_seconds is None:
        turn_seconds = PACES[game][0]
    check_invitations(by, invite, levels[1:])
    with transaction.atomic():
        hold_user_limits(by)
        check_host_limit(by)
        check_seat_limit(by)
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
            Seat(
                table=table,
                index=index,
                bot_level=level,
                joined_at=now if level else None,
                invited=invite.get(index),
                invited_at=now if index in invite else None,
            )
            for index, level in enumerate(levels[1:], start=1)
        ]
        Seat.objects.bulk_create(rows)
        save_seating(table, rows)
        table.save(update_fields=list(SEATING_FIELDS))
        effects.after_commit(
            table,
            events=(
                SeatChanged(table.pk, 0, by.pk, seated=True),
                TableOpened(table.pk, by.pk, private),
                *(InvitationChanged(table.pk, user.pk) for user in invite.values()),
            ),
        )
    return table


def check_options(
    game: str, *, seat_count: int, match_length: int, turn_seconds: int | None, bots: Sequence[str], people: int
) -> list[str]:
    """Refuse a table's options that the game does not allow; return each seat's site bot level ("" for
    a person's seat), the `people` seats first, then `bots`, then empty seats."""
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
    if turn_seconds is not None and turn_seconds not in paces:
        raise TableError(
            _("The pace must be one of %(paces)s seconds per turn (0: no timer).")
            % {"paces": ", ".join(str(p) for p in sorted(paces))}
        )
    levels = list(bots) + [""] * (seat_count - people - len(bots))
    if len(levels) != seat_count - people or any(level not in ("", *BotLevel.values) for level in levels):
        raise TableError(_("Bots are chosen per empty seat: easy, hard or none."))
    missing = sorted({level for level in levels if level and level not in bot_levels(game)})
    if missing:
        raise TableError(
            _("There is no %(level)s bot for %(game)s yet.")
            % {"level": ", ".join(str(BotLevel(level).label) for level in missing), "game": game_name(game)}
        )
    return [""] * people + levels


def check_invitations(by: User, invite: Mapping[int, User], levels: Sequence[str]) -> None:
    """Who may be invited where: bot accounts that may play now, each once, into seats 1 and up that have
    no site bot."""
    seen: set[int] = set()
    for index, user in invite.items():
        if not 1 <= index <= len(levels) or levels[index - 1]:
            raise TableError(_("A bot account is invited into an empty seat of the table."))
        if not is_bot_account(user):
            raise TableError(_("%(name)s is not a bot account: people join from the lobby.") % {"name": user.get_username()})
        if user.pk == by.pk or user.pk in seen:
            raise TableError(_("Each bot account is invited into one seat."))
        if not user.is_active or user.is_banned:
            raise NotAllowed(_("%(name)s cannot play now.") % {"name": user.get_username()})
        seen.add(user.pk)


def table_join(*, table_id: int, by: User, seat_index: int | None = None, invite_token: str = "") -> Seat:
    """Sit at an open table: the given empty seat, or the first one. A seat kept for an invited bot account
    is its own (joining there is accepting); a bot account sits only where it is invited, at a private
    table it has the link of, or among bot accounts (SPEC 14: never at a table of people unasked). A
    private table is, to anyone without its link, a table that does not exist: the same refusal, word for
    word (SPEC 11)."""
    check_may_sit(by)
    with transaction.atomic():
        table = lock(table_id)
        rows = seats(table)
        invited = next((seat for seat in rows if seat.invited_id == by.pk), None)
        holds_link = table.private and secrets.compare_digest(invite_token or "", table.invite_token)
        if table.private and invited is None and not holds_link and seat_row(rows, by) is None and not is_moderator(by):
            raise TableNotFound(no_such_table(table_id))
        # SPEC 17: whom the host blocked does not sit at the host's table, and is told only what a table
        # that stopped taking players says (blocking is silent).
        if table.status != Table.Status.OPEN or has_blocked(table.host_id, by.pk):
            raise NotAllowed(_("This table is not taking players."))
        if seat_row(rows, by) is not None:
            raise NotAllowed(_("You already have a seat at this table."))
        if invited is not None and seat_index in (None, invited.index):
            hold_user_limits(by)
            check_seat_limit(by)
            return sit(table, rows, invited, by)
        if is_bot_account(by) and not holds_link and not all(is_bot_account(seat.user) for seat in rows if seat.user_id):
            raise NotAllowed(_("A bot account sits at a table of people only when it is invited."))
        empty = [seat for seat in rows if seat.is_empty and seat.invited_id is None]
        if seat_index is not None:
            empty = [seat for seat in empty if seat.index == seat_index]
            if not empty:
                kept = next((seat for seat in rows if seat.index == seat_index and seat.invited_id), None)
                if kept is not None and kept.invited is not None and kept.is_empty:
                    raise NotAllowed(_("That seat is kept for %(name)s.") % {"name": kept.invited.get_username()})
                raise NotAllowed(_("That seat is taken."))
        if not empty:
            raise NotAllowed(_("This table is full."))
        hold_user_limits(by)
        check_seat_limit(by)
        return sit(table, rows, empty[0], by)


def sit(table: Table, rows: list[Seat], seat: Seat, by: User) -> Seat:
    """`by` takes the seat (the table is locked and open, the seat empty): an invitation into it is used up."""
    was_invited = seat.invited_id
    seat.user = by
    seat.joined_at = timezone.now()
    seat.rematch = False
    seat.invited = None
    seat.invited_at = None
    seat.save(update_fields=["user", "joined_at", "rematch", "invited", "invited_at"])
    save_seating(table, rows)
    bump(table)
    table.save(update_fields=["version", *SEATING_FIELDS, "updated_at"])
    events: list[Event] = [SeatChanged(table.pk, seat.index, by.pk, seated=True)]
    if was_invited:
        events.append(InvitationChanged(table.pk, was_invited))
    effects.after_commit(table, events=events)
    return seat


def invitation_withdraw(table: Table, rows: list[Seat], seat: Seat) -> None:
    """The seat is no longer kept for the bot account invited into it (the table is locked)."""
    user_id = seat.invited_id
    seat.invited = None
    seat.invited_at = None
    seat.save(update_fields=["invited", "invited_at"])
    save_seating(table, rows)
    bump(table)
    table.save(update_fields=["version", *SEATING_FIELDS, "updated_at"])
    effects.after_commit(table, events=[InvitationChanged(table.pk, user_id)] if user_id else [])


def _invited(table: Table, by: User) -> tuple[list[Seat], Seat]:
    """The locked open table's seat rows, and the seat kept for `by` (NotAllowed if none is)."""
    rows = seats(table)
    seat = next((seat for seat in rows if seat.invited_id == by.pk), None)
    if seat is None or table.status != Table.Status.OPEN:
        raise NotAllowed(_("No invitation to this table is waiting for you."))
    return rows, seat


def invitation_accept(*, table_id: int, by: User) -> Seat:
    """The invited bot account takes the seat kept for it."""
    check_may_sit(by)
    with transaction.atomic():
        table = lock(table_id)
        rows, seat = _invited(table, by)
        hold_user_limits(by)
        check_seat_limit(by)
        return sit(table, rows, seat, by)


def invitation_decline(*, table_id: int, by: User) -> None:
    """The invited bot account says no: the seat is free for anyone again."""
    with transaction.atomic():
        table = lock(table_id)
        rows, seat = _invited(table, by)
        invitation_withdraw(table, rows, seat)


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
    after everyone still in; the rack leaves the game, the melds stay, the others play on. A rated match
    left before its abort window closed is aborted (SPEC 11): no places, no rating."""
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
        moderator = is_moderator(by)
        if seat is not None and seat.invited_id and (moderator or table.host_id == by.pk):
            if table.status != Table.Status.OPEN:
                raise NotAllowed(_("The host can remove players only before the match starts."))
            invitation_withdraw(table, rows, seat)  # the host takes the invitation back
            return
        if seat is None or seat.is_empty:
            raise TableError(_("There is nobody in that seat."))
        if not moderator:
            if table.host_id != by.pk:
                raise NotAllowed(_("Only the host can remove a player."))
            if table.status != Table.Status.OPEN:
                raise NotAllowed(_("The host can remove players only before the match starts."))
            if seat.user_id == by.pk:
                raise NotAllowed(_("To leave your own table, stand up."))
        remove_seat(table, rows, seat, actor=Actor.MODERATOR if moderator else Actor.PLAYER)


def remove_seat(table: Table, rows: list[Seat], seat: Seat, *, actor: str) -> None:
    """The seat stands up (the table is locked), whoever stood it up (`actor`: the player, or a moderator).
    During a match it is out of the match, placed last; in a rated match's abort window (SPEC 11,
    apps/tables/rated.py) the match is aborted instead. Before a match (or after it), the seat is free
    again. A match left to site bots alone closes (SPEC 11)."""
    stand_up(table, rows, seat, actor=actor)
    close_if_no_human(table, rows)


def stand_up(table: Table, rows: list[Seat], seat: Seat, *, actor: str) -> None:
    stood_up = SeatChanged(table.pk, seat.index, seat.user_id, seated=False)
    if table.status == Table.Status.PLAYING and not seat.left_match and in_abort_window(table):
        # Before every person at a rated table has played a few turns: the match is aborted, not lost.
        ended = abort_match(table, seat, rated.ABORT_REMOVED if actor == Actor.MODERATOR else rated.ABORT_LEFT)
        save_seating(table, rows)
        bump(table)
        table.save()
        effects.after_commit(table, events=(stood_up, ended))
        return
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
        MatchPlayer.objects.filter(match=match, seat=seat.index).update(left=True)
        if not rules.is_over(state) and not rules.has_left(state, seat.index):
            apply_and_save(
                table, rules, state, seat.index, Leave(), actor=actor, table_fields=("seating",), events=(stood_up,)
            )
            return
        # Between two games of the match: the next deal leaves the seat out.
        events: list[Event] = [stood_up]
        if EngineMatch.from_dict(match.state).is_over:
            events.append(finish_match(table))
        bump(table)
        table.save()
        effects.after_commit(table, events=events)
        return
    if table.status == Table.Status.PLAYING:
        raise NotAllowed(_("That player has already left the match."))
    free_seat(seat)
    save_seating(table, rows)
    if table.host_id is not None and not any(s.user_id == table.host_id for s in rows):
        _pass_host(table, rows)
    bump(table)
    table.save()
    events = [stood_up]
    if table.status == Table.Status.CLOSED:
        events += [TableClosed(table.pk, table.closed_reason), *invitations_gone(table, rows)]
    effects.after_commit(table, events=events)


def invitations_gone(table: Table, rows: Sequence[Seat]) -> list[Event]:
    """The closed table's invitations, gone with it."""
    return [InvitationChanged(table.pk, seat.invited_id) for seat in rows if seat.invited_id]


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
        close(table, reason or ("moderator" if is_moderator(by) else "host"))


def table_abort_absent(*, table_id: int, user_ids: Sequence[int]) -> bool:
    """Quick pairing (SPEC 15): players seated by a pairing did not come to the table in time. Its match is
    aborted (no places, no rating; the first absent seat ended it, as a seat standing up in the abort
    window does) and the table closes, so the players who came are free to be paired again. False (and
    nothing changes) if the table is not playing or none of them is still in its match."""
    with transaction.atomic():
        table = lock(table_id)
        if table.status != Table.Status.PLAYING or table.match is None:
            return False
        rows = seats(table)
        absent = [seat for seat in rows if seat.user_id in set(user_ids) and not seat.left_match]
        if not absent:
            return False
        ended = abort_match(table, absent[0], rated.ABORT_LEFT)
        MatchPlayer.objects.filter(match=table.match, seat__in=[seat.index for seat in absent]).update(left=True)
        save_seating(table, rows)
        close(table, NO_SHOW, events=(ended,))
        return True


def close(table: Table, reason: str, events: Sequence[Event] = ()) -> None:
    """Close the locked table (a match in progress is abandoned: not rated); the lobby and the invited bot
    accounts hear of it after the commit (and `events`, what the caller's change set off before)."""
    if table.status == Table.Status.PLAYING and table.match_id is not None:
        Match.objects.filter(pk=table.match_id, finished_at__isnull=True).update(finished_at=timezone.now(), rated=False)
    invited = list(Seat.objects.filter(table=table, invited__isnull=False).values_list("invited_id", flat=True))
    table.status = Table.Status.CLOSED
    table.closed_reason = reason
    table.due_action, table.due_at = Due.NOTHING, None
    bump(table)
    table.save()
    effects.after_commit(
        table,
        events=(*events, TableClosed(table.pk, reason), *(InvitationChanged(table.pk, user_id) for user_id in invited)),
    )


def has_human(rows: Sequence[Seat]) -> bool:
    """Whether anyone (a person or a bot account, not a site bot) is still in the table's match or seat."""
    return any(seat.user_id is not None and not seat.left_match for seat in rows)


def close_if_no_human(table: Table, rows: Sequence[Seat]) -> bool:
    """SPEC 11: bots never play on alone. A playing table whose last player left closes (the locked table)."""
    if table.status != Table.Status.PLAYING or has_human(rows):
        return False
    close(table, NO_HUMAN)
    return True
