"""The catalog and the rules pages (apps/catalog): every worked example shown agrees with the engine."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.catalog.data import CATALOG
from apps.catalog.examples import examples_for
from apps.catalog.examples.common import MeldClaim, meld_examples
from apps.catalog.examples.house import house_examples
from apps.catalog.templatetags.points import signed
from apps.engine.game import get_rules, is_available

pytestmark = pytest.mark.django_db

AVAILABLE = [entry.slug for entry in CATALOG if is_available(entry.slug)]


@pytest.mark.parametrize("slug", AVAILABLE)
def test_every_example_of_a_rules_page_agrees_with_the_engine(slug):
    examples = examples_for(slug)
    assert examples is not None, f"{slug} has an engine but its rules page has no examples"
    disagreeing = [example for example in examples.all_examples() if not example.agrees]
    assert disagreeing == [], "the page's words and the engine disagree: fix the words (or the engine)"


@pytest.mark.parametrize("slug", AVAILABLE)
def test_the_catalog_says_the_players_its_games_rules_seat(slug):
    """The catalog card's player count is the game's own seat range (`Rules.seat_counts`), written twice
    only because the card is loaded into the database; this keeps the two the same."""
    entry = next(entry for entry in CATALOG if entry.slug == slug)
    assert (entry.min_players, entry.max_players) == (min(get_rules(slug).seat_counts()), max(get_rules(slug).seat_counts()))


def test_an_example_whose_words_contradict_the_engine_is_caught():
    [wrong] = meld_examples("tile-rummy", [("y13 y1 y2", MeldClaim(True, "run", 15), "")])
    assert not wrong.agrees


def test_the_house_examples_cover_melds_openings_jokers_and_a_whole_scored_game():
    examples = house_examples()
    assert {ex.check.valid for ex in examples.melds} == {True, False}
    assert {ex.opens for ex in examples.openings} == {True, False}
    assert examples.jokers and examples.scoring.rows
    # Every line of the engine's score shows in the table: the rows add up to each player's total.
    sums = [sum(row.points[seat] for row in examples.scoring.rows) for seat in range(3)]
    assert sums == examples.scoring.totals == [215, 35, -100]


def test_the_house_rules_page_shows_what_the_engine_computed(client):
    response = client.get(reverse("catalog:rules", args=["tile-rummy"]))
    assert response.status_code == 200
    html = response.content.decode()
    examples = response.context["examples"]
    for example in examples.melds:
        if example.check.valid:
            assert f"{example.check.points} points" in html
    for total in examples.scoring.totals:
        assert f"<strong>{signed(total)}</strong>" in html
    for word in ("Updated", "not played here", "played here", "Questions", "Playing better", 'aria-label="red 5, red 6, red 7"'):
        assert word in html


def test_the_house_rules_page_says_tiles_count_by_face_on_a_timeout_and_who_may_take_a_discard(client):
    html = client.get(reverse("catalog:rules", args=["tile-rummy"])).content.decode()
    assert "if you already held a tile just like the one drawn and laid one of the two, the one left counts as the drawn tile" in html
    assert "a discard the next player did not take because they left the table or ran out of time" in html


@pytest.mark.parametrize("entry", CATALOG, ids=lambda entry: entry.slug)
def test_each_game_has_a_rules_page_readable_without_an_account(client, entry):
    response = client.get(reverse("catalog:rules", args=[entry.slug]))
    assert response.status_code == 200
    assert str(entry.name) in response.content.decode()


def test_an_unknown_game_has_no_rules_page(client):
    assert client.get(reverse("catalog:rules", args=["chess"])).status_code == 404


def test_the_catalog_lists_both_games_with_their_facts_and_links(client):
    html = client.get(reverse("catalog:index")).content.decode()
    for entry in CATALOG:
        assert str(entry.name) in html and str(entry.difficulty) in html
        assert reverse("catalog:rules", args=[entry.slug]) in html
        assert reverse("leaderboards:game", args=[entry.slug]) in html


def test_points_are_shown_with_their_sign():
    assert [signed(65), signed(-35), signed(0), signed(None)] == ["+65", "−35", "0", ""]


def test_the_home_pages_game_cards_link_to_each_games_page(client):
    html = client.get("/").content.decode()
    for slug in ("tile-rummy", "tile-rummy-rearrange"):
        assert f'class="card__link" href="{reverse("catalog:rules", args=[slug])}"' in html
