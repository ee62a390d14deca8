"""TEST-ONLY HOOK: a table with a seeded deal, for the browser tests that need a known position (the
keyboard test needs an opening on the first turn). Never imported by the site.

It runs in its own process against the site's database (`python -m tests.browser.seeding ...` with the
site's environment): it opens a table through the services as usual, then replaces the freshly dealt
game with a deal from a seeded generator in which seat 0 starts and can open at once. That replacement
writes game state outside `apps.tables.services`, which only a test may do. The site's worker never saw
the first deal's due action (it was queued in this process), so nothing acts on it.

Prints the new table's id.
"""

from __future__ import annotations

import argparse
import os
import random
from datetime import timedelta


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummysite.settings")
    import django

    django.setup()


def house_opening_seed(max_tiles: int = 9) -> int:
    """The first seed whose deal gives the starter (seat 0) an opening of at most `max_tiles` tiles."""
    from apps.engine.game import get_rules
    from apps.engine.house.helpers import find_opening, rack_faces

    rules = get_rules("tile-rummy")
    for seed in range(1, 5000):
        state = rules.new_game(2, random.Random(seed), starter=0)
        opening = find_opening(rack_faces(state, 0))
        if opening is not None and sum(len(meld.tiles) for meld in opening) <= max_tiles:
            return seed
    raise RuntimeError("no seed found")


def midgame_position() -> object:
    """Seat 0 opened on an earlier turn and is to draw; the bot just discarded r9 (takeable with r7 r8);
    k12 lays off on k9 k10 k11; b11 takes the joker of b10 J b12."""
    from apps.engine.house.positions import position

    return position(
        racks=["r7 r8 k12 b11 y2 y5 k3 b6 r13 y13", "y9 y10 k1 k2 b2 r3 r4 y7 b8 k5"],
        melds=[(0, "r1 r2 r3 r4"), (1, "k9 k10 k11"), (1, "b10 J b12")],
        discards="y12 r9",
        discard_open=True,
        turn=0,
        phase="draw",
        opened=[0, 1],
        indicator="k7",
        pile_size=40,
    )


def rearrange_position() -> object:
    """Seat 0 opened earlier and is to play; r3 r4 r5 r6 and k9 y9 b9 are on the table. The rack holds a
    group of 2s (b2 y2 k2) and r7, which extends the run."""
    from apps.engine.rearrange.positions import position

    return position(
        ["b2 y2 k2 r7 y11 b12 k13 y5 b6 k6", "r10 r11 y7 b7 k7 b3 b4 k4 y4 r1"],
        table="r3 r4 r5 r6 | k9 y9 b9",
        opened=[0, 1],
        starter=1,
        turn=0,
        turn_no=4,
    )


def ten_melds_position() -> object:
    """Ten melds on the table (the other seat's); seat 0 has not opened and is to draw, with y6 y7 y8 and
    b8 b9 b10 on its rack: an opening tray of two melds (35 points) to build on a crowded table."""
    from apps.engine.house.positions import position

    return position(
        racks=["r4 r6 r8 r9 y4 y6 y7 y8 b8 b9 b10 k6 k8 J", "y9 y13 b11 b12 b13 k5 r3 r2 y2 b3"],
        melds=[(1, "r1 r2 r3"), (1, "b4 b5 b6 b7"), (1, "k9 k10 k11 k12 k13"), (1, "y5 r5 k5"), (1, "y10 y11 y12"),
               (1, "b1 b2 b3"), (1, "k1 k2 k3 k4"), (1, "r7 b7 k7"), (1, "y1 y2 y3"), (1, "r10 r11 r12 r13")],
        discards="y12",
        turn=0,
        phase="draw",
        opened=[1],
        indicator="k7",
        pile_size=30,
    )


def put_state(table_id: int, state: object, *, with_deal: bool = False) -> int:
    """Put `state` in the table's current game as if play had just reached it: a fresh turn clock, a new
    version. `with_deal`: the state is a fresh deal, recorded as the game's deal."""
    from django.db import transaction
    from django.utils import timezone

    from apps.engine.game import get_rules
    from apps.tables import services
    from apps.tables.models import Game, Table

    waiting = Table.objects.filter(pk=table_id, due_action=Table.Due.DEAL).values_list("due_at", flat=True).first()
    if waiting is not None:  # the match waits for its players' seeds: deal as if the window were over
        services.table_due(table_id=table_id, action=Table.Due.DEAL, now=waiting)
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        rules = get_rules(table.game)
        game = Game.objects.select_for_update().get(pk=table.current_game_id)
        game.state = rules.to_dict(state)
        if with_deal:
            game.deal = rules.deal_of(state)
        game.deadline = timezone.now() + timedelta(seconds=table.turn_seconds)
        game.save()
        table.due_action, table.due_at = Table.Due.TIMEOUT, game.deadline
        table.version += 1
        table.save()
    return table.pk


