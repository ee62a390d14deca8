"""The Rearrange Hard bot's learned position value (issue 18): what it reads, how the bot chooses by it, and
that it reads the seat's view only."""

from __future__ import annotations

import doctest
import json
import random
from dataclasses import replace

import pytest

import apps.engine.rearrange.bots.value as value_module
from apps.engine.bots import get_bot
from apps.engine.game import Draw
from apps.engine.rearrange import RULES
from apps.engine.rearrange.bots.hard import HardRearrangeBot, RearrangeWeights
from apps.engine.rearrange.bots.search import without
from apps.engine.rearrange.bots.value import FACES, WEIGHTS, WIDTH, PositionValue, features, shipped_value
from apps.engine.rearrange.bots.view import RearrangeSeatView
from apps.engine.rearrange.moves import Play
from apps.engine.rearrange.positions import position
from apps.engine.rearrange.solver import solve
from apps.engine.rearrange.state import RearrangeState
from apps.engine.tiles import parse_tiles

DREW = FACES + 4  # the feature "it drew"


def two_player_midgame() -> RearrangeState:
    """Seat 0 to move after opening, with tiles in the pool and several plays, none of which goes out."""
    return position(
        ["r6 r7 b9 k1 y4 y5 y6 J b2 k12", "r1 r2 y9 y10 k3 k3 b13 k8 k9"],
        table="r3 r4 r5 | b10 b11 b12 | y7 b7 k7 | k10 k11 k12",
        opened=[0, 1],
        pool_size=40,
        turn_no=20,
    )


def rating_the_draw(sign: float) -> PositionValue:
    """A value that rates drawing up (sign 1) or down (-1), and nothing else."""
    hidden = (tuple(1.0 if index == DREW else 0.0 for index in range(WIDTH)),)  # one unit: it drew
    return PositionValue((0.0,) * WIDTH, (1.0,) * WIDTH, hidden, (0.0,), (4.0 * sign,), 0.0)


def test_the_docstrings_run_as_doctests() -> None:
    result = doctest.testmod(value_module)
    assert result.attempted and not result.failed


def test_the_shipped_weights_read_the_features() -> None:
    value = shipped_value()
    assert len(value.mean) == WIDTH and all(len(row) == WIDTH for row in value.hidden)
    rack = tuple(parse_tiles("r6 r7 b9 k1 y4 y5 y6 J"))
    table = (tuple(parse_tiles("r3 r4 r5")),)
    assert 0.0 < value(features(rack, table, False, 9, 40, (True, True))) < 1.0
    data = json.loads(WEIGHTS.read_text())
    with pytest.raises(ValueError, match="reads 67 features"):
        PositionValue.from_json(dict(data["value"], mean=[0.0] * (WIDTH - 1)))


def test_the_bot_plays_the_candidate_the_value_rates_best() -> None:
    view = RULES.view_for(two_player_midgame(), 0)
    seat = RearrangeSeatView.of(view)
    bot = HardRearrangeBot()
    full = solve(seat.table, seat.rack)
    assert full is not None and len(full.placed) < len(seat.rack)
    candidates = bot._candidates(seat, bot.planned_move(seat, full), full)
    assert len(candidates) >= 2
    rated = []
    for candidate in [*candidates, None]:
        table = seat.table if candidate is None else candidate.table
        assert table is not None
        rack = seat.rack if candidate is None else without(seat.rack, candidate.placed)
        drew = candidate is None
        rated.append((shipped_value()(features(rack, table, drew, seat.tiles[1], seat.pool - drew, (True, True))), candidate))
    best = max(rated, key=lambda pair: pair[0])[1]
    move = bot.next_move(view, random.Random(1))
    assert move == (Draw() if best is None or best.table is None else Play(best.table))


def test_the_value_decides_between_drawing_and_playing_but_never_keeps_the_bot_from_going_out() -> None:
    view = RULES.view_for(two_player_midgame(), 0)
    assert isinstance(HardRearrangeBot(value=rating_the_draw(1.0)).next_move(view, random.Random(1)), Draw)
    assert isinstance(HardRearrangeBot(value=rating_the_draw(-1.0)).next_move(view, random.Random(1)), Play)
    # Without the value (and far from the end): the planned play.
    planned = HardRearrangeBot(RearrangeWeights(value=False))
    assert planned.next_move(view, random.Random(1)) == HardRearrangeBot(RearrangeWeights(value=False, search=False)).next_move(view, random.Random(1))
    out = position(["r6 r7", "r1 r2 y9"], table="r3 r4 r5 | b10 b11 b12", opened=[0, 1], pool_size=40, turn_no=20)
    move = HardRearrangeBot(value=rating_the_draw(1.0)).next_move(RULES.view_for(out, 0), random.Random(1))
    assert isinstance(move, Play) and RULES.apply(out, 0, move).racks[0] == ()


def test_the_value_reads_the_seats_view_only() -> None:
    state = two_player_midgame()
    bot = get_bot("tile-rummy-rearrange", "hard")
    view = RULES.view_for(state, 0)
    move = str(bot.next_move(view, random.Random(5)))
    hidden = [*state.racks[1], *state.pool]
    for seed in range(3):
        random.Random(seed).shuffle(hidden)
        other = replace(state, racks=(state.racks[0], tuple(sorted(hidden[: len(state.racks[1])]))), pool=tuple(hidden[len(state.racks[1]) :]))
        assert other.racks[1] != state.racks[1]
        assert RULES.view_for(other, 0) == view
        assert str(bot.next_move(RULES.view_for(other, 0), random.Random(5))) == move
    smuggled = dict(view, racks=[["J"] * 14] * 2, pool_tiles=["r1"] * 40)
    smuggled["players"] = [dict(player, rack=["J", "J"]) for player in view["players"]]
    assert str(bot.next_move(smuggled, random.Random(5))) == move
