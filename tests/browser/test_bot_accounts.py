"""Bot accounts as a player meets them (SPEC 14): a registered player makes one and a token (shown once),
the bot's program comes online, the player invites it from the lobby's form (the search offers it), the
seat waits for it, and once its program accepts, the bot sits marked BOT; its profile says what it is."""

from __future__ import annotations

import json
import threading
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

from websockets.sync.client import connect

from tests.browser.conftest import LAPTOP, PHONE, screenshot

PASSWORD = "a long owner passphrase 42"


def sign_in(page, username: str, password: str) -> None:  # type: ignore[no-untyped-def]
    page.goto("/accounts/login/")
    page.locator("input[name=login]").fill(username)
    page.locator("input[name=password]").fill(password)
    page.get_by_role("button", name="Sign In").click()
    page.wait_for_url("**/")


@contextmanager
def bot_program(url: str, token: str) -> Iterator[list[dict]]:
    """The bot's program, as far as the site can tell: its lobby socket open (so it is online); the frames
    it gets."""
    frames: list[dict] = []

    def read(socket) -> None:  # type: ignore[no-untyped-def]
        try:
            while True:
                frames.append(json.loads(socket.recv()))
        except Exception:  # closed
            pass

    with connect(url.replace("http://", "ws://") + "/ws/lobby/",
                 additional_headers={"Authorization": f"Bearer {token}"}) as socket:
        threading.Thread(target=read, args=(socket,), daemon=True).start()
        yield frames


def api_post(url: str, path: str, token: str) -> dict:
    request = urllib.request.Request(url + path, data=b"", method="POST", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def test_a_player_makes_a_bot_account_invites_it_and_it_sits_marked_bot(new_page, site):
    site.manage("shell", "-c", "from apps.accounts.models import User; "
                f"User.objects.create_user('bot-owner', 'owner@example.com', {PASSWORD!r})")
    page = new_page(LAPTOP)
    sign_in(page, "bot-owner", PASSWORD)
    page.goto("/bots/")
    page.get_by_label("The bot account's name").fill("robo-browser")
    page.get_by_label("What it is (optional)").fill("Plays the Easy bot's moves")
    screenshot(page, "bot-accounts-desktop")
    page.get_by_role("button", name="Make the bot account").click()
    page.wait_for_url("**/bots/manage/robo-browser/")
    page.get_by_label("Token name").fill("laptop")
    page.get_by_role("button", name="Make a token").click()
    token = page.get_by_role("textbox", name="Your new token").input_value()
    assert token.startswith("rbt_")
    row = page.locator(".tokens tbody tr").first
    assert "laptop" in row.inner_text() and token[:10] in row.inner_text() and "never" in row.inner_text()
    screenshot(page, "bot-token-desktop")
    page.reload()
    assert page.get_by_role("textbox", name="Your new token").count() == 0  # shown once

    with bot_program(site.url, token) as program_frames:
        page.goto("/play/")
        page.get_by_label("Seat 2", exact=True).select_option("account")
        name = page.locator("#id_seat_1_account")
        name.fill("robo")
        page.locator("#id_seat_1_account-note", has_text="1 bot account online").wait_for()
        assert page.locator("#id_seat_1_account-online option").first.get_attribute("value") == "robo-browser"
        name.fill("robo-browser")
        page.locator("[data-seat-row='1']").scroll_into_view_if_needed()
        screenshot(page, "lobby-invite-bot-desktop")
        page.get_by_role("button", name="Open the table").click()
        page.wait_for_url("**/t/*/")
        table_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
        page.locator(".waiting__seat", has_text="Waiting for robo-browser · BOT").wait_for()
        screenshot(page, "waiting-invited-bot-desktop")
        assert page.get_by_role("button", name="Start the match").is_disabled()

        api_post(site.url, f"/api/bot/invitations/{table_id}/accept", token)  # the program says yes
        page.locator(".waiting__seat", has_text="robo-browser · BOT").wait_for()
        assert not page.get_by_role("button", name="Start the match").is_disabled()
        screenshot(page, "waiting-bot-seated-desktop")
        assert any(frame["type"] == "invitation" for frame in program_frames)  # its lobby was told at once

        phone = new_page(PHONE)
        phone.goto(f"/t/{table_id}/")
        phone.locator(".waiting__seat", has_text="robo-browser · BOT").wait_for()
        screenshot(phone, "waiting-bot-seated-phone")
        phone.goto("/u/robo-browser/")
        assert "A program, run by bot-owner." in phone.locator(".profile-head").inner_text()
        assert "online" in phone.locator(".profile-head__bot").inner_text().lower()
        phone.locator("h1 .bot-mark").wait_for()
        screenshot(phone, "bot-profile-phone")
