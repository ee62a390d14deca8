"""Friends and a challenge, as two players meet them (SPEC 17): each follows the other from the profile,
each sees the other online on the friends page (a page of the site open counts), one challenges the
other to a 2-seat house match, the other accepts from the friends page, and both land at the table with
the match started (the challenger's page moves there by itself); at the table, a seat's menu leads to its
player's profile."""

from __future__ import annotations

from tests.browser.conftest import DESKTOP, PHONE, screenshot
from tests.browser.test_bot_accounts import sign_in

PASSWORD = "a long friendly passphrase 17"


def test_two_friends_see_each_other_online_and_a_challenge_lands_both_at_the_started_table(new_page, site):
    for name in ("ana-friend", "bogdan-friend"):
        site.manage("shell", "-c", "from apps.accounts.models import User; "
                    f"User.objects.create_user({name!r}, '{name}@example.com', {PASSWORD!r})")
    ana, bogdan = new_page(DESKTOP), new_page(PHONE)
    sign_in(ana, "ana-friend", PASSWORD)
    sign_in(bogdan, "bogdan-friend", PASSWORD)
    for page, other in ((ana, "bogdan-friend"), (bogdan, "ana-friend")):
        page.goto(f"/u/{other}/")
        page.get_by_role("button", name="Follow", exact=True).click()
        page.get_by_role("button", name="Unfollow", exact=True).wait_for()
    screenshot(bogdan, "friends-profile-phone")

    bogdan.goto("/")  # the home page's socket: Bogdan is online
    ana.goto("/friends/")
    row = ana.locator(".person", has_text="bogdan-friend")
    for _ in range(60):  # the socket opens a moment after the page: ask again until it shows
        if "online" in row.inner_text():
            break
        ana.wait_for_timeout(500)
        ana.reload()
    assert "online" in row.inner_text()
    screenshot(ana, "friends-desktop")

    row.get_by_role("link", name="Challenge").click()
    ana.wait_for_url("**/challenges/new/**")
    assert ana.get_by_label("Players (names, separated by commas)").input_value() == "bogdan-friend"
    ana.get_by_label("Casual").check()
    screenshot(ana, "challenge-new-desktop")
    ana.get_by_role("button", name="Send the challenge").click()
    ana.wait_for_url("**/challenges/*/")
    screenshot(ana, "challenge-waiting-desktop")

    bogdan.goto("/friends/")
    card = bogdan.locator(".challenge-card", has_text="ana-friend challenges you")
    card.wait_for()
    screenshot(bogdan, "friends-challenge-phone")
    card.get_by_role("button", name="Accept").click()
    bogdan.wait_for_url("**/t/*/")
    ana.wait_for_url("**/t/*/", timeout=60_000)  # the challenge's page moved by itself
    assert ana.url == bogdan.url
    for page in (ana, bogdan):
        page.locator("#rack .tile").first.wait_for()  # dealt: the match started
        assert page.locator("#table-app").get_attribute("data-status") == "playing"
        assert page.locator("#table-app").get_attribute("data-role") == "player"
    assert sorted(ana.locator("#seats .seat__name").all_inner_texts() + ["ana-friend"]) == ["ana-friend", "bogdan-friend"]
    screenshot(bogdan, "friends-challenge-table-phone")
    # From the table's player list: a seat's menu leads to its player's profile (follow, challenge, block).
    ana.locator("#seats .seat .action-menu__toggle").first.click()
    link = ana.get_by_role("link", name="Profile: follow or challenge")
    assert link.get_attribute("href") == "/u/bogdan-friend/"
    screenshot(ana, "friends-seat-menu-desktop")
