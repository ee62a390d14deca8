"""Helpers for the review's tests: tables with a human and a bot, played through the table services."""

from __future__ import annotations

from apps.accounts.models import User
from apps.engine.game import get_rules
from apps.engine.tiles import Colour, Tile, ids_of, parse_tiles
from apps.tables import services
from apps.tables.models import Game, Table
from tests.tables.helpers import make_user, play_match, run_due


def unrated_table(game: str = "tile-rummy", *, name: str = "guest-ana") -> tuple[Table, User]:
    """A started match at an unrated table: a guest and an Easy bot. It is the guest's turn."""
    guest = make_user(name, guest=True)
    table = services.table_open(by=guest, game=game, seat_count=2, bots=["easy"])
    services.table_start(table_id=table.pk, by=guest)
    while Table.objects.get(pk=table.pk).due_action == Table.Due.BOT:
        run_due(table.pk)  # the bot started: its moves, until it is the guest's turn
    return Table.objects.get(pk=table.pk), guest


def rated_table() -> tuple[Table, User, User]:
    """A started match at a rated table: two registered players."""
    ana, ben = make_user("ana"), make_user("ben")
    table = services.table_open(by=ana, game="tile-rummy", seat_count=2, turn_seconds=60)
    services.table_join(table_id=table.pk, by=ben)
    services.table_start(table_id=table.pk, by=ana)
    return Table.objects.get(pk=table.pk), ana, ben


def finished_game(game: str = "tile-rummy", *, seed: int = 1) -> Game:
    """The one game of a match a guest and a bot played to its end."""
    table, _ = unrated_table(game, name=f"guest-{game}-{seed}")
    play_match(table.pk, seed=seed)
    return Game.objects.get(match__table=table)


def seat_to_move(table: Table) -> int:
    game = Game.objects.get(pk=table.current_game_id)
    seat = get_rules(table.game).to_move(get_rules(table.game).from_dict(game.state))
    assert seat is not None
    return seat


def with_an_opening(table: Table, faces: str = "r11 r12 r13") -> Table:
    """The Rearrange table of `unrated_table`, with `faces` (a run worth 36: an opening) swapped into the
    rack of the seat to move from wherever they were, so that a hint there has something to play. The
    game's tiles stay the same 106; the table's version does not change (nothing was played).

    The deal is random and the bot may have melded a face's copies on the table: a face is taken from
    its copies still in a rack or the pool, and the run in another colour if one has none left there (a
    `next()` that looked for the first copy alone raised StopIteration now and then, which hung the hint
    frames' tests: apps/live/threads.py)."""
    game = Game.objects.get(pk=table.current_game_id)
    state = dict(game.state)
    seat = seat_to_move(table)
    places = [list(state["racks"][index]) for index in range(len(state["racks"]))] + [list(state["pool"])]
    rack = places[seat]
    off_the_table = {tile for place in places for tile in place}
    run = _gatherable(parse_tiles(faces), off_the_table)
    kept = {tile for face in run for tile in ids_of(face)}
    for face in run:
        wanted = [copy for copy in ids_of(face) if copy in off_the_table][0]
        if wanted in rack:
            continue
        holder = [place for place in places if wanted in place][0]
        given = [tile for tile in rack if tile not in kept][0]
        holder[holder.index(wanted)] = given
        rack[rack.index(given)] = wanted
    state["racks"], state["pool"] = places[:-1], places[-1]
    Game.objects.filter(pk=game.pk).update(state=state)
    return Table.objects.get(pk=table.pk)


def _gatherable(run: list[Tile], off_the_table: set[int]) -> list[Tile]:
    """`run` if each of its faces has a copy off the table, else the same numbers in the first other
    colour that has (a run of one colour only)."""
    candidates = [run]
    if len({face.colour for face in run}) == 1 and not run[0].is_joker:
        candidates += [[Tile(colour, face.number) for face in run] for colour in Colour if colour != run[0].colour]
    for candidate in candidates:
        if all(any(copy in off_the_table for copy in ids_of(face)) for face in candidate):
            return candidate
    raise AssertionError(f"every colour of the run {run} has a face whose copies are all on the table")
