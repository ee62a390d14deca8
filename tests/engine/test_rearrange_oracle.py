"""`bench/rearrange_oracle.py` (issue 18): the oracle's games are the simulator's games, and the oracle's
search is handed the real hidden tiles through `HardRearrangeBot.deals`, the seam the shipped bot samples
through."""

from __future__ import annotations

import random
from collections import Counter

from apps.engine.bots import get_bot
from apps.engine.bots.simulate import play_game, simulate
from apps.engine.game import JSON, Move, get_rules
from apps.engine.rearrange.bots.hard import HardRearrangeBot, RearrangeWeights
from apps.engine.rearrange.bots.search import Hidden
from apps.engine.rearrange.bots.view import RearrangeSeatView
from bench.rearrange_oracle import SLUG, OracleHardBot, play, truth_of


class _Seated(HardRearrangeBot):
    def __init__(self) -> None:
        super().__init__()
        self.seats: set[int] = set()

    def next_move(self, view: JSON, rng: random.Random) -> Move:
        self.seats.add(view["you"])
        return super().next_move(view, rng)


def test_the_shipped_bots_games_are_the_simulators_games():
    # The README compares the oracle with bench/bots.py's figures: the same deals, and Hard in the seat the
    # simulator gives it (entrant 0 sits at seat `rotation`; the sum over both seatings cannot tell).
    for seed in (1, 2):
        ours = play(HardRearrangeBot(), seed, 0, 0) + play(HardRearrangeBot(), seed, 0, 1)
        assert ours == simulate(SLUG, ["hard", "greedy"], 2, seed)["seats"][0]["wins"]
    for rotation in (0, 1):
        seated = _Seated()
        play(seated, 1, 0, rotation)
        assert seated.seats == {rotation}


class _Counting(HardRearrangeBot):
    def __init__(self) -> None:
        super().__init__(RearrangeWeights(value=False))  # the search, not the learned value
        self.samples: list[tuple[RearrangeSeatView, list[Hidden]]] = []

    def deals(self, seat: RearrangeSeatView, count: int, rng: random.Random) -> list[Hidden]:
        found = super().deals(seat, count, rng)
        self.samples.append((seat, found))
        return found


def test_the_bot_samples_its_deals_through_the_seam():
    rules = get_rules(SLUG)
    counting = _Counting()
    play_game(rules, rules.new_game(2, random.Random("1:0")), [counting, get_bot(SLUG, "greedy")], random.Random("1:0:0"))
    assert counting.samples  # near the end it plays candidates out over sampled deals
    for seat, found in counting.samples:
        assert found and all(hidden.racks[seat.seat] == seat.rack and len(hidden.pool) == seat.pool for hidden in found)


def test_the_oracle_is_given_the_real_hidden_tiles():
    rules = get_rules(SLUG)
    state = rules.new_game(2, random.Random("5:3"))
    seat = RearrangeSeatView.of(rules.view_for(state, rules.to_move(state)))
    truth = truth_of(state)
    everything = OracleHardBot(RearrangeWeights(), "all")
    everything.truth = truth
    assert everything.deals(seat, 4, random.Random(0)) == [truth]
    racks = OracleHardBot(RearrangeWeights(), "racks")
    racks.truth = truth
    found = racks.deals(seat, 3, random.Random(0))
    assert len(found) == 3
    for hidden in found:
        assert hidden.racks == truth.racks
        assert Counter(hidden.pool) == Counter(truth.pool)  # the same tiles, in a sampled order
    assert any(hidden.pool != truth.pool for hidden in found)


def test_the_control_knows_nothing_and_samples_as_the_shipped_bot_does():
    rules = get_rules(SLUG)
    state = rules.new_game(2, random.Random("5:3"))
    seat = RearrangeSeatView.of(rules.view_for(state, rules.to_move(state)))
    control = OracleHardBot(RearrangeWeights(), "none")
    control.truth = Hidden(((),) * 2, ())  # poisoned: a control that read it would deal empty racks
    found = control.deals(seat, 3, random.Random(7))
    assert found == HardRearrangeBot().deals(seat, 3, random.Random(7))
    assert all(len(hidden.pool) == seat.pool and hidden.racks[seat.seat] == seat.rack for hidden in found)
    assert all(len(hidden.racks[other]) == seat.tiles[other] for hidden in found for other in seat.others())
