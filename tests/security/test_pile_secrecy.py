"""The draw pile's order never leaves the server (bench/pile_secrecy.py runs the same over 10,000 games)."""

from __future__ import annotations

import pytest

from tests.security.pile import HOUSE, REARRANGE, PileSecrets, Tally, check_frame, play_and_check


@pytest.mark.parametrize("game_slug", [HOUSE, REARRANGE])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_no_frame_of_a_whole_game_carries_the_pile_order_or_a_face_its_viewer_may_not_see(game_slug, seats):
    tally = Tally()
    for seed in range(4):
        play_and_check(seed * 10 + seats, seats, tally, game_slug=game_slug)
    assert tally.games == 4 and tally.frames > 200
    assert tally.problems == []


def test_the_checks_catch_a_leaked_pile():
    """The detector is not blind: a frame that carried the pile (as faces, ids, or another rack) fails."""
    import random

    from apps.engine.game import get_rules
    from apps.engine.tiles import tile_of

    rules = get_rules("tile-rummy")
    state = rules.new_game(2, random.Random(1))
    pile = [str(tile_of(tile)) for tile in state.pile]
    secrets = PileSecrets(state)
    honest = {"type": "state", "view": rules.view_for(state, 0)}
    assert check_frame(honest, state, 0, secrets) == []
    leaks = [
        {**honest, "view": {**honest["view"], "next": pile}},
        {**honest, "view": {**honest["view"], "debug": f"pile {' '.join(pile)}"}},
        {**honest, "view": {**honest["view"], "pile_ids": list(state.pile)}},
        {**honest, "view": {**honest["view"], "other": [str(tile_of(tile)) for tile in state.racks[1]]}},
        {**honest, "view": {**honest["view"], "pile": pile}},
    ]
    for leak in leaks:
        assert check_frame(leak, state, 0, secrets), leak["view"].keys()


def test_the_checks_catch_a_leaked_pool_in_the_rearrange_game():
    import random

    from apps.engine.game import get_rules
    from apps.engine.tiles import tile_of

    rules = get_rules(REARRANGE)
    state = rules.new_game(3, random.Random(2))
    pool = [str(tile_of(tile)) for tile in state.pool]
    secrets = PileSecrets(state, REARRANGE)
    honest = {"type": "state", "view": rules.view_for(state, 1)}
    assert check_frame(honest, state, 1, secrets) == []
    leaks = [
        {**honest, "view": {**honest["view"], "pool": pool}},
        {**honest, "view": {**honest["view"], "hint": f"next {' '.join(pool[:6])}"}},
        {**honest, "view": {**honest["view"], "other": [str(tile_of(tile)) for tile in state.racks[2]]}},
        {**honest, "view": {**honest["view"], "pool_ids": list(state.pool)}},
    ]
    for leak in leaks:
        assert check_frame(leak, state, 1, secrets), leak["view"].keys()
