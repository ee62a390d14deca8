"""The envelope a change of a table publishes (apps/tables/snapshot.py) and the log's entries
(apps/tables/history.py): their docstrings run as doctests, and an envelope refuses what it cannot carry."""

from __future__ import annotations

import doctest
import json
import random

import pytest

from apps.engine.bots import get_bot
from apps.engine.game import get_rules
from apps.tables import history, snapshot


@pytest.mark.parametrize("module", [snapshot, history], ids=lambda module: module.__name__)
def test_docstrings(module):
    result = doctest.testmod(module)
    assert result.attempted > 0
    assert result.failed == 0


def test_an_envelope_keeps_its_frames_byte_for_byte():
    frames = {
        "spectator": snapshot.dumps({"type": "state", "name": "Ștefan \u2028 \"quoted\" \\ back\nslash"}),
        "0": snapshot.dumps({"type": "state", "rack": ["r1", "j"]}),
    }
    published = snapshot.unpack(snapshot.pack(3, {"41": 0}, frames))
    assert published == {"v": 3, "seats": {"41": 0}, "frames": frames}
    assert json.loads(snapshot.frame_in(published, 41)) == {"type": "state", "rack": ["r1", "j"]}
    assert json.loads(snapshot.frame_in(published, 99))["name"] == "Ștefan \u2028 \"quoted\" \\ back\nslash"


def test_a_frame_with_a_raw_newline_is_refused():
    with pytest.raises(ValueError):
        snapshot.pack(1, {}, {"spectator": '{"a":1}\n{"b":2}'})


@pytest.mark.parametrize("slug", ["tile-rummy", "tile-rummy-rearrange"])
def test_the_views_encoded_once_decode_to_every_viewers_own_view(slug):
    """What the seats share with the spectators is encoded once (`encoded_views`): after every move of
    whole games each frame's view still decodes to exactly that viewer's `view_for`."""
    rules = get_rules(slug)
    brain = get_bot(slug, "easy")
    rng = random.Random(7)
    checked = 0
    for _ in range(2):
        state = rules.new_game(4, rng)
        for _ in range(400):
            views = {snapshot.SPECTATOR if seat is None else str(seat): view
                     for seat, view in rules.views_for(state, range(4)).items()}
            for key, text in snapshot.encoded_views(views).items():
                seat = None if key == snapshot.SPECTATOR else int(key)
                assert json.loads(text) == rules.view_for(state, seat)
                checked += 1
            if rules.is_over(state):
                break
            seat = state.turn
            state = rules.apply(state, seat, brain.next_move(rules.view_for(state, seat), rng))
    assert checked > 100


def test_links_docstrings_and_a_changed_script_prefix():
    from django.urls import reverse, set_script_prefix

    from apps.tables import links

    result = doctest.testmod(links)
    assert result.attempted > 0
    assert result.failed == 0
    set_script_prefix("/rummy/")
    try:
        assert links.url("tables:table", 3) == reverse("tables:table", args=[3])
        assert links.url("tables:table", 3).startswith("/rummy/")
    finally:
        set_script_prefix("/")
    assert not links.url("tables:table", 3).startswith("/rummy/")
