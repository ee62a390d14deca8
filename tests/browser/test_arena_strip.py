"""At an arena's table the player sees the arena's line: its name (a link to its page), their rank and
points and the time left; once their match is over the way back to the arena comes first. On a phone,
upright and sideways, the rack stays on the screen with it; on a desktop it shares the top bar."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.browser.conftest import DESKTOP, PHONE, ROOT, screenshot
from tests.browser.test_house_keyboard import seeded_table
from tests.browser.test_phone_layout import PHONE_SIDEWAYS, assert_rack_in_view

#: Runs against the site's database (its own process, as tests/browser/seeding.py does): makes the table
#: an arena's, with its host seated at it, 8 points and a streak of 2; "over" marks the match finished.
ARENA = """
import os, sys
from datetime import timedelta
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummysite.settings")
import django
django.setup()
from django.utils import timezone
from apps.tables.models import Table
from apps.tournaments.models import ArenaSeat, ArenaTable, Entry, Tournament
table_id, what = int(sys.argv[1]), sys.argv[2]
if what == "over":
    ArenaTable.objects.filter(table_id=table_id).update(finished_at=timezone.now())
else:
    host = Table.objects.get(pk=table_id).host
    arena = Tournament.objects.create(name="Weekly arena, ratings below 1200", game="tile-rummy", seats="2",
        minutes=60, rated=False, starts_at=timezone.now() - timedelta(minutes=20), status="running")
    entry = Entry.objects.create(tournament=arena, user=host, points=8, streak=2, matches=3)
    arena_table = ArenaTable.objects.create(tournament=arena, table_id=table_id)
    ArenaSeat.objects.create(arena_table=arena_table, entry=entry, user_id=host.pk)
    print(arena.pk)
"""


def make_arena(site, url: str, what: str = "seat") -> str:  # type: ignore[no-untyped-def]
    table_id = url.strip("/").rsplit("/", 1)[-1]
    done = subprocess.run([sys.executable, "-c", ARENA, table_id, what], env=site.env, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize("size", [PHONE, PHONE_SIDEWAYS, DESKTOP], ids=["upright", "sideways", "desktop"])
def test_the_arena_line_at_the_table_and_the_way_back_when_the_match_is_over(site, new_page, size):
    page = new_page(size)
    url = seeded_table(site, page, "house-ten-melds")
    arena_id = make_arena(site, url)
    page.goto(url)
    strip = page.locator("#arena-strip")
    strip.get_by_text("ends in").wait_for()
    text = strip.inner_text()  # what shows (sideways the arena's name gives way to "Arena")
    assert "Arena" in text and "rank 1" in text and "×2" in text and "8 points" in text, text
    assert "Arena: Weekly arena, ratings below 1200" in (strip.text_content() or "")
    assert strip.get_by_text("ends in").is_visible()  # the time left is never cut off
    assert strip.locator("a").first.get_attribute("href") == f"/tournaments/{arena_id}/"
    assert page.get_by_role("link", name="Back to the arena").count() == 0
    page.locator("#melds .meld").nth(9).wait_for()
    if size != DESKTOP:
        assert_rack_in_view(page, "with the arena line")
    name = {PHONE["width"]: "upright", PHONE_SIDEWAYS["width"]: "sideways"}.get(size["width"], "desktop")
    screenshot(page, f"arena-strip-{name}")

    make_arena(site, url, "over")
    page.goto(url)
    back = page.get_by_role("link", name="Back to the arena")
    back.wait_for()
    assert back.is_visible() and back.get_attribute("href") == f"/tournaments/{arena_id}/"
    box = back.bounding_box()
    assert box is not None and 0 <= box["x"] and box["x"] + box["width"] <= size["width"], box  # never cut off
    page.locator("#rack .tile").first.wait_for()
    if size != DESKTOP:
        assert_rack_in_view(page, "with the way back")
    screenshot(page, f"arena-strip-{name}-over")


@pytest.mark.parametrize("size", [PHONE, PHONE_SIDEWAYS], ids=["upright", "sideways"])
def test_the_arena_line_in_romanian_on_a_phone(site, new_page, size):
    page = new_page(size)
    url = seeded_table(site, page, "house-ten-melds")
    make_arena(site, url)
    page.context.set_extra_http_headers({"Accept-Language": "ro-RO,ro;q=0.9"})
    page.goto(url)
    strip = page.locator("#arena-strip")
    strip.get_by_text("se termină în").wait_for()
    text = strip.inner_text()
    assert "locul 1" in text and "8 puncte" in text, text
    assert strip.get_by_text("se termină în").is_visible()
    assert "Arenă: Arena săptămânală, rating sub 1200" in (strip.text_content() or "")  # the calendar's name too
    page.locator("#rack .tile").first.wait_for()
    assert_rack_in_view(page, "with the arena line in Romanian")
    name = "upright" if size == PHONE else "sideways"
    screenshot(page, f"arena-strip-{name}-ro")
    make_arena(site, url, "over")
    page.goto(url)
    page.get_by_role("link", name="Înapoi la arenă").wait_for()
    page.locator("#rack .tile").first.wait_for()
    assert_rack_in_view(page, "with the way back in Romanian")
    screenshot(page, f"arena-strip-{name}-ro-over")


def test_a_seated_player_goes_berserk_from_the_arena_line_before_the_first_move(site, new_page):
    """The arena's page sends its players to their table at once, so Berserk is offered where they are:
    on the table's arena line, before the match's first move. Pressed, the player's running turn loses
    half its pace and the offer is gone."""
    page = new_page(DESKTOP)
    url = seeded_table(site, page, "house-opening")  # a timed match whose first turn is the player's
    make_arena(site, url)
    page.goto(url)
    berserk = page.locator("#arena-strip").get_by_role("button", name="Berserk")
    berserk.wait_for()
    page.locator("#rack .tile").first.wait_for()
    seconds = page.locator('[data-timer="text"]:visible').first
    assert int(seconds.inner_text()) > 30
    berserk.click()
    berserk.wait_for(state="detached")
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-timer=\"text\"]')].some((n) => !n.hidden && Number(n.textContent) <= 30)"
    )
