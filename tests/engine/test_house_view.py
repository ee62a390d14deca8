"""`view_for`: what a seat, or a spectator (None), sees of a house game (SPEC 5, CONVENTIONS 5)."""

from __future__ import annotations

import json

from apps.engine.house import RULES
from apps.engine.house.moves import parse_move
from apps.engine.house.play import apply
from apps.engine.house.positions import position


def sample():  # type: ignore[no-untyped-def]
    # seat 1 laid a run with a joker; seat 0 holds the indicator's twin (k7) and is to play
    state = position(
        ["k7 r2 r3 b8", "y4 y5 y6 y9", "b1 b2 b3"],
        melds=[(1, "k10 k11 J")],
        indicator="k7",
        discards="r9",
        discard_open=True,
        opened=[1],
        joker_by=(1, None),
        phase="draw",
        pile="b13",
    )
    return apply(state, 0, parse_move("draw"))


def test_a_spectator_sees_the_table_and_counts_but_no_rack_and_no_pile() -> None:
    view = RULES.view_for(sample(), None)
    json.dumps(view)
    assert view["you"] is None and "rack" not in view and "drawn" not in view
    assert view["indicator"] == "k7" and view["twin_seat"] == 0 and view["double"] is False
    assert view["pile"] == 106 - 1 - 11 - 3 - 1 - 1  # indicator, racks, meld, discard, drawn: a count, never the order
    assert view["discards"] == ["r9"] and view["discard_open"] is False  # seat 0 drew: r9 is out of reach
    assert view["turn"] == 0 and view["phase"] == "play" and view["actions"] == []
    assert view["melds"] == [
        {
            "index": 0,
            "tiles": ["k10", "k11", "J"],
            "kind": "run",
            "owner": 1,
            "placed_by": [1, 1, 1],
            "points": 30,
            "jokers": [{"at": 2, "stands_for": ["k12"]}],
        }
    ]
    assert [(p["seat"], p["tiles"], p["opened"], p["table_points"], p["joker_bonus"]) for p in view["players"]] == [
        (0, 5, False, 0, 0),
        (1, 4, True, 20, 50),
        (2, 3, False, 0, 0),
    ]
    assert view["over"] is False and view["result"] is None


def test_a_seat_sees_its_own_rack_and_the_tile_it_drew_only() -> None:
    state = sample()
    mine = RULES.view_for(state, 0)
    assert mine["rack"] == ["r2", "r3", "b8", "b13", "k7"] and mine["drawn"] == "b13"
    assert mine["actions"] == ["auto", "discard", "lay", "leave", "timeout"]
    other = RULES.view_for(state, 1)
    assert other["rack"] == ["y4", "y5", "y6", "y9"] and other["drawn"] is None
    assert other["actions"] == ["leave"]


def test_the_view_shows_the_result_once_the_game_is_over_without_naming_rack_tiles() -> None:
    state = apply(position(["k2", "y4 y5"], opened=[0]), 0, parse_move("discard k2"))
    view = RULES.view_for(state, None)
    assert view["over"] is True and view["turn"] is None
    assert view["result"]["winner"] == 0 and view["result"]["scores"] == [100, -100]
    unopened = view["result"]["seats"][1]["lines"][2]
    assert unopened == {"key": "unopened", "label": "Never opened (instead of the rack)", "points": -100, "detail": "2 tiles", "factor": 1, "params": {"tiles": 2}}
