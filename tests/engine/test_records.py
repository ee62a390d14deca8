"""Game records: the full deal and every move, enough for an exact replay that checks each move."""

from __future__ import annotations

import json
import random

import pytest

from apps.engine.errors import InvalidMove
from apps.engine.house import RULES
from apps.engine.house.playout import random_game
from apps.engine.records import RECORD_FORMAT, GameRecord, replay, start_record
from apps.engine.tiles import tile_of


def recorded_game(seed: int = 11, seats: int = 3) -> GameRecord:
    rng = random.Random(seed)
    state = RULES.new_game(seats, rng)
    record = start_record("tile-rummy", state, info={"table": 1})
    final, moves = random_game(state, rng)
    for number, (seat, move) in enumerate(moves):
        record = record.add(seat, move, 1000 * number)
    result = RULES.result(final)
    assert result is not None
    return record.finish(result)


def test_a_record_holds_the_full_deal_by_physical_tile_ids() -> None:
    state = RULES.new_game(4, random.Random(3), starter=1)
    deal = start_record("tile-rummy", state).deal
    assert deal["starter"] == 1 and deal["indicator"] == state.indicator
    assert [len(rack) for rack in deal["racks"]] == [14, 15, 14, 14]
    assert sorted([deal["indicator"], *deal["pile"], *(tile for rack in deal["racks"] for tile in rack)]) == list(range(106))
    assert RULES.from_deal(deal) == state


def test_a_record_round_trips_through_json_and_replays_to_the_recorded_scores() -> None:
    record = recorded_game()
    data = json.loads(json.dumps(record.to_dict()))
    assert data["format"] == RECORD_FORMAT and data["game"] == "tile-rummy" and data["info"] == {"table": 1}
    assert GameRecord.from_dict(data) == record
    replayed = replay(GameRecord.from_dict(data))
    assert replayed.result is not None and record.result is not None
    assert list(replayed.result.scores) == record.result["scores"]


def test_replay_names_the_first_move_that_fails() -> None:
    data = recorded_game().to_dict()
    data["moves"][0]["move"] = "discard " + str(tile_of(99))
    data["moves"][0]["seat"] = (data["deal"]["starter"] + 1) % 3
    with pytest.raises(InvalidMove, match=r"Move 1 \('discard k11' by seat \d\) fails: .*not your turn"):
        replay(GameRecord.from_dict(data))


def test_replay_refuses_a_record_whose_scores_were_changed() -> None:
    data = recorded_game().to_dict()
    data["result"]["scores"][0] += 10
    with pytest.raises(InvalidMove, match="differ from the replayed ones"):
        replay(GameRecord.from_dict(data))


def test_it_refuses_a_record_with_a_bad_deal() -> None:
    data = recorded_game().to_dict()
    data["deal"]["pile"] = data["deal"]["pile"][1:]
    with pytest.raises(InvalidMove, match="each of the 106 tiles exactly once"):
        replay(GameRecord.from_dict(data))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"format": "other"}, "'format' must be"),
        ({"format": RECORD_FORMAT, "game": "tile-rummy"}, "Not a well-formed game record"),
        ({"format": RECORD_FORMAT, "game": "chess", "deal": {}, "moves": []}, "There is no game 'chess'"),
    ],
)
def test_it_refuses_what_is_not_a_record(data: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidMove, match=message):
        replay(GameRecord.from_dict(data))


def test_time_offsets_never_go_back() -> None:
    record = start_record("tile-rummy", RULES.new_game(2, random.Random(0))).add(0, "discard r5", 500)
    with pytest.raises(InvalidMove, match="cannot go back in time"):
        record.add(1, "draw", 400)
