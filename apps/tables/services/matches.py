"""Starting a match (its fair deal: the players' seeds, then the first deal), the pace of a table of one
player and bots, and what happens at a table once a match is over (rematch, a new match)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.engine.match import Match as EngineMatch
from apps.lib.events import Event
from apps.tables import effects, fairness, rated
from apps.tables.events import SeatChanged
from apps.tables.models import FairDeal, Match, MatchPlayer, Seat, Table
from apps.tables.options import PACES
from apps.tables.services.errors import NotAllowed, TableError
from apps.tables.services.flow import Due, deal_first_game, schedule, turn_passed
from apps.tables.services.rows import (
    bump,
    check_host_limit,
    check_may_act,
    check_may_sit,
    check_seat_limit,
    hold_user_limits,
    is_moderator,
    lock,
    rules_of,
    save_seating,
    seat_of,
    seat_row,
    seats,
)
from apps.tables.services.seating import check_options, free_seat


def table_start(*, table_id: int, by: User) -> Match:
    """The host starts the match once every seat is taken."""
    check_may_act(by)
    with transaction.atomic():
        table = lock(table_id)
        if table.host_id != by.pk and not is_moderator(by):
            raise NotAllowed(_("Only the host can start the match."))
        if table.status != Table.Status.OPEN:
            raise NotAllowed(_("The match has already started."))
        rows = seats(table)
        if any(seat.is_empty for seat in rows):
            raise NotAllowed(_("Every seat must be taken before the match starts."))
        return start(table, rows)


def table_open_started(
    *,
    players: Sequence[User],
    game: str,
    seat_count: int,
    turn_seconds: int,
    match_length: int = 1,
    casual: bool = False,
    bots: Sequence[str] = (),
    private: bool = False,
) -> Table:
    """Open a table with `players` seated in that order (the first hosts it), then `bots` (site bot
    levels), and start its match at once: what quick pairing, a challenge everyone accepted and an arena
    do (SPEC 15-17). The match is exactly a match of a table opened by hand: its fair deal, its clock,
    rated unless `casual` or the seats make it unrated (apps/tables/rated.py). Each player must be allowed
    to sit and have a seat free under their limit; the limits of all the players are held (in id order:
    two such tables opened at once never deadlock) until the table is saved."""
    people = list(players)
    if len({user.pk for user in people}) != len(people) or not people:
        raise TableError(_("Each player takes one seat."))
    levels = check_options(
        game, seat_count=seat_count, match_length=match_length, turn_seconds=turn_seconds, bots=bots, people=len(people)
    )
    if "" in levels[len(people) :]:
        raise TableError(_("Every seat must be taken before the match starts."))
    for user in people:
        check_may_sit(user)
    with transaction.atomic():
        for user in sorted(people, key=lambda user: user.pk):
            hold_user_limits(user)
        for user in people:
            check_seat_limit(user)
        table = Table.objects.create(
            game=game,
            host=people[0],
            seat_count=seat_count,
            match_length=match_length,
            turn_seconds=turn_seconds,
            private=private,
            casual=casual,
            version=1,
        )
        now = timezone.now()
        rows = [
            Seat(
                table=table,
                index=index,
                user=people[index] if index < len(people) else None,
                bot_level=level,
                joined_at=now,
            )
            for index, level in enumerate(levels)
        ]
        Seat.objects.bulk_create(rows)
        seated = [SeatChanged(table.pk, seat.index, seat.user_id, seated=True) for seat in rows if seat.user_id]
        start(table, rows, now, events=seated)
    return table


def start(table: Table, rows: list[Seat], now: datetime | None = None, events: Sequence[Event] = ()) -> Match:
    """Start a match at the locked table whose seats are all taken. Its fair deal opens first (SPEC 11:
    the commitment is shown before any player's seed exists); the first deal waits for the human seats'
    seeds (`table_seed`, or the DEAL due action when the window is over). Until then `match.state` is
    the match before its first deal."""
    now = now or timezone.now()
    number = Match.objects.filter(table=table).count() + 1
    for seat in rows:
        if seat.left_match or seat.rematch or seat.berserk:
            seat.left_match = seat.rematch = seat.berserk = False
            seat.save(update_fields=["left_match", "rematch", "berserk"])
    save_seating(table, rows, starting=True)  # the table is still open: this decides whether the match is rated
    rated, reasons = table.rated, list(table.unrated_reasons)
    waiting = EngineMatch(table.game, table.seat_count, table.match_length, 0, (), (False,) * table.seat_count)
    match = Match.objects.create(
        table=table, number=number, game=table.game, state=waiting.to_dict(), rated=rated, unrated_reasons=reasons
    )
    MatchPlayer.objects.bulk_create(
        MatchPlayer(match=match, seat=seat.index, user=seat.user, bot_level=seat.bot_level, name=seat.display_name)
        for seat in rows
    )
    table.match = match
    table.status = Table.Status.PLAYING
    table.current_game = None
    fair = fairness.deal_open(match=match, seats=rows, now=now)
    if fairness.seeds_due(fair, now):  # no human seat to wait for, or no window (TABLE_FAIR_SEED_SECONDS = 0)
        game, state = deal_first_game(table, match, fair, now)
        events = (*events, *turn_passed(table, rules_of(table), state))
        effects.after_commit(table, frames=effects.Frames(game, match, state), events=events)
    else:
        table.due_action, table.due_at = Due.DEAL, fair.seeds_until
        bump(table)
        table.save()
        effects.after_commit(table, events=events)
    return match


def table_seed(*, table_id: int, by: User, seed: object) -> None:
    """A human seat's browser seed for the match's first deal (SPEC 11). The deal happens as soon as
    every human seat's seed is in; a bad or late seed is refused and changes nothing."""
    with transaction.atomic():
        table = lock(table_id)
        seat = seat_of(table, by)
        if seat is None:
            raise NotAllowed(_("You have no seat at this table."))
        fair = FairDeal.objects.filter(match_id=table.match_id).first() if table.match_id else None
        if table.status != Table.Status.PLAYING or fair is None:
            raise NotAllowed(_("There is no match waiting for seeds at this table."))
        try:
            fairness.seed_accept(fair=fair, seat=seat["index"], seed=seed)
        except fairness.SeedRefused as error:
            raise NotAllowed(str(error)) from None
        if fairness.seeds_complete(fair):
            match = table.match
            assert match is not None
            game, state = deal_first_game(table, match, fair, timezone.now())
            turn = turn_passed(table, rules_of(table), state)
            effects.after_commit(table, frames=effects.Frames(game, match, state), events=turn)
        else:  # the table's row is written with the seed, so that a service waiting for the lock reads both again
            table.save(update_fields=["updated_at"])


def table_pace(*, table_id: int, by: User, turn_seconds: int) -> None:
    """A player alone with the site's bots sets the table's pace, before or during the match: nobody else
    waits on their clock, and such a table is never rated. A turn already running gets the new clock
    from now (no timer: none)."""
    check_may_act(by)
    with transaction.atomic():
        table = lock(table_id)
        seat = seat_of(table, by)
        if seat is None:
            raise NotAllowed(_("You have no seat at this table."))
        if any(info["index"] != seat["index"] and not info["bot"] for info in table.seating):
            raise NotAllowed(_("Only a player alone with the site's bots can change the pace."))
        if table.status not in (Table.Status.OPEN, Table.Status.PLAYING):
            raise NotAllowed(_("This table is over: start a new match to choose its pace."))
        paces = PACES[table.game]
        if turn_seconds not in paces:
            raise TableError(
                _("The pace must be one of %(paces)s seconds per turn (0: no timer).")
                % {"paces": ", ".join(str(p) for p in sorted(paces))}
            )
        if turn_seconds == table.turn_seconds:
            return
        table.turn_seconds = turn_seconds
        # the reasons it is unrated (it always is: bots) say whether it has a timer
        found = set(table.unrated_reasons) - {rated.NO_TIMER} | ({rated.NO_TIMER} if turn_seconds == 0 else set())
        table.unrated_reasons = [code for code in rated.REASONS if code in found]
        game = table.current_game
        if table.status == Table.Status.PLAYING and game is not None and game.finished_at is None:
            rules = rules_of(table)
            schedule(table, game, rules, rules.from_dict(game.state), timezone.now(), new_turn=True)
            game.save(update_fields=["deadline"])
        bump(table)
        table.save(update_fields=["turn_seconds", "unrated_reasons", "version", "due_action", "due_at", "updated_at"])
        effects.after_commit(table)


def seat_berserk(*, table_id: int, by: User) -> None:
    """The player halves their own turn time for this match (an arena's berserk, SPEC 16; the arena decides
    where it is offered and calls this): only at a timed table whose match has started and has no move
    yet. If the first turn is theirs and already running, its clock loses half the pace at once. A second
    call changes nothing."""
    check_may_act(by)
    with transaction.atomic():
        table = lock(table_id)
        row = seat_row(seats(table), by)
        if row is None or row.left_match:
            raise NotAllowed(_("You have no seat at this table."))
        if table.status != Table.Status.PLAYING or not table.turn_seconds:
            raise NotAllowed(_("Berserk is only possible in a timed match."))
        game = table.current_game
        if game is not None and (game.number > 1 or game.move_count > 0):
            raise NotAllowed(_("Berserk is only possible before the first move."))
        if row.berserk:
            return
        row.berserk = True
        row.save(update_fields=["berserk"])
        table.seating = [dict(info, berserk=True) if info["index"] == row.index else info for info in table.seating]
        if (
            game is not None
            and game.deadline is not None
            and rules_of(table).to_move(rules_of(table).from_dict(game.state)) == row.index
        ):
            game.deadline -= timedelta(seconds=table.turn_seconds / 2)
            game.save(update_fields=["deadline"])
            if table.due_action == Due.TIMEOUT:
                table.due_at = game.deadline
        bump(table)
        table.save(update_fields=["seating", "version", "due_at", "updated_at"])
        effects.after_commit(table, lobby=False)


def table_rematch(*, table_id: int, by: User) -> None:
    """After a match: this seat wants to play again at the same table. When every seat is held by a bot
    or by a player who asked (nobody left), the rematch starts at once, whoever the host is: same seats,
    same settings, a new fair deal. Until then everyone sees who asked; the host can still start a new
    match with those who did (`table_new_match`)."""
    check_may_act(by)
    with transaction.atomic():
        table = lock(table_id)
        if table.status != Table.Status.FINISHED:
            raise NotAllowed(_("A rematch can be asked for once the match is over."))
        rows = seats(table)
        seat = seat_row(rows, by)
        if seat is None:
            raise NotAllowed(_("You have no seat at this table."))
        if seat.rematch:
            return
        seat.rematch = True
        seat.save(update_fields=["rematch"])
        if all(row.bot_level or (row.user_id is not None and row.rematch and not row.left_match) for row in rows):
            again(table, rows)
            start(table, rows)
            return
        save_seating(table, rows)
        bump(table)
        table.save(update_fields=["version", "seating", "updated_at"])
        effects.after_commit(table)


def again(table: Table, rows: list[Seat]) -> None:
    """The finished table made ready for its next match, before `start` or before waiting for players."""
    table.status = Table.Status.OPEN
    save_seating(table, rows)
    table.current_game = None
    table.due_action, table.due_at = Due.NOTHING, None


def table_new_match(*, table_id: int, by: User) -> Table:
    """The host starts over at the same table: bots and seats that asked for a rematch stay, the others
    are freed; the match starts at once if every seat is still taken, else the table waits for players.
    A banned host starts nothing (SPEC 11)."""
    check_may_act(by)
    with transaction.atomic():
        table = lock(table_id)
        if table.host_id != by.pk:
            raise NotAllowed(_("Only the host can start a new match."))
        if table.status != Table.Status.FINISHED:
            raise NotAllowed(_("A new match can start once this one is over."))
        rows = seats(table)
        freed = []
        for seat in rows:
            stays = seat.bot_level or seat.user_id == by.pk or (seat.rematch and not seat.left_match)
            if not stays and not seat.is_empty:
                freed.append(SeatChanged(table.pk, seat.index, seat.user_id, seated=False))
                free_seat(seat)
        again(table, rows)
        if all(not seat.is_empty for seat in rows):
            start(table, rows)
        else:
            hold_user_limits(by)
            check_host_limit(by)  # it waits for players: one more unstarted table of this host
            bump(table)
            table.save()
            effects.after_commit(table, events=freed)
    return table
