"""The site in Romanian, in real Chromium (SPEC 12): a visitor whose browser asks for Romanian plays a
whole house game against the strongest bot, and nothing on the screen is English at any turn: the table,
the log, the buttons' labels, the error toasts the server sends, the score table. Screenshots of the
table and the rules page, on a phone and a desktop, go to test-results/screenshots/."""

from __future__ import annotations

import json
from typing import Any

from tests.browser.conftest import DESKTOP, PHONE, screenshot
from tests.browser.house_player import HousePlayer
from tests.browser.test_house_keyboard import click_rack, seeded_table
from tests.romanian import english_in

#: Everything a player reads on the page: its visible text and the labels of its elements.
SHOWN = """() => {
  const parts = [document.body.innerText];
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder], [alt]')) {
    for (const name of ['title', 'aria-label', 'placeholder', 'alt']) {
      if (el.getAttribute(name)) parts.push(el.getAttribute(name));
    }
  }
  return parts.join('\\n');
}"""


def romanian_page(new_page: Any, viewport: dict[str, int] = DESKTOP) -> Any:
    page = new_page(viewport)
    page.context.set_extra_http_headers({"Accept-Language": "ro-RO,ro;q=0.9"})
    return page


def assert_no_english(page: Any, where: str) -> None:
    assert page.locator("html").get_attribute("lang") == "ro", where
    shown = page.evaluate(SHOWN)
    found = english_in(shown)
    assert not found, f"{where}: English on the screen {found[:5]}:\n{shown[:2000]}"


def test_a_romanian_visitor_plays_a_whole_game_and_reads_no_english_on_the_way(new_page):
    page = romanian_page(new_page)
    to_server: list[Any] = []

    def through(socket: Any) -> None:  # the page's own socket, passed through untouched
        to_server.append(socket.connect_to_server())

    page.route_web_socket("**/ws/tables/**", through)
    page.goto("/")
    assert_no_english(page, "home")
    page.get_by_role("button", name="Joacă acum Remi pe tablă cu botul Greu", exact=True).click()
    page.wait_for_url("**/t/*/")
    page.locator("#rack .tile").first.wait_for()
    assert page.locator("#seats").get_by_text("Bot (Greu)").count() == 1
    # The frames name the game, the pace and the bot by code; the page words them (static/js/names.js).
    assert page.get_by_role("heading", level=1).inner_text().startswith("Remi pe tablă")
    assert "60 s pe tură" in page.locator("#table-meta").inner_text()  # "Play now" is the game's first pace
    assert_no_english(page, "the table at the deal")
    screenshot(page, "ro-house-table-desktop")
    page.set_viewport_size(PHONE)
    screenshot(page, "ro-house-table-phone")
    page.set_viewport_size(DESKTOP)

    # Errors the server sends reach the player as toasts in their language: one from the table (the
    # match has started) and one from the engine (a move the rules refuse).
    player = HousePlayer(page)
    player.wait_for_turn_or_end()
    assert to_server, "the table's socket did not go through the test's route"
    toasts = page.locator("#toasts .toast--error")
    to_server[0].send(json.dumps({"type": "start"}))
    toasts.first.wait_for()
    to_server[0].send(json.dumps({"type": "move", "move": "lay r1 k1 k1", "id": "refused"}))
    page.wait_for_function("() => document.querySelectorAll('#toasts .toast--error').length >= 2")
    messages = toasts.all_inner_texts()
    assert messages[0] == "Meciul a început deja."
    assert all(not english_in(message) for message in messages), messages
    screenshot(page, "ro-house-error-toasts")

    for turn in range(80):
        player.wait_for_turn_or_end()
        assert_no_english(page, f"turn {turn}")
        if player.results_shown():
            break
        player.play_turn()
    else:
        raise AssertionError("the game did not end within 80 turns")

    results = page.locator("#results")
    results.wait_for()
    table = results.locator(".score-table").first
    for line in ("Piese puse pe masă", "Piese rămase pe tablă", "A închis", "A primit perechea atuului", "Joc dublu"):
        assert table.get_by_text(line, exact=False).count() >= 1, line
    assert_no_english(page, "the score table")
    screenshot(page, "ro-house-score-table")
    page.set_viewport_size(PHONE)
    screenshot(page, "ro-house-score-table-phone")


def test_the_rules_page_in_romanian_on_a_phone_and_a_desktop(new_page):
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = romanian_page(new_page, viewport)
        page.goto("/games/tile-rummy/rules/")
        assert page.get_by_role("heading", level=1).inner_text() == "Remi pe tablă: regulile"
        assert_no_english(page, f"the rules page ({name})")
        screenshot(page, f"ro-rules-{name}")
        page.locator("#scoring").scroll_into_view_if_needed()
        screenshot(page, f"ro-rules-scoring-{name}")


def test_the_rearrange_scratchpad_in_romanian_says_why_end_turn_is_off(site, new_page):
    page = romanian_page(new_page)
    page.goto(seeded_table(site, page, "rearrange", button="Joacă acum Remi pe tablă cu botul Ușor"))
    page.locator("#rack .tile").first.wait_for()
    why = page.locator("#table-why")
    assert "nicio piesă nu ți-a plecat încă de pe tablă" in why.inner_text()
    click_rack(page, "b2")
    click_rack(page, "y2")
    page.locator("#melds").get_by_role("button", name="Formație nouă").click()
    assert page.locator("#melds .meld").nth(2).get_by_text("nu e formație").is_visible()
    assert "1 formație de pe masă nu e încă corectă" in why.inner_text()
    assert_no_english(page, "the Rearrange scratchpad")
    screenshot(page, "ro-rearrange-not-a-set")
    page.set_viewport_size(PHONE)
    screenshot(page, "ro-rearrange-not-a-set-phone")
