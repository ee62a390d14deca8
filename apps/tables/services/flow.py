"""What a table does next, by itself: the turn clock and the due action, the next deal, the end of a match.

These change rows of a locked table in memory (and write the new game, the places); the calling
service saves the table and registers its effects (apps/tables/effects.py) once, with the event a
match's end returns (apps/tables/events.py).
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from apps.engine.fair import FairSeeds
from apps.engine.game import Randomness, Rules
from apps.engine.match import Match as EngineMatch
from apps.engine.match import start_match as engine_start_match
from apps.tables import fairness, history, rated
from apps.tables.events import MatchFinished, Placing, TurnPassed
from apps.tables.models import FairDeal, Game, Match, MatchPlayer, Seat, Table
from apps.tables.services.rows import bump, rules_of

Due = Table.Due


def slow_table_seconds() -> float:
    """How long a turn at a table without a timer waits for its player before the autopilot plays it."""
    return float(getattr(settings, "TABLE_SLOW_AWAY_SECONDS", 24 * 3600))


def seconds(name: str, default: float) -> timedelta:
    return timedelta(seconds=float(getattr(settings, name, default)))


def schedule(table: Table, game: Game, rules: Rules[Any], state: Any, now: datetime, *, new_turn: bool) -> None:
    """Decide what the table does next by itself, and when (a new turn also starts its clock)."""
    to_move = rules.to_move(state)
    if new_turn:
        limit = turn_time(table, to_move)
        game.deadline = now + timedelta(seconds=limit) if limit else None
    if to_move is None:
        table.due_action, table.due_at = Due.NOTHING, None
        return
    seat = table.seating[to_move]
    if seat["bot"]:
        table.due_action = Due.BOT
        table.due_at = now + seconds("TABLE_BOT_DELAY", 0.9)
        game.deadline = None
    elif rules.is_away(state, to_move):
        table.due_action = Due.AUTOPILOT
        table.due_at = now + seconds("TABLE_AUTOPILOT_DELAY", 0.6)
    elif game.deadline is not None:
        table.due_action, table.due_at = Due.TIMEOUT, game.deadline
    else:
        table.due_action, table.due_at = Due.NOTHING, None


def turn_time(table: Table, seat: int | None) -> float:
    """The seconds a turn of `seat` may take: the table's pace, halved for a seat that went berserk
    (SPEC 16); at a table without a timer, a day (SPEC 17, slow tables: a player away that long goes on
    autopilot, as a timeout does at a timed table; the table's log and the SlowSeatAway event, which the
    notifications turn into a bell line and a push, tell the others; the page shows no clock). Read from the seating at hand: no query."""
    if not table.turn_seconds:
        return slow_table_seconds()
    if seat is not None and table.seating[seat].get("berserk"):
        return table.turn_seconds / 2
    return table.turn_seconds


def turn_passed(table: Table, rules: Rules[Any], state: Any) -> tuple[TurnPassed, ...]:
    """At a no-timer table, whose turn it now is if that is a person not on autopilot (SPEC 17: they are
    told); nothing at a timed table (from the seating at hand: no query)."""
    seat = rules.to_move(state)
    if table.turn_seconds or seat is None:
        return ()
    entry = table.seating[seat]
    if entry["bot"] or entry["user_id"] is None or rules.is_away(state, seat):
        return ()
    return (TurnPassed(table.pk, seat, entry["user_id"]),)


def deal_next_game(
    table: Table,
    match: Match,
    engine_match: EngineMatch,
    rng: Randomness | FairSeeds,
    now: datetime | None = None,
    *,
    dealt: Any = None,
) -> tuple[Game, Any]:
    """Deal the match's next game (or `dealt`, the first deal the match made itself) and start its clock.
    The table is saved; the caller registers the effects."""
    rules = rules_of(table)
    state = dealt if dealt is not None else engine_match.deal_next(rng)
    now = now or timezone.now()
    game = Game.objects.create(
        match=match,
        number=engine_match.games_played + 1,
        state=rules.to_dict(state),
        deal=rules.deal_of(state),
        turn=1,
        log=history.new_game(engine_match.games_played + 1),
    )
    table.current_game = game
    schedule(table, game, rules, state, now, new_turn=True)
    bump(table)
    table.save()
    game.save(update_fields=["deadline"])
    return game, state


def deal_first_game(table: Table, match: Match, fair: FairDeal, now: datetime) -> tuple[Game, Any]:
    """The fair deal's seeds are sealed (SPEC 11) and the match's first game dealt from them; its starter
    is chosen the game's own way (the rearrange game's draw for the start)."""
    seeds = fairness.seal(fair, now)
    match.fair_deal = fair  # the frames built from these rows show the sealed seeds
    engine_match, first_deal = engine_start_match(table.game, table.seat_count, seeds, table.match_length)
    match.state = engine_match.to_dict()
    match.save(update_fields=["state"])
    return deal_next_game(table, match, engine_match, seeds, now, dealt=first_deal)


def dealer(match: Match) -> FairSeeds | random.SystemRandom:
    """What the match's next game is dealt from: its sealed seeds; a match started before fair deals
    existed (at the deploy that brought them) goes on with the system's generator."""
    seeds = fairness.seeds_of(match)
    return seeds if seeds is not None else random.SystemRandom()


