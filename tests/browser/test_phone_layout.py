"""On a phone, upright or sideways, the whole rack and its buttons stay on the screen: at the deal, on a
table of ten melds, with the opening tray open and with the chat open (the table scrolls above the rack;
the chat is a drawer over the table). The crowded position comes from the test-only hook (seeding.py)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE, screenshot
from tests.browser.test_house_keyboard import seeded_table

PHONE_SIDEWAYS = {"width": PHONE["height"], "height": PHONE["width"]}


def assert_rack_in_view(page, when: str) -> None:  # type: ignore[no-untyped-def]
    height = page.viewport_size["height"]
    for part in ("#rack", "#actions"):
        box = page.locator(part).bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height + 0.5, (when, part, box, height)


@pytest.mark.parametrize("size", [PHONE, PHONE_SIDEWAYS], ids=["upright", "sideways"])
def test_the_whole_rack_stays_on_a_phones_screen(site, new_page, size):
    page = new_page(size)
    url = seeded_table(site, page, "house-ten-melds")  # Play now first: the rack at the deal
    page.locator("#rack .tile").first.wait_for()
    assert_rack_in_view(page, "at the deal")
    # Play now against Easy runs no clock (the player may set one from the top bar)
    assert "No timer" in page.locator("#table-meta").inner_text()
    assert page.locator("#pace-select").input_value() == "0"

    page.goto(url)
    page.locator("#melds .meld").nth(9).wait_for()
    assert_rack_in_view(page, "ten melds")
    page.locator("#actions").get_by_role("button", name="Draw").click()
    page.locator("#rack .tile").nth(14).wait_for()
    for _ in range(2):  # y6 y7 y8, then b8 b9 b10 (they move up as the first three leave the rack)
        for index in (5, 6, 7):
            page.locator("#rack .tile").nth(index).click()
        page.locator("#actions").get_by_role("button", name="Add to opening").click()
    page.get_by_role("button", name="Lay the opening").wait_for()
    assert_rack_in_view(page, "the opening tray open")
    name = "upright" if size == PHONE else "sideways"
    screenshot(page, f"phone-{name}-tray")

    page.locator("#chat-title").click()
    page.locator("#chat-input").wait_for()
    assert_rack_in_view(page, "the chat open")
    screenshot(page, f"phone-{name}-chat")
