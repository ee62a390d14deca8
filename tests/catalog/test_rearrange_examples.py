"""The Rearrange rules page's examples (apps/catalog/examples/rearrange.py) against the engine.

While the Rearrange engine has no `RULES` yet, `meld_check` is asked of a stand-in that reads sets with
the engine's own `rearrange.melds` (what the game's `meld_check` does); once `RULES` exists, the real
one answers and tests/catalog/test_rules_pages.py checks the page too.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.catalog import examples as registry
from apps.catalog.examples import common, rearrange
from apps.engine.game import MeldCheck, is_available
from apps.engine.rearrange.melds import meld_problem, try_read_meld

pytestmark = pytest.mark.django_db


class StandInRules:
    def meld_check(self, tiles):
        meld = try_read_meld(tiles)
        if meld is None:
            return MeldCheck(False, None, 0, meld_problem(tiles))
        return MeldCheck(True, meld.kind.value, meld.points)


@pytest.fixture
def rearrange_rules(monkeypatch):
    if not is_available(rearrange.SLUG):
        monkeypatch.setattr(common, "get_rules", lambda slug: StandInRules())
        monkeypatch.setattr(rearrange, "get_rules", lambda slug: StandInRules())
        monkeypatch.setattr(registry, "is_available", lambda slug: True)


def test_every_rearrange_example_agrees_with_the_engine(rearrange_rules):
    examples = rearrange.rearrange_examples()
    assert [example for example in examples.all_examples() if not example.agrees] == []
    assert {ex.legal for ex in examples.plays} == {True, False}
    assert {ex.opens for ex in examples.openings} == {True, False}


def test_both_ends_of_a_game_are_scored_by_the_engine_and_sum_to_zero(rearrange_rules):
    examples = rearrange.rearrange_examples()
    for end in (examples.rummy, examples.pool_out, examples.pool_shared):
        assert sum(end.example.totals) == 0
        assert [sum(row.points[seat] for row in end.example.rows) for seat in range(len(end.racks))] == end.example.totals


def test_the_tiles_a_play_took_from_the_rack_are_marked(rearrange_rules):
    split = next(ex for ex in rearrange.rearrange_examples().plays if len(ex.before[0]) == 5)
    marks = [[tile.from_rack for tile in meld] for meld in split.after]
    assert marks == [[False, False, True], [False, False, False]]  # k4 k5 k6* | k6 k7 k8: one k6 is new


def test_the_rearrange_rules_page_shows_the_examples(client, rearrange_rules):
    html = client.get(reverse("catalog:rules", args=["tile-rummy-rearrange"])).content.decode()
    assert "End turn accepted" in html and "End turn refused" in html and "36 points" in html
    assert "from the rack" in html and "Rummy" in html and "<strong>+59</strong>" in html


def test_the_shared_win_example_gives_the_point_left_over_to_the_earlier_seat(rearrange_rules):
    # SPEC 4, decisions: Ana (seat 1) and Cleo (seat 3) tie; Ben's 3 points split 2 and 1, Ana first.
    shared = rearrange.rearrange_examples().pool_shared.example
    rows = {row.label: row.points for row in shared.rows}
    assert rows == {"Rack minus the winner's rack": [0, -3, 0], "Shared win: split equally, points left over one each to the earlier seats": [2, 0, 1]}
    assert shared.totals == [2, -3, 1]


def test_the_rearrange_rules_page_says_how_a_shared_win_is_split(client, rearrange_rules):
    html = " ".join(client.get(reverse("catalog:rules", args=["tile-rummy-rearrange"])).content.decode().split())
    assert "Winners who share the game split the plus equally, in whole points." in html
    assert "Points that do not divide evenly go one each to the winners in the lowest-numbered seats: Seat 1 before Seat 2" in html
    assert "the point left over goes to Ana, who sits in the earlier seat." in html
    assert "The score of a shared win, with a point left over" in html


def test_the_rearrange_rules_page_says_a_group_may_be_reordered_on_the_opening_turn(client, rearrange_rules):
    html = client.get(reverse("catalog:rules", args=["tile-rummy-rearrange"])).content.decode()
    assert "keep exactly the tiles they have (the tiles of a group may be put in another order)" in html
