"""`views_for` (every view one change of a table is sent with, the shared part built once) gives exactly
the views `view_for` gives, seat by seat and the spectators', all along whole games of both games."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from apps.engine.bots import get_bot
from apps.engine.game import get_rules


@settings(max_examples=12, deadline=None)
@given(slug=st.sampled_from(["tile-rummy", "tile-rummy-rearrange"]), seats=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_views_for_gives_every_seat_and_the_spectators_exactly_their_view_for(slug: str, seats: int, seed: int) -> None:
    rules = get_rules(slug)
    rng = random.Random(seed)
    state = rules.new_game(seats, rng)
    brain = get_bot(slug, "easy")
    for _ in range(120):
        views = rules.views_for(state, range(seats))
        assert views == {None: rules.view_for(state, None), **{seat: rules.view_for(state, seat) for seat in range(seats)}}
        assert all(list(views[seat]) == list(rules.view_for(state, seat)) for seat in views)  # the same order too
        seat = rules.to_move(state)
        if seat is None:
            break
        state = rules.apply(state, seat, brain.next_move(rules.view_for(state, seat), rng))
