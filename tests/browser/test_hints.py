"""A hint at an unrated Rearrange table in the browser (SPEC 13): the Hint button asks the server, the
panel shows the table after the best play with the rack tiles it places marked, and "Play it" plays it.
The position comes from the test-only hook in tests/browser/seeding.py: the rack holds a group of 2s
(b2 y2 k2), r7, which would extend the run r3-r6, and b6 k6; the best play places five tiles: the 2s,
and b6 k6 in a group with the run's r6 (r7 would place only one)."""

from __future__ import annotations

from tests.browser.conftest import DESKTOP, PHONE, screenshot
from tests.browser.test_house_keyboard import rack_faces, seeded_table
from tests.browser.test_rearrange_table import table_sets


def test_a_hint_at_an_unrated_rearrange_table_shows_the_best_play_and_plays_it(site, new_page):
    page = new_page()
    page.goto(seeded_table(site, page, "rearrange"))
    page.locator("#rack .tile").first.wait_for()
    button = page.locator("#hint-slot").get_by_role("button")
    button.wait_for()
    page.wait_for_function("() => document.querySelector('#hint-slot button').textContent.includes('3 left')")
    assert button.is_enabled()

    button.click()
    panel = page.locator("#hint-panel")
    panel.wait_for(timeout=30_000)
    assert "You can place 5 tiles (18 points)." in panel.inner_text()
    target = panel.locator(".hint-set").evaluate_all("sets => sets.map(s => [...s.querySelectorAll('.tile')].map(t => t.dataset.face))")
    assert sorted(map(sorted, target)) == sorted(map(sorted, [["r3", "r4", "r5"], ["b2", "y2", "k2"], ["r6", "b6", "k6"], ["k9", "y9", "b9"]]))
    marked = page.locator("#rack .tile.is-hinted").evaluate_all("tiles => tiles.map(t => t.dataset.face)")
    assert sorted(marked) == ["b2", "b6", "k2", "k6", "y2"]
    assert "2 left" in button.inner_text()
    screenshot(page, "hint-rearrange-desktop")
    page.set_viewport_size(PHONE)
    panel.scroll_into_view_if_needed()
    screenshot(page, "hint-rearrange-phone")
    page.set_viewport_size(DESKTOP)

    panel.get_by_role("button", name="Play it").click()
    page.wait_for_function("() => !document.getElementById('table-app').classList.contains('is-my-turn')")
    assert sorted(map(sorted, table_sets(page))) == sorted(map(sorted, target))
    assert sorted(rack_faces(page)) == ["b12", "k13", "r7", "y11", "y5"]
    assert panel.is_hidden() and button.is_disabled()  # the hint is gone with the turn
