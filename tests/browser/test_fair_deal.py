"""Provably fair deals in the browser (SPEC 11): Play now, the page's own seed reaches the deal, the
table shows the commitment, and after the match its page shows the check passing."""

from __future__ import annotations

import json
import re

from tests.browser.conftest import DESKTOP, PHONE, play_now, screenshot
from tests.browser.house_player import HousePlayer

FAIR_DEALS = "from apps.tables.models import FairDeal; import json; print(json.dumps([[f.commitment, f.seeds] for f in FairDeal.objects.order_by('-match_id')[:1]]))"


def test_the_browser_adds_its_seed_to_the_deal_and_the_match_page_shows_the_check(new_page, site):
    page = new_page()
    play_now(page)
    page.locator("#rack .tile").first.wait_for()
    [[commitment, seeds]] = json.loads(site.manage("shell", "-c", FAIR_DEALS).strip().splitlines()[-1])
    assert re.fullmatch(r"[0-9a-f]{32}", seeds[0]), seeds  # this page's crypto.getRandomValues seed
    assert seeds[1] == ""  # the bot's
    line = page.locator("#fair-line")
    assert line.is_visible() and commitment[:12] in line.inner_text()
    screenshot(page, "fair-table-desktop")
    page.set_viewport_size(PHONE)
    screenshot(page, "fair-table-phone")
    page.set_viewport_size(DESKTOP)

    HousePlayer(page).play_game()
    page.locator("#results").wait_for()
    page.locator("#fair-line a", has_text="check").wait_for()
    page.locator("#fair-line a", has_text="check").click()
    page.wait_for_url("**/matches/*/")
    check = page.locator(".fair-check")
    text = check.text_content() or ""
    assert check.locator(".verdict--ok").text_content() == "Checked" and commitment in text and seeds[0] in text
    screenshot(page, "fair-match-desktop")
    page.set_viewport_size(PHONE)
    screenshot(page, "fair-match-phone")
    check.get_by_role("link", name="How deals are checked").click()
    page.wait_for_url("**/fair-deals/")
    screenshot(page, "fair-explained-phone")
