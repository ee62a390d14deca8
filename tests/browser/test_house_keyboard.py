"""The house game by keyboard alone, and what a spectator sees: a seeded deal (tests/browser/seeding.py,
a test-only hook) gives the player an opening on the first turn."""

from __future__ import annotations

import subprocess
import sys

from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, LAPTOP, PHONE, ROOT, play_now, screenshot
from tests.browser.keys import FOCUS_IN_RACK, focus_rack, press_button, select_tiles


def seeded_table(site, page, what: str = "house-opening", button: str | None = None) -> str:  # type: ignore[no-untyped-def]
    """Play now (to be a guest player), then a table with a seeded deal (or position) for that player.
    `button`: the Play now button's name when the page is not in English."""
    first = play_now(page, button=button).rstrip("/").rsplit("/", 1)[-1]
    done = subprocess.run(
        [sys.executable, "-m", "tests.browser.seeding", what, "--host-of-table", first],
        env=site.env, cwd=ROOT, capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stderr
    return f"/t/{done.stdout.strip().splitlines()[-1]}/"


def watched_table(site, new_page, what: str, player_size: dict[str, int], watcher_size: dict[str, int]):  # type: ignore[no-untyped-def]
    """A seeded table (`what`) open for its player and for a spectator in another browser, both drawn:
    (player's page, spectator's page, the table's URL)."""
    page = new_page(player_size)
    url = seeded_table(site, page, what)
    page.goto(url)
    page.locator("#rack .tile").first.wait_for()
    watcher = new_page(watcher_size)
    watcher.goto(url)
    watcher.locator("#seats .seat").nth(1).wait_for()
    return page, watcher, url


def rack_faces(page) -> list[str]:  # type: ignore[no-untyped-def]
    return page.locator("#rack .tile").evaluate_all("tiles => tiles.map(t => t.dataset.face)")


def click_rack(page, face: str) -> None:  # type: ignore[no-untyped-def]
    """Select a tile of this face on the rack (one not selected yet)."""
    page.locator(f'#rack .tile[data-face="{face}"][aria-pressed="false"]').first.click()


def test_with_the_keyboard_alone_a_player_selects_lays_an_opening_and_discards(site, new_page):
    page = new_page()
    url = seeded_table(site, page)
    page.goto(url)
    page.locator("#rack .tile").first.wait_for()
    assert sorted(rack_faces(page)) == sorted(
        ["r1", "r8", "r12", "r13", "y8", "b1", "b6", "b6", "b8", "b9", "b11", "b13", "k1", "k6", "k13"]
    )

    focus_rack(page)
    select_tiles(page, ["r1", "r12", "r13"])
    assert page.locator('#rack .tile[aria-pressed="true"]').count() == 3
    press_button(page, "Add to opening")
    page.wait_for_function(FOCUS_IN_RACK)
    select_tiles(page, ["r8", "y8", "b8"])
    press_button(page, "Add to opening")
    tray = page.locator("#tray")
    # The tray arranged the run the way it goes on the table (a 1 after 13) and counts the opening.
    assert tray.locator(".tray__meld").first.locator(".tile").evaluate_all("ts => ts.map(t => t.dataset.face)") == ["r12", "r13", "r1"]
    assert "45 points" in tray.locator(".meter__total").inner_text()
    screenshot(page, "house-opening-tray")

    # At 768 px high the tray with its two melds leaves the felt whole: the last discard is not cut,
    # and the page does not scroll.
    page.set_viewport_size(LAPTOP)
    felt = page.locator("#felt").bounding_box()
    discard = page.locator("#felt-center .spot--discard").bounding_box()
    assert felt["y"] <= discard["y"] and discard["y"] + discard["height"] <= felt["y"] + felt["height"]
    assert page.evaluate("() => document.scrollingElement.scrollHeight <= window.innerHeight")
    screenshot(page, "house-opening-tray-768")
    page.set_viewport_size(DESKTOP)

    page.wait_for_function(FOCUS_IN_RACK)
    press_button(page, "Lay the opening")
    page.locator("#me-bar .badge--opened").wait_for()
    assert page.locator("#melds .meld").count() == 2
    assert len(rack_faces(page)) == 9

    page.wait_for_function(FOCUS_IN_RACK)
    select_tiles(page, ["k13"])
    press_button(page, "Discard")
    page.locator("#felt-center .spot--discard .tile[data-face='k13']").wait_for()
    assert "k13" not in rack_faces(page)


def test_add_to_opening_lights_up_only_for_tiles_that_make_a_meld(site, new_page):
    page = new_page()
    page.goto(seeded_table(site, page))
    page.locator("#rack .tile").first.wait_for()
    add = page.locator("#actions").get_by_role("button", name="Add to opening")
    for face in ("r8", "b9", "k13"):  # three tiles, no meld
        click_rack(page, face)
    assert add.is_disabled()
    assert "do not make a meld" in page.locator("#actions .actions__hint").inner_text()
    page.keyboard.press("Escape")
    for face in ("r8", "y8", "b8"):  # a set
        click_rack(page, face)
    assert add.is_enabled()


def test_a_spectator_never_sees_a_rack_and_a_reload_restores_the_same_view(site, new_page):
    player = new_page()
    url = seeded_table(site, player)
    player.goto(url)
    player.locator("#rack .tile").first.wait_for()
    player.locator(".rack-head").get_by_role("button", name="By number").click()

    watcher = new_page(PHONE)
    watcher.goto(url)
    watcher.locator("#seats .seat").nth(1).wait_for()
    assert watcher.locator("#rack").count() == 0
    assert watcher.locator(".tile--rack, #me").count() == 0
    assert watcher.locator("#seats .seat").count() == 2
    assert watcher.locator("#felt-center .pile__count").inner_text() == player.locator("#felt-center .pile__count").inner_text()
    screenshot(watcher, "house-table-spectator-phone")

    # The player's view survives a reload as it was, rack order included (it is their turn: nothing moves).
    before = {
        "rack": rack_faces(player),
        "pile": player.locator("#felt-center .pile__count").inner_text(),
        "indicator": player.locator("#felt-center .spot--indicator .tile").get_attribute("aria-label"),
        "status": player.locator("#me-bar .me__status").inner_text(),
    }
    player.reload()
    player.locator("#rack .tile").first.wait_for()
    after = {
        "rack": rack_faces(player),
        "pile": player.locator("#felt-center .pile__count").inner_text(),
        "indicator": player.locator("#felt-center .spot--indicator .tile").get_attribute("aria-label"),
        "status": player.locator("#me-bar .me__status").inner_text(),
    }
    assert after == before
    screenshot(player, "house-table-start-desktop")


def test_a_page_that_missed_a_broadcast_catches_up_from_the_next_pong(site, new_page):
    """A new version the page was never sent (its broadcast lost): the next pong shows a newer version,
    and the page syncs on its own, without a reload."""
    page = new_page()
    url = seeded_table(site, page, "house-midgame")
    page.goto(url)
    page.locator("#rack .tile").first.wait_for()
    assert len(rack_faces(page)) == 10
    table_id = url.strip("/").rsplit("/", 1)[-1]
    done = subprocess.run(
        [sys.executable, "-m", "tests.browser.seeding", "lost-broadcast", "--host-of-table", table_id],
        env=site.env, cwd=ROOT, capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stderr
    # A quiet page pings after 5 s without a version (or the server's check each second repairs it first); a pong ahead of the page is followed by a sync 0.3 s later.
    expect(page.locator("#rack .tile")).to_have_count(1, timeout=12_000)
    assert rack_faces(page) == ["k5"]
