"""How far a rack is from opening (`apps.engine.house.bots.open`) and the Hard bot's discards before it
opens, on hand-made racks."""

from __future__ import annotations

import random

from apps.engine.house import RULES
from apps.engine.house.bots.hard import HardHouseBot, HardWeights
from apps.engine.house.bots.open import opening_plans, rate_discards, target_face
from apps.engine.house.bots.plan import unseen_counts
from apps.engine.house.bots.view import SeatView
from apps.engine.house.helpers import find_opening
from apps.engine.house.moves import Discard
from apps.engine.house.positions import position
from apps.engine.house.state import Phase
from apps.engine.tiles import Tile, parse_tiles


def _face(index: int) -> Tile:
    return target_face(index)


def rack(text: str) -> list[Tile]:
    return list(parse_tiles(text))


def test_a_rack_that_opens_is_at_distance_zero() -> None:
    tiles = rack("r10 r11 r12 b13 k13 y13 k2 b4 r6 y1 k7 b9 y3 r2")
    assert find_opening(tiles)
    plans = opening_plans(tiles, unseen_counts(tiles))
    assert plans is not None and plans.distance == 0


def test_one_tile_from_opening_counts_the_hidden_tiles_that_open() -> None:
    # r10 r11 r12 (30) and two 13s (a third makes 30 more): r13 or y13 (two copies each) or a joker
    # opens; r9 does not (r9-r12 is 35); the other tiles make no partial meld.
    tiles = rack("r10 r11 r12 b13 k13 y1 b3 k5 r7 y9 b6 k8 r4 k2")
    unseen = unseen_counts(tiles)
    plans = opening_plans(tiles, unseen)
    assert plans is not None and plans.distance == 1
    ratings = {rating.tile: rating for rating in rate_discards(tiles, unseen, tiles) or ()}
    # Discarding a tile of the plan leaves the rack two tiles away; discarding another keeps every way.
    assert ratings[Tile.parse("b13")].distance == 2
    assert ratings[Tile.parse("k2")].distance == 1
    drawn = set(ratings[Tile.parse("k2")].draws)
    assert drawn == {Tile.parse("r13"), Tile.parse("y13"), Tile.parse("J")}
    assert ratings[Tile.parse("k2")].useful == 6
    # Every draw it counts really opens the rack (with k2 gone).
    kept = [tile for tile in tiles if tile != Tile.parse("k2")]
    assert all(find_opening([*kept, face]) for face in drawn)


def test_with_a_joker_the_useful_draws_are_the_ones_that_open() -> None:
    # The joker stands in for one missing tile: r12 opens with r12 J r1 and the set of 5s.
    tiles = rack("r1 r5 r7 r7 y5 b3 b6 b9 b10 k5 k9 k9 k10 J")
    unseen = unseen_counts(tiles)
    plans = opening_plans(tiles, unseen)
    assert plans is not None and plans.distance == 1
    useful = {_face(index) for _, missing in plans.plans for index in missing}
    opens = {face for face in unseen if not face.is_joker and find_opening([*tiles, face])}
    assert Tile.parse("r12") in useful
    assert opens <= useful


def test_hard_discards_before_opening_to_keep_the_most_draws_that_bring_the_opening_nearer() -> None:
    # Two tiles from opening. Keeping b12 (with y12 a pair of 12s, 30 points with a third) keeps 17
    # hidden tiles that bring the opening a tile nearer, discarding y6; the older rule discarded b12 (8
    # left in the game it came from). The bot discards the tile that keeps the most (y3: 19), the older
    # rule one that keeps fewer.
    tiles = "r2 r4 r5 r7 r9 y3 y6 y8 y12 b2 b12 k1 k3 k9 k10"
    state = position([tiles, "r1 r3 b5 b9 k4 k5 y11 y13 b7 b8 k6 k7 y2 y4"], discards="r13 r11", indicator="r12", phase=Phase.PLAY)
    view = SeatView.of(RULES.view_for(state, 0))
    unseen = unseen_counts([*view.rack, *view.discards, view.indicator])
    ratings = {rating.tile: rating for rating in rate_discards(view.rack, unseen, view.rack) or ()}
    assert (ratings[Tile.parse("y6")].distance, ratings[Tile.parse("y6")].useful) == (2, 17)
    assert (ratings[Tile.parse("b12")].distance, ratings[Tile.parse("b12")].useful) == (2, 8)
    move = HardHouseBot().next_move(RULES.view_for(state, 0), random.Random(0))
    assert isinstance(move, Discard)
    assert move.tile == Tile.parse("y3")
    assert ratings[move.tile].distance == 2
    assert ratings[move.tile].useful == max(rating.useful for rating in ratings.values() if rating.distance == 2) == 19
    old = HardHouseBot(HardWeights(open_plans=False)).next_move(RULES.view_for(state, 0), random.Random(0))
    assert isinstance(old, Discard)
    assert ratings[old.tile].distance > 2 or ratings[old.tile].useful < 19


def test_hard_keeps_a_tile_that_fits_the_table_among_equal_discards_before_opening() -> None:
    # Two tiles from opening; discarding r11, b11 or b13 keeps the same 25 hidden tiles that bring the
    # opening nearer. b13 fits the other player's b10 b11 b12: once open, it goes down the turn after,
    # so the bot keeps it (the bot without that weight discarded it: the least worth keeping otherwise).
    tiles = "r1 r2 r11 y9 y10 y12 b1 b3 b4 b6 b11 b13 k6 k10 k12"
    state = position(
        [tiles, "r7 r8 y2 y3 b5 k2 k3 k4 y13 r13"],
        melds=[(1, "b10 b11 b12"), (1, "r4 r5 r6")],
        discards="k1 y7 y12",
        indicator="y1",
        opened=[1],
        phase=Phase.PLAY,
    )
    view = SeatView.of(RULES.view_for(state, 0))
    unseen = unseen_counts([*view.rack, *(tile for meld in view.table for tile in meld), *view.discards, view.indicator])
    ratings = {rating.tile: rating for rating in rate_discards(view.rack, unseen, view.rack) or ()}
    best = min((rating.distance, -rating.useful) for rating in ratings.values())
    assert {tile for tile, rating in ratings.items() if (rating.distance, -rating.useful) == best} == set(rack("r11 b11 b13"))
    move = HardHouseBot().next_move(RULES.view_for(state, 0), random.Random(0))
    assert isinstance(move, Discard) and move.tile in set(rack("r11 b11"))
    without = HardHouseBot(HardWeights(fits_closed=0.0)).next_move(RULES.view_for(state, 0), random.Random(0))
    assert without == Discard(Tile.parse("b13"))