def seeded_rearrange_table(host_id: int, state: object = None) -> int:
    """Two players (the host and a second person made here, who never moves), the position above (or
    `state`)."""
    from apps.accounts.models import User
    from apps.tables import services

    host = User.objects.get(pk=host_id)
    rival, _ = User.objects.get_or_create(username="Rival-player")
    table = services.table_open(by=host, game="tile-rummy-rearrange", seat_count=2, turn_seconds=120)
    services.table_join(table_id=table.pk, by=rival)
    services.table_start(table_id=table.pk, by=host)
    return put_state(table.pk, state if state is not None else rearrange_position())


def rearrange_opening_position() -> object:
    """Seat 0 has not opened and is to play: r10 r11 r12 on its rack make 33, an opening; k3 k4 k5 is on
    the table (the other seat opened)."""
    from apps.engine.rearrange.positions import position

    return position(
        ["r10 r11 r12 b1 y1 k2 b7 y8 k9 r4", "r1 r2 y7 b8 k10 b3 b4 k11 y4 y13"],
        table="k3 k4 k5",
        opened=[1],
        starter=1,
        turn=0,
        turn_no=3,
    )


def rearrange_bot_position() -> object:
    """Against the Hard bot (seat 1), both opened, seat 0 to play with the rack of `rearrange_position`.
    The bot's only play takes r3 off the run into a new group with its b3 y3 (placed 2, moved 1), leaving
    it one tile (so short a rack that its position value plays rather than draws); after that its k11 fits
    nowhere, and the pool's first tiles (k12 for seat 0, then b11) fit nowhere, so its next turn is a
    draw."""
    from apps.engine.rearrange.positions import position

    return position(
        ["b2 y2 k2 r7 y11 b12 k13 y5 b6 k6", "b3 y3 k11"],
        table="r3 r4 r5 r6 | k9 y9 b9",
        pool="k12 b11 r12 y12",
        opened=[0, 1],
        starter=1,
        turn=0,
        turn_no=4,
    )


def seeded_rearrange_bot_table(host_id: int) -> int:
    from apps.accounts.models import User
    from apps.tables import services

    host = User.objects.get(pk=host_id)
    table = services.table_open(by=host, game="tile-rummy-rearrange", seat_count=2, turn_seconds=120, bots=["hard"])
    services.table_start(table_id=table.pk, by=host)
    return put_state(table.pk, rearrange_bot_position())


def going_out_position() -> object:
    """Seat 0 has drawn and holds one tile, black 5: discarding it goes out."""
    from apps.engine.house.positions import position

    return position(
        racks=["k5", "y9 y10 k1 k2 b2 r3 r4 y7 b8 k6"],
        melds=[(0, "r1 r2 r3 r4"), (0, "b9 b10 b11 b12"), (1, "k9 k10 k11")],
        discards="y12",
        turn=0,
        phase="play",
        opened=[0, 1],
        indicator="k7",
        pile_size=40,
    )


def seeded_house_table(host_id: int, seed: int | None = None, state: object = None, match_length: int = 1) -> int:
    from apps.accounts.models import User
    from apps.engine.game import get_rules
    from apps.tables import services

    host = User.objects.get(pk=host_id)
    table = services.table_open(
        by=host, game="tile-rummy", seat_count=2, turn_seconds=60, bots=["hard"], match_length=match_length
    )
    services.table_start(table_id=table.pk, by=host)
    if state is None:
        state = get_rules("tile-rummy").new_game(2, random.Random(seed), starter=0)
    # A position mid-game has no deal of its own: its record is not replayable.
    return put_state(table.pk, state, with_deal=seed is not None)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["house-opening", "house-midgame", "house-away", "house-going-out", "rearrange",
                                         "rearrange-bot", "rearrange-opening", "house-match-end", "lost-broadcast",
                                         "house-ten-melds"])
    parser.add_argument("--host-of-table", type=int, required=True, help="the host of this table hosts the new one")
    args = parser.parse_args()
    _setup()
    from apps.tables.models import Table

    host_id = Table.objects.values_list("host_id", flat=True).get(pk=args.host_of_table)
    if args.what == "lost-broadcast":
        # The going-out position on this very table, a new version nobody is told about (this process
        # has no channel layer in common with the site's): as if its broadcast had been lost.
        print(put_state(args.host_of_table, going_out_position()))
    elif args.what == "rearrange":
        print(seeded_rearrange_table(host_id))
    elif args.what == "rearrange-opening":
        print(seeded_rearrange_table(host_id, rearrange_opening_position()))
    elif args.what == "rearrange-bot":
        print(seeded_rearrange_bot_table(host_id))
    elif args.what == "house-away":
        from dataclasses import replace

        print(seeded_house_table(host_id, state=replace(midgame_position(), away=(True, False))))  # type: ignore[type-var]
    elif args.what == "house-match-end":  # going out ends the match (of one game): the scores stay
        print(seeded_house_table(host_id, state=going_out_position(), match_length=1))
    elif args.what == "house-going-out":
        print(seeded_house_table(host_id, state=going_out_position(), match_length=3))
    elif args.what == "house-ten-melds":
        print(seeded_house_table(host_id, state=ten_melds_position()))
    elif args.what == "house-opening":
        print(seeded_house_table(host_id, seed=house_opening_seed()))
    else:
        print(seeded_house_table(host_id, state=midgame_position()))


if __name__ == "__main__":
    main()
