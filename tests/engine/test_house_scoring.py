"""Scoring of the house game: every line of the SPEC 3 scoring table and the order of calculation.

The positions are made up so that each line shows; the worked example is the one the rules page can show.
"""

from __future__ import annotations

from apps.engine.game import Auto, GameResult, Leave, Timeout
from apps.engine.house import RULES
from apps.engine.house.moves import parse_move
from apps.engine.house.play import apply
from apps.engine.house.positions import position
from apps.engine.house.scoring import score
from apps.engine.house.state import HouseState


def play(state: HouseState, seat: int, *moves: str) -> HouseState:
    for move in moves:
        state = apply(state, seat, parse_move(move))
    return state


def lines(result: GameResult, seat: int) -> dict[str, int]:
    return {line.key: line.points for line in result.seats[seat].lines}


def worked_example() -> GameResult:
    # Indicator r1: a double game, and seat 0 was dealt its twin. Seat 0 goes out by discarding a joker.
    state = position(
        ["b5 b7 J J r1", "k2 k3 y13", "b11 b12"],
        melds=[(0, "r5 r6 r7"), (0, "r2 r3 r4"), (1, "y10 y11 y12")],
        indicator="r1",
        opened=[0, 1],
    )
    state = play(state, 0, "lay b5 J b7", "add 1 r1 ..", "discard J")
    result = RULES.result(state)
    assert result is not None
    return result


def test_the_worked_example_follows_the_order_of_calculation() -> None:
    result = worked_example()
    assert result.reason == "out" and result.winner == 0
    # seat 0: table 15 + 15 + 5 (r1 at the start of a run) + 10 (b5, b7; the joker counts nothing here)
    assert lines(result, 0) == {
        "table": 45,
        "jokers": 50,
        "rack": 0,
        "out": 100,
        "twin": 50,  # base 245
        "joker_out": 245,  # x2 -> 490
        "double": 490,  # x2 -> 980
    }
    assert result.scores[0] == 980
    # seat 1: table 30, rack -5 -5 -10; base 10; double game -> 20
    assert lines(result, 1) == {"table": 30, "jokers": 0, "rack": -20, "out": 0, "twin": 0, "joker_out": 0, "double": 10}
    assert result.scores[1] == 20
    # seat 2 never opened: -100 instead of its rack (-20), doubled
    assert lines(result, 2)["unopened"] == -100
    assert result.scores[2] == -200


def test_every_breakdown_line_adds_up_to_the_total() -> None:
    for seat_score in worked_example().seats:
        assert sum(line.points for line in seat_score.lines) == seat_score.total
        assert [line.key for line in seat_score.lines][-2:] == ["joker_out", "double"]


def test_each_tile_scores_its_opening_value_in_the_meld_where_it_was_put() -> None:
    # seat 0 lays off a 1 after 13 (10) on seat 1's run, and replaces a joker with r6 (5) in seat 1's meld
    state = position(
        ["b1 r6 k2 k3", "y4"],
        melds=[(1, "b11 b12 b13"), (1, "r5 J r7")],
        opened=[0, 1],
        joker_by=(1, None),
    )
    state = play(state, 0, "add 0 b1", "joker 1 r6", "discard k2")
    totals = score(state)
    assert lines(totals, 0)["table"] == 15
    assert lines(totals, 1)["table"] == 30 + 10  # b11 b12 b13, r5 r7
    assert lines(totals, 1)["jokers"] == 50  # the joker's +50 stays with its first player
    assert lines(totals, 0)["rack"] == -50 - 5  # the taken joker costs its holder 50 on the rack


def test_a_joker_taken_and_played_again_earns_nobody_anything() -> None:
    state = position(["r6 k9 y9 k1 k2", "y4"], melds=[(1, "r5 J r7")], opened=[0, 1], joker_by=(1, None))
    state = play(state, 0, "joker 0 r6", "lay k9 y9 J", "discard k2")
    totals = score(state)
    assert lines(totals, 0)["jokers"] == 0 and lines(totals, 1)["jokers"] == 50


def test_when_the_pile_runs_out_nobody_gets_the_going_out_bonus() -> None:
    state = position(["r5 r6 r7 k2", "y4 y5"], opened=[0], pile="k4", pile_size=1, phase="draw")
    state = play(state, 0, "draw", "lay r5 r6 r7", "discard k4")
    result = RULES.result(state)
    assert result is not None and result.reason == "pile" and result.winner is None
    assert lines(result, 0) == {"table": 15, "jokers": 0, "rack": -5, "out": 0, "twin": 0, "joker_out": 0, "double": 0}
    assert lines(result, 1)["unopened"] == -100


def test_going_out_with_a_numbered_tile_is_not_doubled() -> None:
    state = play(position(["k2", "y4"], melds=[(0, "r5 r6 r7")], opened=[0]), 0, "discard k2")
    result = RULES.result(state)
    assert result is not None
    assert lines(result, 0)["out"] == 100 and lines(result, 0)["joker_out"] == 0
    assert result.scores[0] == 115


def test_a_seat_that_left_keeps_its_table_points_jokers_and_twin_with_no_rack_term() -> None:
    state = position(
        ["k7 b2 b3 b4", "y4 y5 y6 J", "r9 r10"],
        melds=[(1, "k10 k11 J")],
        indicator="k7",
        opened=[1],
        joker_by=(1, None),
    )
    state = apply(state, 0, Leave())
    state = apply(state, 2, Leave())
    result = RULES.result(state)
    assert result is not None and result.reason == "left"
    assert lines(result, 0) == {"table": 0, "jokers": 0, "rack": 0, "out": 0, "twin": 50, "joker_out": 0, "double": 0}
    assert result.seats[0].left and result.scores[0] == 50
    assert lines(result, 1) == {"table": 20, "jokers": 50, "rack": -65, "out": 0, "twin": 0, "joker_out": 0, "double": 0}


def test_a_seat_left_with_only_a_joker_goes_out_by_it_doubled_whether_it_or_the_table_discards() -> None:
    # SPEC 3 decisions: with nothing but jokers on the rack, a timeout or the autopilot discards a joker, and
    # the seat goes out by discarding a joker, scored exactly as the player's own "discard J" (points x2).
    # Issue 40: Hypothesis found this rack (one joker at a timeout) in CI.
    start = position(["J", "b5 b6"], melds=[(0, "r5 r6 r7")], indicator="k8", opened=[0])
    results = []
    for table_move in (parse_move("discard J"), Timeout(), Auto()):
        state = apply(start, 0, table_move)
        assert state.end == "out" and state.out == 0 and state.out_by_joker
        result = RULES.result(state)
        assert result is not None and result.winner == 0
        results.append(lines(result, 0))
    assert results[0] == results[1] == results[2]
    assert results[0] == {"table": 15, "jokers": 0, "rack": 0, "out": 100, "twin": 0, "joker_out": 115, "double": 0}
