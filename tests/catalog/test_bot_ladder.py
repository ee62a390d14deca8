"""The bot ladder on the rules pages (issue 18): the figure comes from the data file `bench/ladder.py`
writes, never from the template."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.catalog import ladder
from apps.catalog.ladder import fit

pytestmark = pytest.mark.django_db


def data(hard: int) -> dict[str, object]:
    return {
        "seed": 1,
        "games": {"tile-rummy-rearrange": {"elo": {"easy": 0, "greedy": hard - 40, "hard": hard}, "games_per_pair": 200, "pairs": []}},
    }


@pytest.mark.parametrize("hard", [612, 388])
def test_the_rules_page_shows_how_far_hard_plays_above_easy(client, monkeypatch, hard):
    monkeypatch.setattr(ladder, "_load", lambda: data(hard))
    page = client.get(reverse("catalog:rules", args=["tile-rummy-rearrange"])).content.decode()
    assert f"The Hard bot plays about {round(hard, -1)} rating points above the Easy bot." in page
    assert "200 games for each pair of bots" in page
    other = client.get(reverse("catalog:rules", args=["tile-rummy"])).content.decode()
    assert "The Hard bot plays about" not in other  # no ladder measured for that game here


def test_the_shipped_ladder_is_the_scripts_data():
    shipped = ladder._load()
    assert shipped.get("note") == "Written by bench/ladder.py; never edit by hand."
    for slug, game in shipped["games"].items():
        assert ladder.ladder_for(slug).elo == game["elo"]
        results = [(pair["a"], pair["b"], pair["a_wins"], pair["games"]) for pair in game["pairs"]]
        assert fit(tuple(game["elo"]), results) == game["elo"]  # the ratings are the fit of the results


def test_the_fit_puts_every_level_on_one_scale():
    # 76% is 200 points; a level that beats both as the first beats the second is consistent with them.
    elo = fit(("easy", "hard"), [("easy", "hard", 24.0, 100)])
    assert elo == {"easy": 0, "hard": 200}
    three = fit(("easy", "greedy", "hard"), [("easy", "greedy", 24.0, 100), ("greedy", "hard", 24.0, 100), ("easy", "hard", 10.0, 100)])
    assert three["easy"] == 0 and 150 < three["greedy"] < 250 and 350 < three["hard"] < 450
