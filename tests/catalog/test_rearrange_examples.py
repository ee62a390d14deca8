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
    for end in (examples.rummy, examples.pool_out):
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
