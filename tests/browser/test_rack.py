"""The rack in the browser: "keep sorted" by colour stays on as tiles arrive (a drawn tile lands where it
sorts, not at the right end), and the player's own order is kept for this table and game across a reload
and in another tab (localStorage). The position is the test-only hook's house mid-game (seeding.py): the
player is to draw, and the pile's first tile is red 1."""

from __future__ import annotations

from tests.browser.test_house_keyboard import rack_faces, seeded_table

COLOURS = "rybk"


def by_colour(faces: list[str]) -> list[str]:
    return sorted(faces, key=lambda face: (9, 0) if face == "J" else (COLOURS.index(face[0]), int(face[1:])))


def test_keep_sorted_by_colour_holds_after_a_draw_and_survives_a_reload(site, new_page):
    page = new_page()
    page.goto(seeded_table(site, page, "house-midgame"))
    page.locator("#rack .tile").nth(9).wait_for()
    by_colour_button = page.get_by_role("button", name="By colour")
    assert by_colour_button.get_attribute("aria-pressed") == "false"

    by_colour_button.click()
    assert by_colour_button.get_attribute("aria-pressed") == "true"
    assert rack_faces(page) == by_colour(rack_faces(page))

    page.locator("#actions").get_by_role("button", name="Draw").click()
    page.locator("#rack .tile").nth(10).wait_for()
    faces = rack_faces(page)
    assert faces == by_colour(faces) and faces[0] == "r1"  # the drawn red 1 went first, not to the end
    assert page.locator("#rack .tile").first.get_attribute("aria-label") == "red 1, just drawn"

    page.reload()
    page.locator("#rack .tile").nth(10).wait_for()
    assert rack_faces(page) == faces
    assert page.get_by_role("button", name="By colour").get_attribute("aria-pressed") == "true"


def test_the_players_own_order_is_kept_across_a_reload_and_in_another_tab_and_ends_keep_sorted(site, new_page):
    page = new_page()
    url = seeded_table(site, page, "house-midgame")
    page.goto(url)
    page.locator("#rack .tile").nth(9).wait_for()
    page.get_by_role("button", name="By number").click()
    sorted_faces = rack_faces(page)

    # The player moves the first tile two places right with the keyboard: their order now.
    page.locator("#rack .tile").first.focus()
    page.keyboard.press("Shift+ArrowRight")
    page.keyboard.press("Shift+ArrowRight")
    mine = [sorted_faces[1], sorted_faces[2], sorted_faces[0], *sorted_faces[3:]]
    assert rack_faces(page) == mine
    assert page.get_by_role("button", name="By number").get_attribute("aria-pressed") == "false"

    page.reload()
    page.locator("#rack .tile").nth(9).wait_for()
    assert rack_faces(page) == mine

    other_tab = page.context.new_page()
    other_tab.goto(url)
    other_tab.locator("#rack .tile").nth(9).wait_for()
    assert rack_faces(other_tab) == mine
    assert other_tab.get_by_role("button", name="By number").get_attribute("aria-pressed") == "false"
