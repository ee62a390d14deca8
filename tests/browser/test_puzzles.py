"""The puzzle trainer (SPEC 18, issue 46's "done when"): a visitor opens a Rearrange puzzle at /puzzles/,
solves it by drag and drop on the table's own UI, and is told it was the best play there is.

The puzzle is the starter set's first (r-26e8b0e54e28, from self-play): the group r5 y5 k5 lends its y5
to a new run y5 y6 y7 and takes the rack's b5; the best play places 3 of y6 y7 b3 b5."""

from __future__ import annotations

from tests.browser.conftest import PHONE, screenshot

KEY = "r-26e8b0e54e28"


def test_a_visitor_solves_a_rearrange_puzzle_by_drag_and_drop_and_is_told_it_is_the_best_play(new_page, site):
    pk = site.manage(
        "shell", "-c", f"from apps.puzzles.models import Puzzle; print(Puzzle.objects.get(key='{KEY}').pk)"
    ).split()[-1]
    page = new_page()
    page.goto(f"/puzzles/{pk}/")
    page.locator("#rack .tile").first.wait_for()
    assert page.locator("#rack .tile").evaluate_all("tiles => tiles.map(t => t.dataset.face)") == [
        "y6",
        "y7",
        "b3",
        "b5",
    ]
    group = page.locator("#melds .meld", has=page.locator('.tile[data-face="r5"]')).filter(
        has=page.locator('.tile[data-face="k5"]')
    )
    group.locator('.tile[data-face="y5"]').drag_to(page.locator("#melds .new-set"))
    run = page.locator("#melds .meld").last
    assert run.locator(".tile").evaluate_all("tiles => tiles.map(t => t.dataset.face)") == ["y5"]
    page.locator('#rack .tile[data-face="y6"]').drag_to(run)
    page.locator('#rack .tile[data-face="y7"]').drag_to(page.locator("#melds .meld").last)
    page.locator('#rack .tile[data-face="b5"]').drag_to(group)
    check = page.get_by_role("button", name="Check")
    assert check.is_enabled()
    check.click()
    verdict = page.locator("#verdict")
    verdict.get_by_text("That is the best play there is").wait_for()
    assert "3 tiles placed" in verdict.inner_text()
    assert "Your puzzle rating: 1500 →" in verdict.inner_text()
    screenshot(page, "puzzle-solved-desktop")
    page.get_by_role("button", name="Show the solution").first.click()
    page.locator("#solution .meld").first.wait_for()
    phone = new_page(PHONE)
    phone.goto(f"/puzzles/{pk}/")
    phone.locator("#rack .tile").first.wait_for()
    screenshot(phone, "puzzle-phone")
