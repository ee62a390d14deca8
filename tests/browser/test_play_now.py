"""Play now in one press, for either game and either bot level: a new visitor (no account) lands at a
table that has started, against that bot, from the home page; the rules pages and the catalog offer
the same buttons."""

from __future__ import annotations

import pytest

from tests.browser.conftest import GAME_NAMES, LAPTOP, PHONE, play_now, screenshot


@pytest.mark.parametrize("game", ["tile-rummy", "tile-rummy-rearrange"])
@pytest.mark.parametrize("level", ["Easy", "Hard"])
def test_play_now_lands_a_new_visitor_at_a_started_table_against_the_chosen_bot(new_page, game, level):
    page = new_page()
    url = play_now(page, game, level)

    assert "/t/" in url
    page.locator("#rack .tile").first.wait_for()  # dealt: the match started by itself
    assert page.locator("#table-app").get_attribute("data-status") == "playing"
    assert page.locator("#table-app").get_attribute("data-role") == "player"
    assert page.locator("#seats .seat__name").all_inner_texts() == [f"Bot ({level})"]
    assert page.locator(".table-top h1").inner_text().startswith(GAME_NAMES[game])


def test_the_easy_bot_is_the_main_button_for_a_first_game_on_every_page_that_offers_play_now(new_page):
    page = new_page(LAPTOP)
    for path in ("/", "/games/", "/games/tile-rummy/rules/", "/games/tile-rummy-rearrange/rules/", "/play/"):
        page.goto(path)
        primary = page.locator(".play-now .button--primary")
        assert primary.count() >= 1, path
        assert set(primary.evaluate_all("buttons => buttons.map(b => b.value)")) == {"easy"}, path
        assert "Easy" in primary.first.inner_text(), path
        assert page.locator(".play-now").first.get_by_role("button", name="Hard", exact=False).count() == 1, path
    page.goto("/")
    screenshot(page, "home-play-now-desktop")
    phone = new_page(PHONE)
    phone.goto("/")
    assert phone.locator(".play-now").first.is_visible()
    assert phone.locator(".play-now").last.bounding_box()["y"] < PHONE["height"]  # both in the first screen
    screenshot(phone, "home-play-now-phone")


def test_from_a_rules_page_play_now_lands_at_a_table_not_on_the_lobby(new_page):
    page = new_page()
    page.goto("/games/tile-rummy-rearrange/rules/")
    page.get_by_role("button", name="Play Tile Rummy: Rearrange now against the Easy bot").first.click()
    page.wait_for_url("**/t/*/")
    page.locator("#rack .tile").first.wait_for()
    assert page.locator("#seats .seat__name").all_inner_texts() == ["Bot (Easy)"]
