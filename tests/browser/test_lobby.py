"""The lobby: a host opens a table with the form (a seat left to a player), and a visitor already on
the lobby sees it appear live, with its options, and joins it in one press (a guest made on the spot,
seated at once)."""

from __future__ import annotations

from tests.browser.conftest import LAPTOP, PHONE, screenshot


def test_a_table_opened_in_the_lobby_appears_live_for_a_visitor_who_joins_it(new_page):
    visitor = new_page(PHONE)
    visitor.goto("/play/")
    visitor.locator('#lobby-conn[data-state="connected"]').wait_for()

    host = new_page(LAPTOP)
    host.goto("/play/")
    host.get_by_role("button", name="Play Tile Rummy now against the Easy bot").wait_for()
    host.locator('label:has(input[name="seats"][value="3"])').click()
    host.locator('label:has(input[name="match_length"][value="3"])').click()
    host.get_by_label("Pace").select_option("30")
    host.get_by_label("Seat 2").select_option("")
    host.get_by_label("Seat 3").select_option("easy")
    # The form says before the table exists why it will be unrated (SPEC 11): a guest host, a bot.
    assert host.locator("#rated-note").inner_text() == "Unrated: a bot is playing, a guest is playing"
    screenshot(host, "lobby-desktop")
    host.get_by_role("button", name="Open the table").click()
    host.wait_for_url("**/t/*/")
    host.get_by_role("heading", name="Waiting for players").wait_for()
    assert host.get_by_role("button", name="Start the match").is_disabled()
    assert host.locator(".waiting__rated").inner_text() == "Unrated: a bot is playing, a guest is playing"
    # The host's own seat is in the list of seats; a free seat has no made-up initial.
    seats = host.locator("#seats .seat")
    assert seats.count() == 3 and "you" in seats.nth(0).inner_text().lower()
    assert seats.nth(1).locator(".avatar--empty .avatar__face").inner_text() == ""
    assert seats.nth(1).locator(".seat__name").inner_text() == "Seat 2: free"
    screenshot(host, "waiting-host-desktop")
    table_url = host.url

    # The visitor's lobby shows the new table without a reload.
    row = visitor.locator(".lobby-table", has_text="Bot (Easy)").first
    row.wait_for()
    text = row.inner_text()
    for fact in ("Tile Rummy", "2 of 3 seats", "30 s per turn", "Match of 3 games", "Unrated: a bot is playing", "Waiting for players"):
        assert fact in text, fact
    screenshot(visitor, "lobby-phone")

    row.get_by_role("button", name="Join").click()  # the one press
    visitor.wait_for_url(table_url)
    visitor.get_by_role("heading", name="Waiting for players").wait_for()
    visitor.locator(".waiting__seat .badge--you").wait_for()
    assert visitor.locator(".waiting__seat").nth(1).inner_text().startswith("2\nGuest-")
    # On the phone the account links stay in the header: the profile (a round initial) and Sign out.
    assert visitor.get_by_role("link", name="Guest-").is_visible()
    assert visitor.get_by_role("button", name="Sign out").is_visible()
    screenshot(visitor, "waiting-visitor-seated-phone")

    # Every seat taken: the host starts, and both see their racks.
    host.get_by_role("button", name="Start the match").click()
    host.locator("#rack .tile").first.wait_for()
    visitor.locator("#rack .tile").first.wait_for()
    assert host.locator("#table-meta").inner_text().startswith("Game 1 of 3")
