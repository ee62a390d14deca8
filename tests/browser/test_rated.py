"""Rated play as two registered players meet it (SPEC 11): the create form and the waiting screen say the
table will be rated; the other player leaves at once after the start, and both the table and the match
page say the match was aborted, and why."""

from __future__ import annotations

from tests.browser.conftest import LAPTOP, PHONE, screenshot
from tests.browser.test_bot_accounts import sign_in

PASSWORD = "a long players passphrase 42"

MAKE_PLAYERS = (
    "from allauth.account.models import EmailAddress; from apps.accounts.models import User\n"
    "for name in ('rita', 'ben'):\n"
    f"    user = User.objects.create_user(name, name + '@example.com', {PASSWORD!r})\n"
    "    EmailAddress.objects.create(user=user, email=name + '@example.com', verified=True, primary=True)\n"
)


def test_a_match_left_at_once_is_aborted_and_the_table_says_why(new_page, site):
    site.manage("shell", "-c", MAKE_PLAYERS)
    host = new_page(LAPTOP)
    sign_in(host, "rita", PASSWORD)
    host.goto("/play/")
    host.get_by_label("Seat 2", exact=True).select_option("")
    assert host.locator("#rated-note").inner_text().startswith("Rated, if every player who sits")
    host.get_by_label("Pace").select_option("0")
    assert host.locator("#rated-note").inner_text() == "Unrated: there is no turn timer"
    host.get_by_label("Pace").select_option("60")
    host.get_by_role("button", name="Open the table").click()
    host.wait_for_url("**/t/*/")
    assert host.locator(".waiting__rated").inner_text() == "Rated"
    table_url = host.url

    other = new_page(PHONE)
    sign_in(other, "ben", PASSWORD)
    other.goto(table_url)
    other.get_by_role("button", name="Sit in seat 2").click()
    other.locator(".waiting__seat .badge--you").wait_for()
    host.get_by_role("button", name="Start the match").click()
    other.locator("#rack .tile").first.wait_for()

    other.locator("#leave-button").click()
    other.locator("#leave-dialog").get_by_role("button", name="Leave").click()
    host.get_by_role("heading", name="Match aborted").wait_for()
    assert "ben left before the abort window closed: no places, no rating." in host.locator("#results").inner_text()
    assert "Match aborted" in host.locator("#table-meta").inner_text()
    screenshot(host, "match-aborted-desktop")

    table_id = table_url.rstrip("/").rsplit("/", 1)[1]
    match_id = site.manage(
        "shell", "-c", f"from apps.tables.models import Match; print(Match.objects.get(table_id={table_id}).pk)"
    ).strip().splitlines()[-1]
    host.goto(f"/matches/{match_id}/")
    assert "Match aborted: ben left before the abort window closed" in host.locator("main").inner_text()
