"""The "What happened" log's entries are the game's own (`Rules.events`, apps/engine/log_events.py and each
game's `events.py`): found from the spectators' views before and after a change. Positions are written
by hand as the views' parts the log reads; the site keeps and sends the entries (tests/tables/test_history.py)."""

from __future__ import annotations

import doctest
import random

import pytest

from apps.engine import log_events
from apps.engine.bots import get_bot
from apps.engine.game import get_rules
from apps.engine.house import events as house_events
from apps.engine.rearrange import events as rearrange_events

HOUSE = get_rules("tile-rummy")
REARRANGE = get_rules("tile-rummy-rearrange")


@pytest.mark.parametrize("module", [log_events, house_events, rearrange_events])
def test_the_docstrings_run_as_doctests(module):
    result = doctest.testmod(module)
    assert result.attempted and not result.failed


def test_a_rearrange_play_names_the_tiles_placed_and_a_lay_off_is_not_a_rebuilt_set():
    before = {"turn": 0, "table": [{"tiles": ["r3", "r4", "r5"]}, {"tiles": ["b7", "y7", "k7"]}],
              "players": [{"tiles": 10, "passed": False}, {"tiles": 9, "passed": False}], "over": False}
    after = {**before, "turn": 1, "table": [{"tiles": ["r3", "r4", "r5", "r6"]}, {"tiles": ["b7", "y7", "k7"]},
                                             {"tiles": ["y9", "y10", "y11"]}],
             "players": [{"tiles": 6, "passed": False}, {"tiles": 9, "passed": False}]}
    assert REARRANGE.events(before, after) == [
        {"code": "placed", "seat": 0, "tiles": ["r6", "y9", "y10", "y11"], "count": 4, "rebuilt": 0}
    ]


def test_a_rearrange_play_that_takes_a_set_apart_counts_it_rebuilt():
    """r3 r4 r5 r6 gives its r6 to a new group r6 y6 b6: the run was rebuilt, the 7s were not."""
    before = {"turn": 0, "table": [{"tiles": ["r3", "r4", "r5", "r6"]}, {"tiles": ["b7", "y7", "k7"]}],
              "players": [{"tiles": 10, "passed": False}, {"tiles": 9, "passed": False}], "over": False}
    after = {**before, "turn": 1, "table": [{"tiles": ["r3", "r4", "r5"]}, {"tiles": ["b7", "y7", "k7"]},
                                             {"tiles": ["r6", "y6", "b6"]}],
             "players": [{"tiles": 8, "passed": False}, {"tiles": 9, "passed": False}]}
    assert REARRANGE.events(before, after) == [
        {"code": "placed", "seat": 0, "tiles": ["y6", "b6"], "count": 2, "rebuilt": 1}
    ]


def test_the_tiles_of_a_play_are_named_by_colour_then_number_with_a_joker_last():
    before = {"turn": 1, "table": [], "players": [{"tiles": 9}, {"tiles": 14}], "over": False}
    after = {**before, "turn": 0, "table": [{"tiles": ["k1", "k2", "J"]}, {"tiles": ["r13", "y13", "b13"]}],
             "players": [{"tiles": 9}, {"tiles": 8}]}
    assert REARRANGE.events(before, after)[0]["tiles"] == ["r13", "y13", "b13", "k1", "k2", "J"]


def test_a_rearrange_draw_and_a_pass_are_told_apart():
    before = {"turn": 0, "table": [], "players": [{"tiles": 14, "passed": False}], "over": False}
    assert REARRANGE.events(before, {**before, "players": [{"tiles": 17, "passed": False}]}) == [
        {"code": "drew", "seat": 0, "count": 3}
    ]
    assert REARRANGE.events(before, {**before, "players": [{"tiles": 14, "passed": True}]}) == [
        {"code": "passed", "seat": 0}
    ]


