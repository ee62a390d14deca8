"""The living table in the browser (SPEC 13): two players and a spectator talk (each one's message
reaches the others), a guest has the quick phrases only, a mute stops a player's messages for the one
who muted, a moderator's delete takes a message off every screen, the 201st character and the message
past the rate are refused with their reasons; a player whose page closes is shown away on the other's
screen, and back when it opens again; after a reload the log shows the same lines as before.

Screenshots (the table with the chat open, phone and laptop) go to test-results/screenshots/ and, for a
person to look at, /tmp/living16-shots/ when that folder exists."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

from tests.browser.conftest import LAPTOP, PHONE, play_now, screenshot
from tests.browser.house_player import TURN_OR_END, HousePlayer
from tests.browser.test_bot_accounts import sign_in
from tests.browser.test_house_keyboard import click_rack, watched_table

PASSWORD = "a long table passphrase 42"
LOOK = Path("/tmp/living16-shots")
_names = itertools.count(1)


def open_menu(owner):  # type: ignore[no-untyped-def]
    """Open the "⋯" menu of a chat line or a seat card (its mute, report and delete), unless it is open
    already; returns the owner."""
    if owner.locator("details.action-menu").get_attribute("open") is None:
        owner.locator(".action-menu__toggle").click()
    return owner


def shot(page, name: str) -> None:  # type: ignore[no-untyped-def]
    path = screenshot(page, name)
    if LOOK.is_dir():
        shutil.copy(path, LOOK / path.name)


def people(site, *roles: str) -> list[str]:  # type: ignore[no-untyped-def]
    """Registered users for this test (a staff one for "mod"): their usernames."""
    run = next(_names)
    names = [f"{role}{run}" for role in roles]
    code = "; ".join(
        f"User.objects.create_user({name!r}, '{name}@example.com', {PASSWORD!r}, is_staff={role == 'mod'})"
        for name, role in zip(names, roles, strict=True)
    )
    site.manage("shell", "-c", f"from apps.accounts.models import User; {code}")
    return names


def signed_in(new_page, username: str, viewport=LAPTOP):  # type: ignore[no-untyped-def]
    page = new_page(viewport)
    sign_in(page, username, PASSWORD)
    return page


def table_of_two(site, new_page, *, rate: str = "") -> tuple:  # type: ignore[no-untyped-def]
    """Alice hosts a two-seat table, Bob sits (one press), Alice starts: (alice, bob, url, names)."""
    alice_name, bob_name = people(site, "alice", "bob")
    alice = signed_in(new_page, alice_name)
    alice.goto("/play/")
    alice.get_by_label("Seat 2").select_option("")
    alice.get_by_label("Pace").select_option("60")
    alice.get_by_role("button", name="Open the table").click()
    alice.wait_for_url("**/t/*/")
    url = alice.url
    bob = signed_in(new_page, bob_name, PHONE)
    bob.goto(url)
    bob.get_by_role("button", name="Sit in seat 2").click()
    bob.locator(".waiting__seat .badge--you").wait_for()
    alice.get_by_role("button", name="Start the match").click()
    for page in (alice, bob):
        page.locator("#rack .tile").first.wait_for(timeout=30_000)
    return alice, bob, url, (alice_name, bob_name)


def say(page, text: str) -> None:  # type: ignore[no-untyped-def]
    page.locator("#chat-input").fill(text)
    page.locator("#chat-form").get_by_role("button", name="Send").click()


def open_chat(page) -> None:  # type: ignore[no-untyped-def]
    """On a phone the chat starts folded: unfold it."""
    if page.locator("#chat-title").get_attribute("aria-expanded") != "true":
        page.locator("#chat-title").click()


def chat_line(page, text: str):  # type: ignore[no-untyped-def]
    return page.locator("#chat-list .chat__item", has_text=text)


def test_two_players_and_a_spectator_talk_mute_and_a_moderator_deletes(site, new_page):
    alice, bob, url, (alice_name, bob_name) = table_of_two(site, new_page)
    carol_name, mod_name = people(site, "carol", "mod")
    carol = signed_in(new_page, carol_name)
    carol.goto(url)
    moderator = signed_in(new_page, mod_name)
    moderator.goto(url)
    guest = new_page(PHONE)
    play_now(guest)  # a guest made on the spot (at a table of their own), who then watches this one
    guest.goto(url)
    for page in (alice, bob, carol, moderator, guest):
        page.locator('#conn[data-state="connected"]').wait_for(timeout=30_000)
        open_chat(page)

    # A message from each of the three arrives at the others.
    for speaker, text in ((alice, "hello from alice"), (bob, "hi alice, bob here"), (carol, "carol watching, good luck")):
        say(speaker, text)
        for page in (alice, bob, carol, moderator):
            chat_line(page, text).wait_for(timeout=30_000)
    assert "watching" in chat_line(alice, "carol watching").inner_text()
    shot(alice, "living-chat-laptop")
    shot(bob, "living-chat-phone")

    # The guest has the quick phrases only: the box is off, a phrase goes through, translated per reader.
    assert guest.locator("#chat-input").is_disabled()
    guest.locator("#chat-phrases").get_by_role("button", name="Well played!").click()
    for page in (alice, bob, carol):
        chat_line(page, "Well played!").wait_for(timeout=30_000)

    # The 201st character is refused with the reason; nothing is lost from the box.
    say(alice, "x" * 201)
    alice.locator(".toast--error", has_text="at most 200 characters").wait_for(timeout=30_000)
    assert alice.locator("#chat-input").input_value() == "x" * 201

    # Alice mutes Bob: his next message reaches Carol, not Alice, and stays muted after her reload.
    open_menu(chat_line(alice, "hi alice, bob here")).get_by_role("button", name="Mute").click()
    chat_line(alice, "hi alice, bob here").wait_for(state="detached", timeout=30_000)
    say(bob, "can alice hear this")
    chat_line(carol, "can alice hear this").wait_for(timeout=30_000)
    say(carol, "after bob")
    chat_line(alice, "after bob").wait_for(timeout=30_000)
    assert chat_line(alice, "can alice hear this").count() == 0
    alice.reload()
    chat_line(alice, "after bob").wait_for(timeout=30_000)
    assert chat_line(alice, "can alice hear this").count() == 0
    assert open_menu(alice.locator("#seats .seat", has_text=bob_name)).get_by_role("button", name="Unmute").is_visible()

    # The moderator deletes Carol's message: it goes from every screen at once.
    open_menu(chat_line(moderator, "carol watching")).get_by_role("button", name="Delete").click()
    for page in (alice, bob, carol, moderator):
        chat_line(page, "carol watching").wait_for(state="detached", timeout=30_000)
    assert chat_line(carol, "hello from alice").count() == 1

    # Reports: Bob's seat from Alice's seat card, a message from Bob's screen; a second report of the
    # same player is refused in the dialog with its reason.
    open_menu(alice.locator("#seats .seat", has_text=bob_name)).get_by_role("button", name="Report").click()
    dialog = alice.locator("#report-dialog")
    dialog.get_by_label("Why").select_option("abuse")
    dialog.get_by_label("What happened (optional)").fill("rude in the chat")
    shot(alice, "living-report-laptop")
    dialog.get_by_role("button", name="Send the report").click()
    alice.locator(".toast", has_text="the moderators will look at it").wait_for(timeout=30_000)
    assert not dialog.is_visible()
    open_menu(alice.locator("#seats .seat", has_text=bob_name)).get_by_role("button", name="Report").click()
    dialog.get_by_role("button", name="Send the report").click()
    dialog.locator("[data-error]", has_text="reported this already").wait_for(timeout=30_000)
    dialog.get_by_role("button", name="Cancel").click()
    open_menu(chat_line(bob, "hello from alice")).get_by_role("button", name="Report").click()
    bob.locator("#report-dialog").get_by_role("button", name="Send the report").click()
    bob.locator(".toast", has_text="the moderators will look at it").wait_for(timeout=30_000)


def test_the_message_past_the_rate_is_refused_with_its_reason(site, new_page):
    alice, _bob, _url, _names = table_of_two(site, new_page)
    open_chat(alice)
    # The site's rate is 5 messages in 10 s: the sixth, sent at once after the fifth arrived, is refused
    # (ten seconds is far longer than five round trips to a local server).
    for number in range(5):
        say(alice, f"quick {number}")
        chat_line(alice, f"quick {number}").wait_for(timeout=30_000)
    say(alice, "one too many")
    alice.locator(".toast--error", has_text="Slow down").wait_for(timeout=30_000)
    assert chat_line(alice, "one too many").count() == 0


def test_a_closed_page_shows_its_player_away_and_back_and_a_reload_keeps_the_log(site, new_page, browser):
    alice, bob, url, (alice_name, bob_name) = table_of_two(site, new_page)
    bob_seat = alice.locator("#seats .seat", has_text=bob_name)
    bob_seat.wait_for()
    assert bob_seat.locator(".badge--offline").count() == 0

    # Bob's page closes: Alice sees him away (the frame comes within the 2 s grace; 30 s is the ceiling).
    cookies = bob.context.cookies()
    bob.close()
    bob_seat.locator(".badge--offline", has_text="Away").wait_for(timeout=30_000)
    shot(alice, "living-away-laptop")
    again = browser.new_context(viewport=PHONE, base_url=site.url)
    again.add_cookies(cookies)
    back = again.new_page()
    back.goto(url)
    back.locator("#rack .tile").first.wait_for(timeout=30_000)
    bob_seat.locator(".badge--offline").wait_for(state="detached", timeout=30_000)

    # Play a few turns through the pages, then reload: the log shows the same lines.
    players = [HousePlayer(alice), HousePlayer(back)]
    for _ in range(4):
        mover = whose_turn(players)
        if mover.results_shown():
            break
        mover.play_turn()
    alice.locator("#log .log__item").nth(2).wait_for(timeout=30_000)
    alice.wait_for_timeout(500)  # let the last frame land before reading
    before = alice.locator("#log .log__item").all_inner_texts()
    alice.reload()
    alice.locator("#log .log__item").first.wait_for(timeout=30_000)
    assert alice.locator("#log .log__item").all_inner_texts() == before
    again.close()


def whose_turn(players: list[HousePlayer]) -> HousePlayer:
    """The player whose page says it is their turn (or shows the scores), waiting for one (30 s at most)."""
    for _ in range(300):
        for player in players:
            if player.page.evaluate(TURN_OR_END):
                return player
        players[0].page.wait_for_timeout(100)
    raise AssertionError("nobody's turn within 30 s")


def test_the_waiting_screen_and_the_score_modal_with_the_chat_at_a_laptop_and_a_phone(site, new_page):
    """Screens to look at: the host's waiting screen (the host's own seat listed, a free seat without a
    made-up initial), and the score modal whose See the table is on screen without scrolling, the chat
    beside them."""
    (host_name,) = people(site, "host")
    for size, label in ((LAPTOP, "laptop"), (PHONE, "phone")):
        host = signed_in(new_page, host_name, size)
        host.goto("/play/")
        host.get_by_label("Seat 2").select_option("")
        host.get_by_role("button", name="Open the table").click()
        host.wait_for_url("**/t/*/")
        host.get_by_role("heading", name="Waiting for players").wait_for()
        seats = host.locator(".waiting__seat")
        assert "you" in seats.nth(0).inner_text().lower() and host_name in seats.nth(0).inner_text()
        assert host.locator(".avatar--empty .avatar__face", has_text="E").count() == 0
        shot(host, f"living-waiting-{label}")

    player, watcher, _ = watched_table(site, new_page, "house-match-end", LAPTOP, PHONE)
    click_rack(player, "k5")
    player.locator("#actions").get_by_role("button", name="Discard").click()
    for viewer, size, label in ((player, LAPTOP, "laptop"), (watcher, PHONE, "phone")):
        results = viewer.locator("#results")
        results.locator(".places").wait_for(timeout=30_000)
        box = results.get_by_role("button", name="See the table").bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (label, box)
        shot(viewer, f"living-scores-{label}")
    # A phone held sideways: the chat starts folded beside the felt, and opens over the log.
    player.set_viewport_size({"width": 844, "height": 390})
    player.reload()
    player.locator('#conn[data-state="connected"]').wait_for(timeout=30_000)
    see = player.locator("#results").get_by_role("button", name="See the table")
    if see.is_visible():
        see.click()
    assert player.locator("#chat-title").get_attribute("aria-expanded") == "false"
    player.locator("#chat-title").click()
    player.locator("#chat-input").wait_for()
    shot(player, "living-chat-phone-landscape")
