"""`bench/house_open_race.py` (issue 18): the draws a Hard bot takes to open, alone against the pile."""

from __future__ import annotations

import random

from apps.engine.game import JSON, Move
from apps.engine.house.bots.hard import HardHouseBot
from apps.engine.house.bots.view import SeatView
from apps.engine.house.helpers import find_opening
from bench.house_open_race import LIMIT, main, race


class Recording(HardHouseBot):
    """The shipped Hard bot, keeping the rack of every view it is given."""

    def __init__(self) -> None:
        super().__init__()
        self.racks: list[tuple[object, ...]] = []

    def next_move(self, view: JSON, rng: random.Random) -> Move:
        self.racks.append(SeatView.of(view).rack)
        return super().next_move(view, rng)


def test_a_deal_ends_on_the_first_draw_that_lets_the_rack_open():
    for deal in range(4):
        bot = Recording()
        cpu: list[float] = []
        draws = race(bot, 1, deal, cpu)
        assert 1 <= draws <= LIMIT
        assert len(bot.racks) == len(cpu) == draws
        assert all(len(rack) == 15 for rack in bot.racks)
        # The shipped bot opens as soon as the rack can (it never holds the opening back).
        assert find_opening(list(bot.racks[-1])) is not None
        assert all(find_opening(list(rack)) is None for rack in bot.racks[:-1])
        assert race(HardHouseBot(), 1, deal, []) == draws  # the same pile, the same discards


def test_variants_are_compared_deal_by_deal(capsys):
    assert main(["--deals", "3", "--variant", '{"open_plans": false}']) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("shipped: ") and "draws to open over 3 deals" in out[0]
    assert out[1].startswith('{"open_plans": false}: ') and "against the shipped bot" in out[1]


def test_a_misspelt_weight_stops_before_any_deal(capsys):
    assert main(["--deals", "3", "--variant", '{"open_plan": false}']) == 2
    out, err = capsys.readouterr()
    assert "has no weight open_plan" in err and not out