def house_view(**parts):
    view = {"turn": 0, "over": False, "discards": ["b2"], "melds": [],
            "players": [{"opened": False, "away": False, "left": False}, {"opened": False, "away": False, "left": False}]}
    return {**view, **parts}


def test_a_house_opening_says_its_points_and_a_later_meld_is_laid():
    before = house_view()
    opened = house_view(players=[{"opened": True}, {"opened": False}], melds=[
        {"owner": 0, "tiles": ["r10", "r11", "r12"], "points": 30}, {"owner": 0, "tiles": ["b5", "y5", "k5"], "points": 15}])
    assert HOUSE.events(before, opened) == [
        {"code": "opened", "seat": 0, "points": 45, "melds": [["r10", "r11", "r12"], ["b5", "y5", "k5"]]}
    ]
    laid = {**opened, "melds": [*opened["melds"], {"owner": 0, "tiles": ["k7", "k8", "k9"], "points": 15}]}
    assert HOUSE.events(opened, laid) == [{"code": "laid", "seat": 0, "melds": [["k7", "k8", "k9"]]}]


def test_a_house_take_of_the_last_discard_then_a_lay_off_and_a_joker_taken():
    table = [{"owner": 1, "tiles": ["r4", "J", "r6"], "points": 15}]
    before = house_view(melds=table)
    took = house_view(discards=[], melds=[*table, {"owner": 0, "tiles": ["b2", "b3", "b4"], "points": 15}])
    assert HOUSE.events(before, took) == [{"code": "took_discard", "seat": 0, "tile": "b2", "melds": [["b2", "b3", "b4"]]}]
    laid_off = {**took, "melds": [{**table[0], "tiles": ["r4", "J", "r6", "r7"]}, took["melds"][1]]}
    assert HOUSE.events(took, laid_off) == [{"code": "laid_off", "seat": 0, "tiles": ["r7"]}]
    joker = {**took, "melds": [{**table[0], "tiles": ["r4", "r5", "r6"]}, took["melds"][1]]}
    assert HOUSE.events(took, joker) == [{"code": "joker", "seat": 0}]


def test_a_discard_comes_before_the_seats_that_changed_and_the_end_of_the_game():
    before = house_view()
    after = house_view(turn=None, over=True, discards=["b2", "k9"],
                       players=[{"opened": False, "away": True, "left": False}, {"opened": False, "away": False, "left": True}])
    assert HOUSE.events(before, after) == [
        {"code": "discarded", "seat": 0, "tile": "k9"},
        {"code": "autopilot", "seat": 0},
        {"code": "left", "seat": 1},
        {"code": "game_over"},
    ]


@pytest.mark.parametrize("slug", ["tile-rummy", "tile-rummy-rearrange"])
def test_a_played_game_logs_only_known_codes_and_names_no_tile_a_spectator_could_not_see(slug):
    """A whole game between two Easy bots: every change's entries come from the public views."""
    rules = get_rules(slug)
    rng = random.Random(7)
    state = rules.new_game(2, rng)
    bots = [get_bot(slug, "easy"), get_bot(slug, "easy")]
    codes = set()
    for _ in range(400):
        if rules.is_over(state):
            break
        seat = rules.to_move(state)
        before = rules.view_for(state, None)
        state = rules.apply(state, seat, bots[seat].next_move(rules.view_for(state, seat), rng))
        after = rules.view_for(state, None)
        for entry in rules.events(before, after):
            codes.add(entry["code"])
            faces = [entry.get("tile"), *entry.get("tiles", []), *(face for meld in entry.get("melds", []) for face in meld)]
            shown = repr(after) + repr(before)
            assert all(face is None or f"'{face}'" in shown for face in faces), entry
    assert rules.is_over(state) and "game_over" in codes
    assert codes <= {"discarded", "took_discard", "opened", "laid", "joker", "laid_off", "placed", "drew", "passed",
                     "left", "autopilot", "back", "game_over"}
