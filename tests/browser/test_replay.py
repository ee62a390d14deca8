"""The replay of a finished game in the browser (SPEC 13): the review is prepared by the site's own
worker while the page waits, the game is stepped through by keys to its end, the turns that could have
placed more are marked, and a turn of the review jumps the replay to it. The game comes from the
test-only hook in tests/browser/review_seeding.py."""

from __future__ import annotations

import json
import re
import subprocess
import sys

from tests.browser.conftest import PHONE, ROOT, screenshot


def seeded_game(site, slug: str = "tile-rummy-rearrange") -> dict:  # type: ignore[no-untyped-def]
    done = subprocess.run(
        [sys.executable, "-m", "tests.browser.review_seeding", slug], env=site.env, cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def caption(page) -> str:  # type: ignore[no-untyped-def]
    return page.locator("#replay-caption").inner_text()


def test_a_finished_game_is_replayed_by_keys_to_its_end_beside_its_review(site, new_page):
    game = seeded_game(site)
    assert game["missed"], "the seeded game has turns an Easy bot could have played better"
    page = new_page()
    response = page.goto(f"/replay/{game['game']}/")
    assert response is not None and "The review is being prepared…" in response.text()  # as the server sent it

    # The review arrives without a reload: the site's worker computed it.
    page.locator("#review-turns .review-turn").first.wait_for(timeout=30_000)
    missed = page.locator("#review-turns .review-turn.is-missed")
    assert missed.count() == len(game["missed"])
    assert "could have placed more" in page.locator("#review-summary").inner_text()
    assert "The deal" in caption(page)
    assert page.locator("#replay-racks .replay-rack").count() == 2
    assert page.locator("#replay-racks .replay-rack").first.locator(".tile").count() == 14  # every rack shown

    # Step forward by the arrow key, move by move, to the end of the game.
    page.locator("body").click(position={"x": 5, "y": 5})
    for number in range(1, game["moves"] + 1):
        page.keyboard.press("ArrowRight")
        if number in (1, game["moves"] // 2):
            assert f"Move {number} of {game['moves']}" in caption(page)
    assert f"Move {game['moves']} of {game['moves']}" in caption(page) and "Game over" in caption(page)
    page.keyboard.press("ArrowRight")  # past the end, nothing moves
    assert f"Move {game['moves']} of {game['moves']}" in caption(page)
    assert page.locator("#replay-slider").input_value() == str(game["moves"])
    screenshot(page, "replay-end-desktop")

    # Back one move by key, to the start by Home; a missed turn of the review jumps there.
    page.keyboard.press("ArrowLeft")
    assert f"Move {game['moves'] - 1} of {game['moves']}" in caption(page)
    page.keyboard.press("Home")
    assert "The deal" in caption(page)
    first = game["first_missed"]
    page.get_by_role("button", name=f"Go to turn {first['turn']}").click()
    expected = "The deal" if first["first"] == 0 else f"Move {first['first']} of {game['moves']}"
    assert expected in caption(page)
    assert page.locator("#review-turns .review-turn.is-current").count() == 1
    assert "Best:" in page.locator("#review-turns .review-turn.is-current").inner_text()
    screenshot(page, "replay-missed-turn-desktop")

    # Only the missed turns, then the page on a phone.
    page.get_by_label("Only the turns that could have placed more").check()
    assert page.locator("#review-turns .review-turn").count() == len(game["missed"])
    phone = new_page(PHONE)
    phone.goto(f"/replay/{game['game']}/")
    phone.locator("#review-turns .review-turn").first.wait_for()
    phone.get_by_role("button", name="One move forward").click()
    assert "Move 1 of" in caption(phone)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # nothing wider than the phone
    screenshot(phone, "replay-phone")
    phone.evaluate("document.getElementById('review-title').scrollIntoView()")
    screenshot(phone, "replay-review-phone")


def test_a_house_games_replay_and_review_say_moves_in_words_with_tiles_as_tiles(site, new_page):
    """Not "Played: lay y13 b13 k13 | y1 y2 y3 y4; discard r10": the moves in words, the tiles drawn."""
    game = seeded_game(site, "tile-rummy")
    page = new_page()
    page.goto(f"/replay/{game['game']}/")
    page.locator("#review-turns .review-turn").first.wait_for(timeout=30_000)
    turns = page.locator("#review-turns").inner_text()
    assert "Played: drew a tile" in turns or "Played: took the last discard" in turns
    assert not re.search(r"\b(draw|discard|lay|add|take) [rybkJ]", turns), turns[:400]
    assert page.locator("#review-turns .review-turn__played .tile").count() > 0
    page.locator("body").click(position={"x": 5, "y": 5})
    for _ in range(2):
        page.keyboard.press("ArrowRight")
    assert not re.search(r"\b(draw|discard)\b", caption(page)), caption(page)
    screenshot(page, "replay-house-words-desktop")
