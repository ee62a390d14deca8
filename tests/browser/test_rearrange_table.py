"""The rearrange game's scratchpad in the browser: an illegal set keeps End turn off with the right
reason, fixing it turns End turn on, Take back returns one tile, Undo turn restores the start, and a
legal table is played; before the opening, the counter at the top of the table counts the new sets
from the rack towards 30, also while a set is not legal. The positions come from the test-only hook in
tests/browser/seeding.py."""

from __future__ import annotations

from tests.browser.conftest import LAPTOP, PHONE, screenshot
from tests.browser.test_house_keyboard import click_rack, rack_faces, seeded_table


def table_sets(page) -> list[list[str]]:  # type: ignore[no-untyped-def]
    return page.locator("#melds .meld").evaluate_all(
        "sets => sets.map(s => [...s.querySelectorAll('.tile')].map(t => t.dataset.face))"
    )


def test_the_scratchpad_explains_end_turn_takes_back_undoes_and_plays(site, new_page):
    page = new_page()
    page.goto(seeded_table(site, page, "rearrange"))
    page.locator("#rack .tile").first.wait_for()
    end_turn = page.locator("#actions").get_by_role("button", name="End turn")
    why = page.locator("#table-why")
    start_sets, start_rack = table_sets(page), sorted(rack_faces(page))
    assert start_sets == [["r3", "r4", "r5", "r6"], ["k9", "y9", "b9"]]
    assert end_turn.is_disabled()
    assert "nothing has left your rack" in why.inner_text()

    # Two 2s make a new set that is not legal yet: red, "not a set", End turn off with that reason.
    click_rack(page, "b2")
    click_rack(page, "y2")
    page.locator("#melds").get_by_role("button", name="New set").click()
    new_set = page.locator("#melds .meld").nth(2)
    assert new_set.get_attribute("class").count("is-invalid") == 1
    assert new_set.get_by_text("not a set").is_visible()
    assert end_turn.is_disabled()
    assert "1 set on the table is not legal yet" in why.inner_text()
    screenshot(page, "rearrange-not-a-set")

    # The third 2 on that set makes it legal: End turn lights.
    click_rack(page, "k2")
    page.get_by_role("button", name="Add the selected tiles to set 3").click()
    assert table_sets(page)[2] == ["y2", "b2", "k2"]
    assert end_turn.is_enabled()
    assert "Every set is legal" in why.inner_text()

    # Take back returns one tile (the black 2) to the rack; Undo turn restores the start.
    page.locator("#actions").get_by_role("button", name="Take back").click()
    assert sorted(table_sets(page)[2]) == ["b2", "y2"] and "k2" in rack_faces(page)
    assert end_turn.is_disabled()
    page.locator("#actions").get_by_role("button", name="Undo turn").click()
    assert table_sets(page) == start_sets
    assert sorted(rack_faces(page)) == start_rack
    assert end_turn.is_disabled()

    # Red 7 dragged onto the run, the 2s as a new set: a legal play, sent and accepted.
    page.locator('#rack .tile[data-face="r7"]').drag_to(page.locator("#melds .meld").first)
    for face in ("b2", "y2", "k2"):
        click_rack(page, face)
    page.keyboard.press("l")
    assert table_sets(page) == [["r3", "r4", "r5", "r6", "r7"], ["k9", "y9", "b9"], ["y2", "b2", "k2"]]
    screenshot(page, "rearrange-table-desktop")
    end_turn.click()
    page.wait_for_function("() => !document.getElementById('table-app').classList.contains('is-my-turn')")
    assert len(rack_faces(page)) == 6
    assert table_sets(page) == [["r3", "r4", "r5", "r6", "r7"], ["k9", "y9", "b9"], ["y2", "b2", "k2"]]

    phone = new_page(PHONE)
    phone.goto(page.url)
    phone.locator("#melds .meld").nth(2).wait_for()
    assert phone.locator("#rack").count() == 0
    screenshot(phone, "rearrange-table-spectator-phone")


def test_the_opening_counter_at_the_top_counts_new_sets_from_the_rack_also_while_one_is_not_legal(site, new_page):
    page = new_page(LAPTOP)
    page.goto(seeded_table(site, page, "rearrange-opening"))
    page.locator("#rack .tile").first.wait_for()
    counter = page.locator("#felt-notes .meter")
    assert counter.locator(".meter__title").inner_text() == "Your opening"
    assert counter.locator(".meter__total").inner_text() == "0 of 30"

    click_rack(page, "r10")
    click_rack(page, "r11")
    page.keyboard.press("l")
    assert page.locator("#melds .meld").nth(1).get_by_text("not a set").is_visible()
    assert counter.is_visible() and counter.locator(".meter__total").inner_text() == "0 of 30"
    assert "not legal yet" in page.locator("#table-why").inner_text()

    click_rack(page, "r12")
    page.get_by_role("button", name="Add the selected tiles to set 2").click()
    assert counter.locator(".meter__total").inner_text() == "33 points: enough"
    assert counter.locator('[role="progressbar"]').get_attribute("aria-valuenow") == "30"
    assert page.locator("#actions").get_by_role("button", name="End turn").is_enabled()
    screenshot(page, "rearrange-opening-counter-desktop")

    # A tile added to the set already on the table counts nothing towards the opening (and may not move).
    click_rack(page, "k2")
    page.get_by_role("button", name="Add the selected tiles to set 1").click()
    assert counter.locator(".meter__total").inner_text() == "33 points: enough"
    assert "on your opening turn the sets already on the table stay" in page.locator("#table-why").inner_text()
