"""The house game's moves by pointer: take the last discard, lay off by dragging onto a meld, take a
joker (select, then the joker), reorder the rack by dragging, discard by dropping on the discard spot.
The position comes from the test-only hook in tests/browser/seeding.py."""

from __future__ import annotations

from tests.browser.conftest import LAPTOP, PHONE, screenshot
from tests.browser.test_house_keyboard import click_rack, rack_faces, seeded_table, watched_table


def meld_faces(page, index: int) -> list[str]:  # type: ignore[no-untyped-def]
    return page.locator(f'#melds .meld[data-meld="{index}"] .tile').evaluate_all("ts => ts.map(t => t.dataset.face)")


def wait_meld(page, index: int, faces: list[str]) -> None:  # type: ignore[no-untyped-def]
    page.wait_for_function(
        "([i, want]) => { const m = document.querySelector(`#melds .meld[data-meld='${i}']`);"
        " return m && JSON.stringify([...m.querySelectorAll('.tile')].map(t => t.dataset.face)) === JSON.stringify(want); }",
        arg=[index, faces],
    )


def test_take_the_discard_lay_off_by_drag_take_a_joker_reorder_and_discard_by_drop(site, new_page):
    page = new_page()
    page.goto(seeded_table(site, page, "house-midgame"))
    page.locator("#rack .tile").first.wait_for()
    assert page.locator("#me-bar .me__status").inner_text().startswith("Your turn: draw a tile, or take")

    # The last discard, red 9, goes into a new meld with red 7 and red 8.
    page.get_by_role("button", name="Take the last discard, red 9, into a new meld").click()
    click_rack(page, "r7")
    click_rack(page, "r8")
    assert "worth 15 points" in page.locator("#actions .actions__hint").inner_text()
    page.locator("#actions").get_by_role("button", name="Lay with the discard").click()
    wait_meld(page, 3, ["r7", "r8", "r9"])

    # Black 12 dragged onto black 9-10-11.
    page.locator('#rack .tile[data-face="k12"]').drag_to(page.locator('#melds .meld[data-meld="1"]'))
    wait_meld(page, 1, ["k9", "k10", "k11", "k12"])

    # Blue 11 selected, then the joker that stands for it: the joker comes to the rack.
    click_rack(page, "b11")
    page.get_by_role("button", name="joker, standing for blue 11").click()
    wait_meld(page, 2, ["b10", "b11", "b12"])
    assert "J" in rack_faces(page)

    # The joker dragged to the front of the rack.
    first = page.locator("#rack .tile").first
    page.locator('#rack .tile[data-face="J"]').drag_to(first, target_position={"x": 3, "y": 10})
    assert rack_faces(page)[0] == "J"
    screenshot(page, "house-table-midgame")

    # Yellow 2 dropped on the discard spot ends the turn.
    page.locator('#rack .tile[data-face="y2"]').drag_to(page.locator("#felt-center .spot--discard"))
    page.locator("#felt-center .spot--discard .tile[data-face='y2']").wait_for()
    assert "y2" not in rack_faces(page)
    page.wait_for_function("() => !document.getElementById('table-app').classList.contains('is-my-turn')")


def test_between_two_games_of_a_match_the_scores_show_then_the_next_deal_comes(site, new_page):
    page = new_page()
    page.goto(seeded_table(site, page, "house-going-out"))
    page.locator("#rack .tile").first.wait_for()
    assert page.locator("#table-meta").inner_text().startswith("Game 1 of 3")

    click_rack(page, "k5")
    page.locator("#actions").get_by_role("button", name="Discard").click()
    results = page.locator("#results")
    results.wait_for()
    assert results.get_by_role("heading").first.inner_text() == "Game 1 of 3: the scores"
    assert "went out" in results.locator(".results__reason").inner_text()
    assert results.get_by_text("The match so far").is_visible()
    assert "Next deal in" in results.locator(".results__next").inner_text()
    screenshot(page, "house-between-games")

    # The next deal closes the scores by itself.
    results.wait_for(state="hidden", timeout=15_000)
    assert page.locator("#table-meta").inner_text().startswith("Game 2 of 3")
    assert len(rack_faces(page)) in (14, 15)
    assert page.locator("#log").get_by_text("Game 2: a new deal.").count() == 1


def test_a_player_on_autopilot_sees_the_banner_and_comes_back(site, new_page):
    page = new_page()
    page.goto(seeded_table(site, page, "house-away"))
    banner = page.locator("#autopilot")
    banner.wait_for()
    assert "You are on autopilot" in banner.inner_text()
    assert page.locator("#me-bar .badge--away").count() == 1
    screenshot(page, "house-autopilot")
    banner.get_by_role("button", name="I'm back").click()
    banner.wait_for(state="hidden")
    assert page.locator("#me-bar .badge--away").count() == 0


def test_the_score_modal_shows_see_the_table_without_scrolling_on_a_laptop_and_a_phone(site, new_page):
    page, watcher, _ = watched_table(site, new_page, "house-match-end", LAPTOP, PHONE)

    click_rack(page, "k5")
    page.locator("#actions").get_by_role("button", name="Discard").click()
    for viewer, size, name in ((page, LAPTOP, "house-score-modal-desktop"), (watcher, PHONE, "house-score-modal-phone")):
        results = viewer.locator("#results")
        results.locator(".places").wait_for()
        see = results.get_by_role("button", name="See the table")
        box = see.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (name, box)
        assert viewer.evaluate("() => [window.scrollX, window.scrollY]") == [0, 0]
        screenshot(viewer, name)
    page.locator("#results").get_by_role("button", name="See the table").click()
    page.locator("#results").wait_for(state="hidden")
    assert page.locator("#melds .meld").count() == 3
