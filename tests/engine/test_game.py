"""The game-independent interface and the registry (CONVENTIONS 3): games are looked up by slug."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from apps.engine.errors import EngineError, IllegalMove, InvalidMove
from apps.engine.game import GameResult, Rules, ScoreLine, SeatScore, game_slugs, get_rules, is_available
from apps.engine.tiles import COLOURS, JOKER, Tile, format_tiles


def test_the_catalog_has_both_games_and_the_house_game_is_available() -> None:
    assert game_slugs() == ("tile-rummy", "tile-rummy-rearrange")
    rules = get_rules("tile-rummy")
    assert isinstance(rules, Rules) and rules.slug == "tile-rummy" and rules.name == "Tile Rummy"
    assert (rules.min_seats, rules.max_seats) == (2, 4)
    assert is_available("tile-rummy")


def test_it_refuses_an_unknown_game_by_name() -> None:
    with pytest.raises(InvalidMove, match="There is no game 'chess': the games are tile-rummy, tile-rummy-rearrange"):
        get_rules("chess")


def test_both_kinds_of_error_are_engine_errors() -> None:
    assert issubclass(InvalidMove, EngineError) and issubclass(IllegalMove, EngineError)


def test_a_game_driven_only_through_the_interface_reaches_its_end() -> None:
    rules = get_rules("tile-rummy")
    rng = random.Random(4)
    state = rules.new_game(2, rng)
    while not rules.is_over(state):
        seat = rules.to_move(state)
        assert seat is not None and "auto" in rules.legal_actions(state, seat)
        state = rules.apply(state, seat, rules.autopilot(state, seat))
    assert rules.to_move(state) is None and rules.legal_actions(state, 0) == frozenset()
    result = rules.result(state)
    assert result is not None and result.reason == "pile"
    assert GameResult.from_dict(result.to_dict()) == result


def test_results_round_trip_through_their_dict_form() -> None:
    result = GameResult("out", 1, (SeatScore(0, (ScoreLine("table", "Tiles", 5),), 5), SeatScore(1, (), 0, True)))
    assert GameResult.from_dict(result.to_dict()) == result
    assert result.scores == (5, 0)


_FACES = st.builds(Tile, st.sampled_from(COLOURS), st.integers(1, 13))


@given(
    slug=st.sampled_from(game_slugs()),
    real=st.lists(_FACES, max_size=10),
    jokers=st.integers(3, 6),
    data=st.data(),
)
def test_no_meld_check_of_either_game_accepts_three_or_more_jokers(slug: str, real: list[Tile], jokers: int, data: st.DataObject) -> None:
    # SPEC 2: there are only two jokers, so a meld with three or more is refused, the reason quoting it.
    tiles = list(real)
    for _ in range(jokers):
        tiles.insert(data.draw(st.integers(0, len(tiles)), label="joker at"), JOKER)
    check = get_rules(slug).meld_check(tiles)
    assert not check.valid and check.kind is None and check.points == 0
    assert check.reason is not None and check.reason.startswith(repr(format_tiles(tiles)))
    assert check.reason.endswith(f"there are only two jokers in the game, not {jokers}")
