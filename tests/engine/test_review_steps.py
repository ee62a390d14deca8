"""The positions of a game for the replay viewer (apps/engine/review/steps.py)."""

from __future__ import annotations

import pytest

from apps.engine.errors import InvalidMove
from apps.engine.review.steps import replay_steps
from tests.engine.review_records import rearrange_record
from tests.engine.test_review import REARRANGE_RACKS


def test_there_is_a_step_for_the_deal_and_one_after_each_move_with_every_rack() -> None:
    record = rearrange_record(REARRANGE_RACKS, [(0, "draw"), (1, "draw"), (0, "play r10 r11 r12")], pool="y10 k1")
    steps = replay_steps(record)
    assert [step["move"] and step["move"]["move"] for step in steps] == [None, "draw", "draw", "play r10 r11 r12"]
    assert [len(rack) for rack in steps[0]["racks"]] == [14, 14]
    assert "y10" in steps[1]["racks"][0] and "k1" in steps[2]["racks"][1]  # every rack, as the game is over
    assert [meld["tiles"] for meld in steps[3]["view"]["table"]] == [["r10", "r11", "r12"]]
    assert steps[3]["view"]["pool"] == len(record.deal["pool"]) - 2  # the pool as a count, never its order
    assert "actions" not in steps[0]["view"] and "you" not in steps[0]["view"]


def test_a_move_that_does_not_replay_is_named() -> None:
    record = rearrange_record(REARRANGE_RACKS, [(0, "draw"), (1, "play r1 r2 r3")])
    with pytest.raises(InvalidMove, match=r"Move 2 \('play r1 r2 r3' by seat 1\) fails"):
        replay_steps(record)
