"""Quick pairing in a real browser (SPEC 15): two visitors press the same pool button on the home page
and land at the same table, its match started; the waiting screen on a phone, and Cancel."""

from __future__ import annotations

import time

from playwright.sync_api import Error as PlaywrightError

from tests.browser.conftest import DESKTOP, PHONE, screenshot

BUTTON = "Join the pool: Tile Rummy, 2 players, 60 s, casual"


def at_the_table(page, ceiling: float = 60.0) -> None:  # type: ignore[no-untyped-def]
    """Wait until the page has moved to a table by itself (a generous ceiling). A navigation of the way
    that another one replaced (net::ERR_ABORTED, seen once in CI under load, its cause not found) is not
    the failure this test is about: where the page lands is, and the assertions after check it."""
    deadline = time.monotonic() + ceiling
    while True:
        try:
            page.wait_for_url("**/t/*/", timeout=max(1.0, deadline - time.monotonic()) * 1000)
            return
        except PlaywrightError as error:
            if "ERR_ABORTED" not in str(error) or time.monotonic() >= deadline:
                raise


def test_two_visitors_pressing_the_same_pool_button_land_at_the_same_started_table(new_page):
    first, second = new_page(DESKTOP), new_page(PHONE)
    for page in (first, second):
        page.goto("/")
    started = time.monotonic()
    first.get_by_role("button", name=BUTTON, exact=True).click()
    first.wait_for_url("**/play/quick/wait/")
    first.locator("#waiting-count").wait_for()
    second.get_by_role("button", name=BUTTON, exact=True).click()
    for page in (first, second):
        at_the_table(page)
    print(f"paired and at the table in {time.monotonic() - started:.1f} s")  # the goal (10 s): bench/README.md
    assert first.url == second.url
    for page in (first, second):
        page.locator("#rack .tile").first.wait_for(timeout=60_000)  # dealt: the match started
        assert page.locator("#table-app").get_attribute("data-status") == "playing"
        assert page.locator("#table-app").get_attribute("data-role") == "player"
    screenshot(second, "quick-pairing-table-phone")


def test_the_waiting_screen_counts_and_cancel_takes_the_player_out(new_page):
    page = new_page(PHONE)
    page.goto("/")
    screenshot(page, "quick-pairing-home-phone")
    page.get_by_role("button", name="Join the pool: Tile Rummy: Rearrange, 3 players, 60 s, casual", exact=True).click()
    page.wait_for_url("**/play/quick/wait/")
    clock = page.locator("#waited")
    page.wait_for_function("() => Number(document.getElementById('waited').textContent) >= 2", timeout=60_000)
    assert page.locator("#waiting-count").inner_text() == "1"
    screenshot(page, "quick-pairing-waiting-phone")
    page.get_by_role("button", name="Cancel").click()
    page.wait_for_url("**/play/quick/")
    assert clock.count() == 0
    desktop = new_page(DESKTOP)
    desktop.goto("/play/")
    desktop.locator(".pools").wait_for()
    screenshot(desktop, "quick-pairing-play-desktop")
