"""The house game in the browser: a new visitor presses Play now and plays a whole game against the
strongest bot through the page, to the score table."""

from __future__ import annotations

import time

from tests.browser.conftest import DESKTOP, PHONE, play_now, screenshot
from tests.browser.house_player import HousePlayer


def test_a_new_visitor_presses_play_now_and_plays_a_whole_game_to_the_score_table(new_page):
    page = new_page()
    play_now(page, "tile-rummy", "Hard")
    page.locator("#rack .tile").first.wait_for()
    assert page.locator("#seats").get_by_text("Bot (Hard)").count() == 1
    screenshot(page, "house-table-desktop")
    page.set_viewport_size(PHONE)
    screenshot(page, "house-table-phone")
    page.set_viewport_size(DESKTOP)

    started = time.monotonic()
    turns = HousePlayer(page).play_game()

    results = page.locator("#results")
    results.wait_for()
    table = results.locator(".score-table").first
    for line in ("Tiles put on the table", "Tiles left on the rack", "Went out", "Dealt the indicator's twin", "Double game"):
        assert table.get_by_text(line, exact=False).count() >= 1, line
    assert results.get_by_role("heading").first.inner_text()
    screenshot(page, "house-score-table")
    print(f"\na whole game through the page: {turns} turns in {time.monotonic() - started:.1f} s")

    # The match is over: the places, and a new match at the same table (the bot stays).
    assert results.locator(".places__row").count() == 2
    results.get_by_role("button", name="New match at this table").click()
    results.wait_for(state="hidden")
    page.locator("#rack .tile").nth(13).wait_for()
