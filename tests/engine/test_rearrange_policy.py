"""`bench/rearrange_policy.py` (issue 18): a model of each candidate's advantage over the Rearrange Hard bot's
planned play, the data it is fitted on, and the bot that plays its choice (for DAgger data)."""

from __future__ import annotations

import doctest
import json
import random
from dataclasses import replace

import bench.rearrange_policy as script
from apps.engine.bots.simulate import simulate
from apps.engine.rearrange import RULES
from apps.engine.rearrange.bots.hard import HardRearrangeBot
from apps.engine.rearrange.bots.view import RearrangeSeatView
from apps.engine.rearrange.melds import rack_value
from apps.engine.rearrange.solver import solve
from bench.rearrange_policy import Facts, LearnedHardBot, Model, Situation, context, features, options
from tests.engine.test_bots_rearrange_hard import midgame, poisoned

HERE = Situation(rack=9, other=12, pool=40, table=30, most=3)
PLANNED = Facts(placed=3, draws=False, reserve=0, jokers=0, left_value=40)
DRAW = Facts(placed=0, draws=True, reserve=3, jokers=0, left_value=60)
HOLD = Facts(placed=2, draws=False, reserve=1, jokers=0, left_value=45)


def test_the_docstrings_run_as_doctests():
    result = doctest.testmod(script)
    assert result.attempted and not result.failed


def test_the_planned_play_is_kept_unless_another_is_predicted_better_by_the_margin():
    size = len(features(HERE, DRAW, PLANNED))
    # Weights that reward drawing only: the draw's predicted gain is the weight on "draws" alone.
    draws_weight = [0.0] * size
    draws_weight[len(context(HERE))] = 0.04  # the difference "draws" (second) times the constant term (first)
    model = Model(tuple(draws_weight), margin=0.05)
    assert model.advantage(HERE, DRAW, PLANNED) == 0.04
    assert model.advantage(HERE, PLANNED, PLANNED) == 0.0
    assert model.choose(HERE, [PLANNED, HOLD, DRAW]) == 0  # 0.04 does not pass the margin
    assert replace(model, margin=0.03).choose(HERE, [PLANNED, HOLD, DRAW]) == 2
    # Ties go to the earlier candidate.
    assert replace(model, margin=0.03).choose(HERE, [PLANNED, DRAW, DRAW]) == 1


def test_the_fit_finds_the_advantages_it_was_given():
    # Results made from known weights: the fit returns them (a small ridge barely shrinks them).
    rng = random.Random(5)
    truth = [rng.uniform(-0.05, 0.05) for _ in range(len(features(HERE, DRAW, PLANNED)))]
    rows = []
    for deal in range(400):
        situation = Situation(*(rng.randint(low, high) for low, high in ((3, 20), (1, 20), (1, 80), (6, 90), (1, 6))), rng.random() < 0.7)
        facts = [
            Facts(rng.randint(1, 6), False, rng.randint(0, 4), rng.randint(0, 2), rng.randint(10, 90)),
            Facts(rng.randint(0, 6), rng.random() < 0.3, rng.randint(0, 4), rng.randint(0, 2), rng.randint(10, 90)),
            Facts(rng.randint(0, 6), False, rng.randint(0, 4), rng.randint(0, 2), rng.randint(10, 90)),
        ]
        model = Model(tuple(truth), 0.0)
        results = [0.5, *(0.5 + model.advantage(situation, fact, facts[0]) for fact in facts[1:])]
        rows.append(script.Row(situation, facts, results, deal))
    fitted = script.fit(rows, ridge=1e-6)
    assert max(abs(a - b) for a, b in zip(fitted, truth, strict=True)) < 1e-4


def test_the_options_are_the_hard_bots_candidates_and_a_draw_seen_from_the_view():
    state = midgame()
    seat = RearrangeSeatView.of(RULES.view_for(state, 0))
    bot = HardRearrangeBot()
    full = solve(seat.table, seat.rack)
    assert full is not None
    situation, candidates, facts = options(bot, seat, full)
    assert candidates[:-1] == bot._candidates(seat, bot.planned_move(seat, full), full)
    assert candidates[0].name == "planned" and candidates[-1].table is None  # the planned play first, a draw last
    assert situation == Situation(rack=8, other=4, pool=30, table=12, most=len(full.placed), others_open=True)
    left = sum(rack_value(tile) for tile in seat.rack)
    assert facts[-1] == Facts(placed=0, draws=True, reserve=facts[-1].reserve, jokers=1, left_value=left)
    kept = solve(seat.table, seat.rack, free_jokers=False)  # a draw leaves rack and table: what they place now
    assert facts[-1].reserve == (0 if kept is None else len(kept.placed)) > 0
    for candidate, fact in zip(candidates, facts, strict=True):
        assert fact.placed == len(candidate.placed)
        assert fact.left_value == left - sum(rack_value(tile) for tile in candidate.placed)
        assert 0 <= fact.reserve <= len(seat.rack) - fact.placed
    # The view with the hidden tiles dealt otherwise gives the same options.
    other = poisoned(state, 1)
    assert options(bot, RearrangeSeatView.of(RULES.view_for(other, 0)), full) == (situation, candidates, facts)


def test_the_learned_bot_plays_the_models_choice():
    state = midgame()
    view = RULES.view_for(state, 0)
    seat = RearrangeSeatView.of(view)
    full = solve(seat.table, seat.rack)
    assert full is not None
    size = len(features(HERE, DRAW, PLANNED))
    always_draw = [0.0] * size
    always_draw[len(context(HERE))] = 1.0  # a draw is worth a whole win more
    assert str(LearnedHardBot(Model(tuple(always_draw), 0.0)).next_move(view, random.Random(3))) == "draw"
    planned = HardRearrangeBot().planned_move(seat, full)
    assert str(LearnedHardBot(Model((0.0,) * size, 0.0)).next_move(view, random.Random(3))) == str(planned)


def test_the_collected_games_are_the_games_the_bot_plays():
    # Labelling a decision (play-outs on copies) changes nothing in the game itself: the collected games'
    # results are the simulator's for the same deal and seats.
    lines = script.collect_deals((1, (0,), ""))
    decisions = [json.loads(line) for line in lines]
    assert decisions
    by_rotation = {decision["rotation"]: decision["won"] for decision in decisions}
    wins = simulate(script.SLUG, ["hard", "greedy"], 2, 1)["seats"][0]["wins"]
    assert sorted(by_rotation) == [0, 1]
    assert sum(by_rotation.values()) == wins
    for decision in decisions:
        names = [candidate[5] for candidate in decision["candidates"]]
        assert names[0] == "planned"
        assert all(candidate[6] in (0.0, 0.5, 1.0) for candidate in decision["candidates"])  # played to the end