def finish_match(table: Table) -> MatchFinished:
    """Places from the engine's standings; the table waits for a rematch. Returns what the listeners
    hear of it (the leaderboards rate it if it is rated)."""
    match = table.match
    assert match is not None
    engine_match = EngineMatch.from_dict(match.state)
    standings = {standing.seat: standing for standing in engine_match.standings()}
    places = []
    for player in MatchPlayer.objects.filter(match=match):  # in seat order (the model's)
        standing = standings[player.seat]
        player.points = standing.points
        player.place = standing.place
        player.left = standing.left
        player.save(update_fields=["points", "place", "left"])
        places.append(Placing(player.seat, player.user_id, standing.place, standing.points, standing.left))
    match.finished_at = timezone.now()
    match.save(update_fields=["finished_at"])
    table.status = Table.Status.FINISHED
    table.due_action, table.due_at = Due.NOTHING, None
    return MatchFinished(match.pk, table.pk, match.game, match.rated, tuple(places))


def aborted(table: Table, match: Match) -> MatchFinished:
    """What the listeners hear of an aborted match: who sat where (from the seating at hand, no query),
    and no places; the seat that ended it by standing up is out of it."""
    gone = None if match.aborted == rated.ABORT_ABSENT else match.aborted_seat
    places = tuple(
        Placing(seat["index"], seat["user_id"], left=bool(seat["left"]) or seat["index"] == gone)
        for seat in table.seating
    )
    return MatchFinished(match.pk, table.pk, match.game, match.rated, places, aborted=match.aborted)


def in_abort_window(table: Table) -> bool:
    """Whether a seat standing up now aborts the table's match (SPEC 11; apps/tables/rated.py)."""
    return rated.leaving_aborts(table, table.current_game, table.match)


def abort_absent(table: Table, seat: int) -> MatchFinished:
    """The rated match ends here, aborted (SPEC 11), at the end of its first game: `seat` did not make
    its own turns in it (everyone closed their pages and autopilot played it out). No places, no rating;
    nobody has left. The caller saves the table (with `rated`) and registers the effects with the event
    returned."""
    match = table.match
    assert match is not None
    match.rated = False
    match.aborted = rated.ABORT_ABSENT
    match.aborted_seat = seat
    match.finished_at = timezone.now()
    match.save(update_fields=["rated", "aborted", "aborted_seat", "finished_at"])
    table.rated = False
    table.status = Table.Status.FINISHED
    table.due_action, table.due_at = Due.NOTHING, None
    return aborted(table, match)


def abort_match(table: Table, seat: Seat, reason: str) -> MatchFinished:
    """The match ends here, aborted (SPEC 11): `seat` stood up before the abort window closed. No places,
    no rating, nothing for the leaderboards; the match says who ended it and why (`reason`, a code of
    apps/tables/rated.py). The seat is out of the match; the table waits for a rematch or a new match.
    The caller saves the table and the seating and registers the effects with the event returned."""
    match = table.match
    assert match is not None
    match.state = EngineMatch.from_dict(match.state).leave(seat.index).to_dict()
    match.rated = False
    match.aborted = reason
    match.aborted_seat = seat.index
    match.finished_at = timezone.now()
    match.save(update_fields=["state", "rated", "aborted", "aborted_seat", "finished_at"])
    seat.left_match = True
    seat.save(update_fields=["left_match"])
    MatchPlayer.objects.filter(match=match, seat=seat.index).update(left=True)
    game = table.current_game
    if game is not None:
        game.deadline = None
        game.draft = None
        game.save(update_fields=["deadline", "draft"])
    table.rated = False
    table.status = Table.Status.FINISHED
    table.due_action, table.due_at = Due.NOTHING, None
    return aborted(table, match)
