"""Rematch as two people meet it after a match: the panel links to the game's review and replay; the first
to press Rematch sees whom the rematch waits for; when the second presses, a new match starts at the same
table for both, whoever the host is."""

from __future__ import annotations

from tests.browser.conftest import LAPTOP, PHONE, screenshot
from tests.browser.test_bot_accounts import sign_in

PASSWORD = "a long players passphrase 42"

# Two registered players and a 1-game match between them played to its end through the services (the
# table's id is printed).
FINISHED_MATCH = (
    "from allauth.account.models import EmailAddress; from apps.accounts.models import User\n"
    "from apps.tables import services\n"
    "from tests.tables.helpers import play_match\n"
    "users = []\n"
    "for name in ('mara', 'toma'):\n"
    f"    user = User.objects.create_user(name, name + '@example.com', {PASSWORD!r})\n"
    "    EmailAddress.objects.create(user=user, email=name + '@example.com', verified=True, primary=True)\n"
    "    users.append(user)\n"
    "table = services.table_open(by=users[0], game='tile-rummy', seat_count=2, turn_seconds=60)\n"
    "services.table_join(table_id=table.pk, by=users[1])\n"
    "services.table_start(table_id=table.pk, by=users[0])\n"
    "services.table_seed(table_id=table.pk, by=users[0], seed='0' * 32)\n"
    "services.table_seed(table_id=table.pk, by=users[1], seed='1' * 32)\n"
    "print(play_match(table.pk).pk)\n"
)


def test_when_both_players_press_rematch_a_new_match_starts_for_both(new_page, site):
    table_id = site.manage("shell", "-c", FINISHED_MATCH).strip().splitlines()[-1]
    guest_of_the_host = new_page(PHONE)
    sign_in(guest_of_the_host, "toma", PASSWORD)  # not the host
    guest_of_the_host.goto(f"/t/{table_id}/")
    host = new_page(LAPTOP)
    sign_in(host, "mara", PASSWORD)
    host.goto(f"/t/{table_id}/")

    # The result speaks to each player; registered players are not asked to keep their account.
    said = {page.locator("#results [data-you]").inner_text() for page in (host, guest_of_the_host)}
    assert said <= {"You won!", "Place 2 of 2"} and "You won!" in said
    assert host.locator("#results [data-keep-account]").count() == 0
    # Every result links to its review and its replay.
    review = guest_of_the_host.locator("#results [data-review]")
    assert review.inner_text() == "Review" and review.get_attribute("href").endswith("/#review-title")
    replay = guest_of_the_host.locator("#results [data-replay]").get_attribute("href")
    assert guest_of_the_host.request.get(replay).status == 200

    guest_of_the_host.get_by_role("button", name="Rematch", exact=True).click()
    waiting = host.locator("[data-rematch-waiting]")
    guest_of_the_host.locator("[data-rematch-waiting]").wait_for()
    assert guest_of_the_host.locator("[data-rematch-waiting]").inner_text() == (
        "The rematch starts when mara presses Rematch too."
    )
    assert waiting.inner_text() == "The rematch starts when mara presses Rematch too."
    screenshot(guest_of_the_host, "rematch-waiting-phone")

    host.get_by_role("button", name="Rematch", exact=True).click()
    for page in (host, guest_of_the_host):
        page.locator("#results").wait_for(state="hidden")
        page.locator("#rack .tile").first.wait_for()
    screenshot(guest_of_the_host, "rematch-started-phone")
    count = site.manage("shell", "-c", f"from apps.tables.models import Match; print(Match.objects.filter(table_id={table_id}).count())")
    assert count.strip().splitlines()[-1] == "2"
