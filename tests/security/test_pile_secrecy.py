"""The draw pile's order, and the fair-deal server seed that orders it, never leave the server before
their time (bench/pile_secrecy.py runs the same over 10,000 games)."""

from __future__ import annotations

import base64
import json

import pytest

from apps.tables.fairness import public_view
from tests.security.pile import (
    HOUSE,
    REARRANGE,
    PileSecrets,
    SeedSecrets,
    Tally,
    check_frame,
    fair_seeds_for,
    play_and_check,
    rows_for,
)


@pytest.mark.parametrize("game_slug", [HOUSE, REARRANGE])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_no_frame_of_a_whole_game_carries_the_pile_order_or_a_face_its_viewer_may_not_see(game_slug, seats):
    tally = Tally()
    for seed in range(4):
        play_and_check(seed * 10 + seats, seats, tally, game_slug=game_slug)
    assert tally.games == 4 and tally.frames > 200 and tally.fair_views == tally.states
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


def test_the_checks_catch_a_leaked_server_seed():
    """The server seed in any spelling, or the first bytes of its stream, anywhere in a frame, fails."""
    from apps.engine.game import get_rules
    from apps.engine.match import start_match

    rules = get_rules(HOUSE)
    seeds = fair_seeds_for(3, 2)
    engine_match, state = start_match(HOUSE, 2, seeds, 1)
    seed_secrets = SeedSecrets(seeds)
    honest = {"type": "state", "view": rules.view_for(state, 0),
              "table": {"match": {"fair": public_view(rows_for(HOUSE, state, engine_match, 1, seeds)[2])}}}
    assert honest["table"]["match"]["fair"]["commitment"] == seeds.commitment
    assert check_frame(honest, state, 0, PileSecrets(state), seed=seed_secrets) == []
    server = seeds.server_seed
    leaks = [
        server.hex(),
        server.hex().upper(),
        base64.b64encode(server).decode(),
        f"debug: {base64.urlsafe_b64encode(server).decode()}",
        list(server),
        list(server[10:20]),
        seeds.stream(1).read(16).hex(),
    ]
    for leak in leaks:
        frame = json.loads(json.dumps({**honest, "table": {"match": {"fair": {**honest["table"]["match"]["fair"], "x": leak}}}}))
        assert check_frame(frame, state, 0, PileSecrets(state), seed=seed_secrets), leak


def test_the_fair_deal_part_shows_the_server_seed_once_the_match_is_over_and_not_before():
    """The checks above hold while the match goes on; after it, the seed is published on purpose."""
    from django.utils import timezone

    from apps.engine.match import start_match

    seeds = fair_seeds_for(4, 3)
    engine_match, state = start_match(REARRANGE, 3, seeds, 1)
    match = rows_for(REARRANGE, state, engine_match, 1, seeds)[2]
    assert SeedSecrets(seeds).problems(public_view(match)) == []
    match.finished_at = timezone.now()
    assert public_view(match)["server_seed"] == seeds.server_seed.hex()
    assert SeedSecrets(seeds).problems(public_view(match))


def test_the_checks_catch_a_log_that_names_a_tile_of_a_rack():
    """The log (apps/tables/history.py) is checked too: an entry naming a tile of a rack, even the
    viewer's own, fails (the log goes to every viewer alike)."""
    import random

    from apps.engine.game import get_rules
    from apps.engine.tiles import tile_of

    rules = get_rules("tile-rummy")
    state = rules.new_game(2, random.Random(1))
    secrets = PileSecrets(state)
    own = str(tile_of(state.racks[0][0]))
    honest = {"type": "state", "view": rules.view_for(state, 0),
              "table": {"current_game": {"log": [{"code": "new_game", "n": 1}]}}}
    assert check_frame(honest, state, 0, secrets) == []
    leak = {**honest, "table": {"current_game": {"log": [{"code": "discarded", "seat": 0, "tile": own}]}}}
    assert any("the log" in problem for problem in check_frame(leak, state, 0, secrets))
