"""What changed on the Rearrange table, in the browser: after the Hard bot's turn, the tiles it placed
(b3 y3) and moved (r3, taken off the run into a new group) are marked for the player, and not the
player's own tiles of the turn before; the marks survive a reload and go as soon as the player's turn
is sent; a spectator sees the last turn's changes. The position is the test-only hook's
`rearrange_bot_position` (tests/browser/seeding.py)."""

from __future__ import annotations

from tests.browser.conftest import LAPTOP, PHONE, screenshot
from tests.browser.test_house_keyboard import click_rack, watched_table

MY_TURN = "() => document.getElementById('table-app').classList.contains('is-my-turn')"


def marked(page) -> list[str]:  # type: ignore[no-untyped-def]
    return sorted(page.locator("#melds .tile.is-changed").evaluate_all("tiles => tiles.map(t => t.dataset.face)"))


def test_the_bots_placed_and_moved_tiles_are_marked_after_its_turn_and_unmarked_after_yours(site, new_page):
    page, spectator, _ = watched_table(site, new_page, "rearrange-bot", LAPTOP, PHONE)
    assert marked(page) == [] and page.locator(".changes-legend").count() == 0

    # Our turn: red 7 on the run and a new group of 2s.
    page.locator('#rack .tile[data-face="r7"]').drag_to(page.locator("#melds .meld").first)
    for face in ("b2", "y2", "k2"):
        click_rack(page, face)
    page.keyboard.press("l")
    page.locator("#actions").get_by_role("button", name="End turn").click()

    # The bot's turn: r3 moves off the run into r3 b3 y3. Marked: those three, not our r7 or our 2s.
    page.locator("#melds .tile.is-changed").first.wait_for(timeout=30_000)
    page.wait_for_function(MY_TURN, timeout=30_000)
    assert marked(page) == ["b3", "r3", "y3"]
    assert page.locator('#melds .tile.is-changed[data-face="r3"]').get_attribute("aria-label") == (
        "red 3, placed or moved since your last turn"
    )
    assert page.locator(".changes-legend").inner_text() == "placed or moved since your last turn"
    screenshot(page, "rearrange-marked-desktop")
    spectator.locator("#melds .tile.is-changed").first.wait_for()
    assert marked(spectator) == ["b3", "r3", "y3"]
    assert spectator.locator(".changes-legend").inner_text() == "placed or moved in the last turn"
    screenshot(spectator, "rearrange-marked-spectator-phone")

    # A reload keeps the marks (the table at our last turn is kept for this tab).
    page.reload()
    page.locator("#melds .tile.is-changed").first.wait_for()
    assert marked(page) == ["b3", "r3", "y3"]
    page.set_viewport_size(PHONE)
    # On the phone the title is whole (it may take two lines) and the header keeps the account links.
    title = page.locator(".table-top h1")
    assert title.inner_text().startswith("Tile Rummy: Rearrange")
    assert title.evaluate("h => h.scrollWidth <= h.clientWidth")
    assert page.locator(".site-nav__user").is_visible() and page.get_by_role("button", name="Sign out").is_visible()
    screenshot(page, "rearrange-marked-phone")
    page.set_viewport_size(LAPTOP)

    # Our turn is sent (a draw): the marks go at once, and the bot's next turn (a draw) marks nothing.
    page.locator("#actions").get_by_role("button", name="Draw a tile").click()
    assert marked(page) == [] and page.locator(".changes-legend").count() == 0
    page.wait_for_function("() => document.querySelector('#seats .seat__count').textContent === '2 tiles'", timeout=30_000)
    page.wait_for_function(MY_TURN, timeout=30_000)  # the bot drew: our turn again
    assert marked(page) == []
    spectator.wait_for_function("() => document.querySelectorAll('#seats .seat__count')[1].textContent === '2 tiles'")
    assert marked(spectator) == []
