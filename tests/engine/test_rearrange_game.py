"""The Rearrange game through the engine's interface (SPEC 4, issue 4): the start ceremony, plays, draws and
passes, the end of a game, scoring (the four-player score sheet of seed 004), timeouts, autopilot, leaving,
views, storage, records and replay. Positions are written in notation (`rearrange.positions`)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from apps.engine.cli import main
from apps.engine.errors import IllegalMove, InvalidMove
from apps.engine.game import Auto, Back, Draw, Leave, Move, Timeout, get_rules
from apps.engine.match import new_match
from apps.engine.rearrange.melds import try_read_meld
from apps.engine.rearrange.moves import Play
from apps.engine.rearrange.moves import Timeout as RearrangeTimeout
from apps.engine.rearrange.play import faces, table_faces
from apps.engine.rearrange.positions import position
from apps.engine.rearrange.scoring import rack_total, shared_win
from apps.engine.rearrange.solver import solve_opening
from apps.engine.rearrange.state import HAND, RearrangeState
from apps.engine.records import replay, start_record
from apps.engine.tiles import TILE_COUNT, parse_melds, tile_of

RULES = get_rules("tile-rummy-rearrange")


def play(text: str) -> Play:
    move = RULES.parse_move(f"play {text}")
    assert isinstance(move, Play)
    return move


def rack_text(state: RearrangeState, seat: int) -> str:
    return " ".join(str(tile) for tile in faces(state.racks[seat]))


def table_text(state: RearrangeState) -> str:
    return " | ".join(" ".join(str(tile) for tile in meld) for meld in table_faces(state))


# --- the deal and the start ceremony (SPEC 4 "Deal and order"; seed 004 "Set Up") --------------------------------


def test_every_seat_gets_14_tiles_and_the_rest_is_the_pool() -> None:
    state = RULES.new_game(3, random.Random(1))
    assert [len(rack) for rack in state.racks] == [HAND] * 3
    assert len(state.pool) == TILE_COUNT - 3 * HAND
    assert sorted(state.all_tiles()) == list(range(TILE_COUNT))


def test_the_highest_tile_of_the_start_ceremony_starts() -> None:
    for seed in range(30):
        state = RULES.new_game(4, random.Random(seed))
        last = state.ceremony[-1]
        numbers = {seat: tile_of(tile).number for seat, tile in last if tile_of(tile).number is not None}
        assert state.starter == state.turn == max(numbers, key=lambda seat: numbers[seat] or 0)
        assert sorted(numbers.values()).count(max(numbers.values())) == 1


def test_jokers_and_ties_draw_again_in_the_ceremony() -> None:
    rounds = [state.ceremony for state in (RULES.new_game(4, random.Random(seed)) for seed in range(200))]
    assert any(len(ceremony) > 1 for ceremony in rounds)  # a tie for the highest: the tied seats draw again
    assert any(
        tile_of(tile).is_joker for ceremony in rounds for draws in ceremony for _, tile in draws
    )  # a joker does not count: that seat draws again at once


def test_the_ceremony_is_part_of_the_deal_and_is_checked() -> None:
    state = RULES.new_game(2, random.Random(7))
    deal = RULES.deal_of(state)
    assert deal["ceremony"] and RULES.from_deal(deal) == state
    deal["starter"] = 1 - deal["starter"]
    with pytest.raises(InvalidMove, match="start ceremony makes seat"):
        RULES.from_deal(deal)


def test_later_games_of_a_match_rotate_the_start_without_a_ceremony() -> None:
    match = new_match("tile-rummy-rearrange", 3, random.Random(3), length=3, starter=1)
    state = match.deal_next(random.Random(4))
    assert (state.starter, state.ceremony) == (1, ())


# --- the turn: a play or a draw (SPEC 4 "The turn") ----------------------------------------------------------------


def test_a_legal_play_changes_the_table_and_the_rack_and_ends_the_turn() -> None:
    state = position(["r4 r8 k1", "y1 y2 y3"], table="r5 r6 r7", opened=[0])
    after = RULES.apply(state, 0, play("r4 r5 r6 r7 r8"))
    assert (table_text(after), rack_text(after, 0), after.turn) == ("r4 r5 r6 r7 r8", "k1", 1)


def test_a_play_that_breaks_a_rule_is_refused_with_the_rule() -> None:
    state = position(["r4 r8 k1", "y1 y2 y3"], table="r5 r6 r7", opened=[0])
    with pytest.raises(IllegalMove, match="'r5 r6 r7 r9' is not a set"):
        RULES.apply(state, 0, play("r5 r6 r7 r9"))
    with pytest.raises(IllegalMove, match="Nothing left your rack"):
        RULES.apply(state, 0, play("r5 r6 r7"))


def test_a_play_naming_three_jokers_is_refused_as_there_are_only_two() -> None:
    # One joker on the table, one on the rack: a table with three is not a table of this game (SPEC 2).
    state = position(["J r1 r2 y5 y6", "y1 y2 y3"], table="r4 J r6", opened=[0])
    with pytest.raises(IllegalMove, match=r"'r4 J r6 \| r1 r2 J \| J y5 y6' is not a table: there are only two jokers in the game, not 3"):
        RULES.apply(state, 0, play("r4 J r6 | r1 r2 J | J y5 y6"))


def test_the_first_play_must_be_an_opening_of_30() -> None:
    state = position(["r9 y9 b9 k11 k12 k13", "y1 y2 y3"], table="r5 r6 r7", opened=[1])
    with pytest.raises(IllegalMove, match="worth 27"):
        RULES.apply(state, 0, play("r5 r6 r7 | r9 y9 b9"))
    after = RULES.apply(state, 0, play("r5 r6 r7 | k11 k12 k13"))
    assert after.opened == (True, True)


def test_an_opening_may_send_a_group_already_on_the_table_in_its_own_order() -> None:
    # Issue 13 through the game's apply: seat 1's group y7 b7 r7 k7 comes back as r7 y7 b7 k7.
    state = position(["r10 r11 r12 k1", "y1 y2 y3"], table="y7 b7 r7 k7", opened=[1])
    state = RULES.apply(state, 0, play("r7 y7 b7 k7 | r10 r11 r12"))
    assert state.opened[0] and rack_text(state, 0) == "k1"
    assert table_text(state) == "r7 y7 b7 k7 | r10 r11 r12"


def test_from_the_next_turn_the_opener_may_rebuild_the_table() -> None:
    state = position(["k11 k12 k13 r8", "y1 y2 y3 y4"], table="r5 r6 r7")
    state = RULES.apply(state, 0, play("r5 r6 r7 | k11 k12 k13"))
    state = RULES.apply(state, 1, Draw())
    state = RULES.apply(state, 0, play("r5 r6 r7 r8 | k11 k12 k13"))
    assert rack_text(state, 0) == ""


def test_a_draw_ends_the_turn_with_one_more_tile() -> None:
    state = position(["r1 r2", "y1 y2"], pool="k13")
    after = RULES.apply(state, 0, Draw())
    assert (rack_text(after, 0), after.turn, len(after.pool)) == ("r1 r2 k13", 1, len(state.pool) - 1)


def test_it_is_nobodys_turn_but_the_seat_to_move() -> None:
    state = position(["r1 r2", "y1 y2"])
    with pytest.raises(IllegalMove, match="not your turn"):
        RULES.apply(state, 1, Draw())


# --- the end of a game and scoring (SPEC 4; seed 004 "Scoring", "Score Table") --------------------------------------


def finish_by_rummy(racks: list[str], winner: int) -> RearrangeState:
    """A game the `winner` ends by laying its last tiles, r1 r2 r3, as a new set."""
    state = position(racks, opened=range(len(racks)), turn=winner)
    return RULES.apply(state, winner, play("r1 r2 r3"))


def test_the_first_empty_rack_wins_and_takes_the_losers_rack_totals() -> None:
    state = finish_by_rummy(["r1 r2 r3", "y5", "k13 y3", "b3"], winner=0)
    result = RULES.result(state)
    assert result is not None and (result.reason, result.winner, result.scores) == ("out", 0, (24, -5, -16, -3))


def test_the_four_player_score_sheet_of_seed_004_adds_up() -> None:
    # Seed 004 "Score Table": rounds won by A (+24), C (+22) and D (+47); totals -14, -29, +4, +39.
    games = [
        (["r1 r2 r3", "y5", "k13 y3", "b3"], 0),
        (["r6", "k11", "r1 r2 r3", "y5"], 2),
        (["J r2", "k13", "y2", "r1 r2 r3"], 3),
    ]
    match = new_match("tile-rummy-rearrange", 4, random.Random(0), length=3, starter=0)
    sheet = []
    for racks, winner in games:
        state = finish_by_rummy(racks, winner)
        result = RULES.result(state)
        assert result is not None
        sheet.append(result.scores)
        match = match.finish_game(state)
    assert sheet == [(24, -5, -16, -3), (-6, -11, 22, -5), (-32, -13, -2, 47)]
    assert all(sum(row) == 0 for row in sheet)  # "the plus score should equal the total of the minus scores"
    assert match.totals == (-14, -29, 4, 39) and match.is_over
    assert match.places() == (3, 4, 2, 1)


def test_a_joker_left_on_a_rack_counts_30() -> None:
    assert rack_total(position(["J r2"]).racks[0]) == 32


def test_with_an_empty_pool_a_draw_is_a_pass_and_all_passing_ends_the_game() -> None:
    state = position(["r2 r3", "k9", "J"], pool_size=0, opened=[0, 1, 2])
    state = RULES.apply(state, 0, Draw())
    state = RULES.apply(state, 1, Draw())
    assert not RULES.is_over(state) and state.passed == (True, True, False)
    state = RULES.apply(state, 2, Draw())
    result = RULES.result(state)
    # The lowest rack (5) wins; each loser pays its total minus the winner's.
    assert result is not None and (result.reason, result.winner, result.scores) == ("pile", 0, (29, -4, -25))


def test_a_play_between_passes_starts_the_count_again() -> None:
    state = position(["r2 r3", "k9 k10 k11 k5"], table="k6 k7 k8", pool_size=0, opened=[0, 1])
    state = RULES.apply(state, 0, Draw())
    state = RULES.apply(state, 1, play("k6 k7 k8 k9 k10 k11"))
    assert state.passed == (False, False)


def test_equal_lowest_racks_go_to_fewer_tiles_then_share_the_win() -> None:
    fewer = position(["r5", "r2 r3", "k9"], pool_size=0, passed=[1, 2], turn=0)
    result = RULES.result(RULES.apply(fewer, 0, Draw()))
    assert result is not None and (result.winner, result.scores) == (0, (4, 0, -4))
    shared = position(["r5", "y5", "k10"], pool_size=0, passed=[1, 2], turn=0)
    result = RULES.result(RULES.apply(shared, 0, Draw()))
    # Two winners share the 5 points the loser pays: the odd point goes to the earlier seat.
    assert result is not None and (result.winner, result.scores) == (None, (3, 2, -5))


def test_a_shared_win_splits_whole_points_and_the_points_left_over_go_to_the_earlier_seats() -> None:
    # SPEC 4, decisions. Seats 1, 2 and 3 tie on one 2 each; seat 0 pays 19 - 2 = 17: 6, 6 and 5, in seat
    # order (not from the starter: seat 2 started this game).
    state = position(["k10 k9", "r2", "y2", "b2"], pool_size=0, passed=[1, 2, 3], turn=0, starter=2)
    result = RULES.result(RULES.apply(state, 0, Draw()))
    assert result is not None and (result.winner, result.scores) == (None, (-17, 6, 6, 5))
    shares = [[(line.key, line.points, line.detail) for line in seat.lines] for seat in result.seats[1:]]
    assert shares == [
        [("shared", 6, "17 split 3 ways, +1 left over")],
        [("shared", 6, "17 split 3 ways, +1 left over")],
        [("shared", 5, "17 split 3 ways")],
    ]
    assert result.seats[1].lines[0].label == "Shared win: split equally, points left over one each to the earlier seats"
    # The detail's numbers, for the site to say it in the player's language (SPEC 12).
    assert [dict(seat.lines[0].params) for seat in result.seats[1:]] == [
        {"split": 17, "ways": 3, "extra": 1},
        {"split": 17, "ways": 3, "extra": 1},
        {"split": 17, "ways": 3, "extra": 0},
    ]


@given(plus=st.integers(0, 500), winners=st.integers(2, 4))
def test_shared_wins_give_whole_equal_shares_and_the_rest_one_each_in_seat_order(plus: int, winners: int) -> None:
    shares = shared_win(plus, winners)
    assert sum(shares) == plus and len(shares) == winners
    assert max(shares) - min(shares) <= 1 and list(shares) == sorted(shares, reverse=True)


@settings(max_examples=40, deadline=None)
@given(number=st.integers(1, 9), seats=st.integers(2, 4), losses=st.lists(st.integers(1, 4), min_size=4, max_size=4), data=st.data())
def test_every_pool_end_with_tied_winners_sums_to_zero_with_the_extra_points_in_seat_order(
    number: int, seats: int, losses: list[int], data: st.DataObject
) -> None:
    # Tied winners each hold one tile of `number` (one colour each); every other seat holds a higher tile.
    tied = sorted(data.draw(st.lists(st.integers(0, seats - 1), min_size=2, max_size=seats, unique=True), label="tied"))
    colours = iter("rybk")
    racks = [f"{next(colours)}{number}" if seat in tied else f"k{number + losses[seat]}" for seat in range(seats)]
    state = position(racks, pool_size=0, passed=[seat for seat in range(seats) if seat != 0], turn=0)
    result = RULES.result(RULES.apply(state, 0, Draw()))
    assert result is not None and result.winner is None and sum(result.scores) == 0
    plus = sum(losses[seat] for seat in range(seats) if seat not in tied)
    assert [result.scores[seat] for seat in tied] == list(shared_win(plus, len(tied)))


# --- timeouts, autopilot and leaving (SPEC 4 "Time limit (optional)", section 3 "Time, autopilot, leaving") ----------


def test_a_timeout_with_an_illegal_table_reverts_and_draws_three() -> None:
    state = position(["r4 r8 k1", "y1 y2 y3"], table="r5 r6 r7", pool="b1 b2 b3 b4", opened=[0])
    move = RULES.timeout(state, 0, play("r5 r6 r7 r9 | r4 r8"))
    assert move == RearrangeTimeout()
    after = RULES.apply(state, 0, move)
    assert (table_text(after), rack_text(after, 0), after.away[0]) == ("r5 r6 r7", "r4 r8 b1 b2 b3 k1", True)


def test_a_timeout_draws_fewer_when_the_pool_is_short_and_passes_when_it_is_empty() -> None:
    short = position(["r1", "y1"], pool_size=2)
    assert len(RULES.apply(short, 0, Timeout()).racks[0]) == 3
    empty = position(["r1", "y1"], pool_size=0)
    assert RULES.apply(empty, 0, Timeout()).passed == (True, False)


def test_a_timeout_with_a_legal_table_lets_the_play_stand() -> None:
    state = position(["r4 r8 k1", "y1 y2 y3"], table="r5 r6 r7", opened=[0])
    move = RULES.timeout(state, 0, play("r4 r5 r6 r7 r8"))
    assert str(move) == "timeout r4 r5 r6 r7 r8"
    after = RULES.apply(state, 0, move)
    assert (table_text(after), rack_text(after, 0), after.away[0]) == ("r4 r5 r6 r7 r8", "k1", True)


def test_autopilot_draws_or_passes_until_the_player_is_back() -> None:
    state = position(["r1", "y1"], pool="k5", away=[0])
    assert RULES.autopilot(state, 0) == Auto()
    after = RULES.apply(state, 0, Auto())
    assert rack_text(after, 0) == "r1 k5" and RULES.is_away(after, 0)
    back = RULES.apply(after, 0, Back())
    assert not RULES.is_away(back, 0)


def test_a_player_who_leaves_takes_the_rack_out_and_scores_nothing() -> None:
    state = position(["r1 r2 r3", "k13", "y7 y8"], opened=[0, 1, 2], turn=0)
    state = RULES.apply(state, 1, Leave())
    assert state.racks[1] == () and RULES.has_left(state, 1) and len(state.gone) == 1
    state = RULES.apply(state, 0, play("r1 r2 r3"))
    result = RULES.result(state)
    assert result is not None and result.scores == (15, 0, -15)


def test_a_game_with_one_player_left_is_over() -> None:
    state = RULES.apply(position(["r1", "y1"]), 0, Leave())
    result = RULES.result(state)
    assert result is not None and (result.reason, result.scores) == ("left", (0, 0))


# --- views and storage (CONVENTIONS 5) -------------------------------------------------------------------------------


def test_a_seat_sees_its_own_rack_and_only_counts_of_the_others() -> None:
    state = position(["r1 r2", "y1 y2 y3"], table="k5 k6 k7 | r9 y9 J")
    view = RULES.view_for(state, 0)
    assert view["rack"] == ["r1", "r2"] and [player["tiles"] for player in view["players"]] == [2, 3]
    assert view["table"][1] == {
        "index": 1,
        "tiles": ["r9", "y9", "J"],
        "kind": "set",
        "points": 27,
        "jokers": [{"at": 2, "stands_for": ["b9", "k9"]}],
    }
    spectator = RULES.view_for(state, None)
    assert "rack" not in spectator and spectator["actions"] == []
    text = json.dumps(spectator)
    assert "y3" not in text and isinstance(spectator["pool"], int)


def test_the_state_round_trips_through_its_dict() -> None:
    state = RULES.new_game(4, random.Random(11))
    assert RULES.from_dict(json.loads(json.dumps(RULES.to_dict(state)))) == state


def test_the_cli_answers_meld_and_solve_for_this_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["meld", "--game", "tile-rummy-rearrange", "r5", "J", "J"]) == 0
    assert json.loads(capsys.readouterr().out) == {"valid": True, "kind": "run", "points": 18}
    assert main(["meld", "--game", "tile-rummy-rearrange", "r12", "r13", "r1"]) == 0
    assert json.loads(capsys.readouterr().out)["valid"] is False
    assert main(["solve", "--game", "tile-rummy-rearrange", "--table", "r4 J r6", "--rack", "r5 k7 k8"]) == 0
    assert json.loads(capsys.readouterr().out) == {"placed": ["r5", "k7", "k8"], "table": [["r4", "r5", "r6"], ["k7", "k8", "J"]]}
    assert main(["solve", "--game", "tile-rummy-rearrange", "--rack", "k1 y9"]) == 0
    assert json.loads(capsys.readouterr().out) == {"placed": [], "table": []}


# --- whole games: conservation, hidden information, records and replay -----------------------------------------------


def random_move(state: RearrangeState, rng: random.Random) -> Move:
    """A random legal-looking move of the seat to move: an opening or a single tile laid off when it can,
    else a draw; sometimes the table's moves, a bad table on a timeout, or standing up."""
    seat = state.turn
    roll = rng.random()
    if roll < 0.03:
        return Timeout()
    if roll < 0.06:
        return RearrangeTimeout(tuple(tuple(meld) for meld in parse_melds("r1 y2 b3")))
    if roll < 0.08:
        return Auto()
    if roll < 0.085 and len(state.in_play) > 2:
        return Leave()
    table = table_faces(state)
    rack = faces(state.racks[seat])
    if not state.opened[seat]:
        found = solve_opening(rack, table)
        return Play(found.table) if found is not None and rng.random() < 0.8 else Draw()
    for tile in rng.sample(rack, len(rack)):
        for index, meld in enumerate(table):
            for grown in ((*meld, tile), (tile, *meld)):
                if try_read_meld(grown) is not None:
                    return Play(table[:index] + (grown,) + table[index + 1 :])
    return Draw()


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 4))
def test_random_games_keep_every_tile_hide_every_rack_and_replay_from_their_record(seed: int, seats: int) -> None:
    rng = random.Random(seed)
    state = RULES.new_game(seats, rng)
    record = start_record(RULES.slug, state)
    for turn in range(600):
        if RULES.is_over(state):
            break
        seat = state.turn
        move = random_move(state, rng)
        state = RULES.apply(state, seat, move)
        record = record.add(seat, move, turn * 1000)
        assert sorted(state.all_tiles()) == list(range(TILE_COUNT))
        for viewer in [None, *range(seats)]:
            view = json.dumps(RULES.view_for(state, viewer))
            for other in range(seats):
                if other != viewer and state.racks[other]:
                    assert json.dumps(RULES.view_for(state, viewer)["players"][other]["tiles"]) == str(len(state.racks[other]))
            assert "pool_order" not in view
    assert RULES.from_dict(RULES.to_dict(state)) == state
    result = RULES.result(state)
    if result is not None:
        assert sum(result.scores) == 0
        record = record.finish(result)
    replayed = replay(type(record).from_dict(json.loads(json.dumps(record.to_dict()))))
    assert replayed.state == state


def test_a_recorded_game_replays_through_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(5)
    state = RULES.new_game(2, rng)
    record = start_record(RULES.slug, state)
    while not RULES.is_over(state):
        seat = state.turn
        move = random_move(state, rng)
        state = RULES.apply(state, seat, move)
        record = record.add(seat, move, 0)
    result = RULES.result(state)
    assert result is not None
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record.finish(result).to_dict()))
    assert main(["replay", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["scores"] == list(result.scores)
