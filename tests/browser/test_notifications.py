"""The bell, live: a player at a table without a timer (alone with a bot, they set the pace to none) has
the notifications page open in another tab; when the bot's turn is over it is their turn, and the
notification arrives on that page without a reload, the bell's count rising. Screenshots of the bell and
the list on a phone and a desktop."""

from __future__ import annotations

from tests.browser.conftest import DESKTOP, PHONE, play_now, screenshot
from tests.browser.house_player import HousePlayer

BELL_COUNT = "() => Number(document.querySelector('[data-bell-count]').textContent || 0)"


def test_a_your_turn_notification_arrives_live_and_the_bell_count_rises(new_page):
    table = new_page(DESKTOP)
    play_now(table, "tile-rummy", "Easy")
    player = HousePlayer(table)
    table.locator("#rack .tile").first.wait_for()
    table.locator("#pace-select").select_option("0")  # no timer: the table tells whose turn it is
    table.wait_for_function("() => document.body.innerText.includes(' · No timer')")  # the server took it

    notes = table.context.new_page()
    notes.goto("/notifications/")
    notes.locator("[data-bell]").wait_for()
    if notes.evaluate(BELL_COUNT) > 0:  # the bot's turn may have come back already: start from none unread
        notes.reload()
        notes.get_by_role("button", name="Mark all read").click()
        notes.wait_for_function(f"() => ({BELL_COUNT})() === 0")
    before = notes.evaluate(BELL_COUNT)
    assert before == 0

    # The player's own turns until the bot has had one and the turn has come back to them.
    for _ in range(6):
        player.wait_for_turn_or_end()
        player.play_turn()
        try:
            notes.wait_for_function(f"() => ({BELL_COUNT})() > {before}", timeout=15_000)
            break
        except Exception:
            continue
    notes.wait_for_function(f"() => ({BELL_COUNT})() > {before}", timeout=30_000)
    assert "Your turn at table" in notes.locator("[data-notes-list] .note--unread").first.inner_text()
    assert "unread" in (notes.locator("[data-bell]").get_attribute("aria-label") or "")
    screenshot(notes, "notifications-desktop")

    phone = table.context.new_page()
    phone.set_viewport_size(PHONE)
    phone.goto("/notifications/")
    phone.locator("[data-bell-count]").wait_for()
    assert phone.evaluate(BELL_COUNT) >= 1
    screenshot(phone, "notifications-phone")
    box = phone.locator("[data-bell]").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]  # on the screen
    phone.goto("/notifications/settings/")
    screenshot(phone, "notifications-settings-phone")
