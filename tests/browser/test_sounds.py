"""The table's sounds in the browser: a cue for a tile drawn or laid (each cue is announced as a
`table:sound` event, which these tests record), silent on a page nobody has touched yet (the browser's
autoplay rule) and heard once it has been, and a sound switch that is remembered across a reload. The position is the test-only
hook's house mid-game (tests/browser/seeding.py): the player is to draw."""

from __future__ import annotations

from tests.browser.conftest import DESKTOP, PHONE, screenshot
from tests.browser.test_house_keyboard import click_rack, watched_table

RECORD = "window.__sounds = []; window.addEventListener('table:sound', (e) => window.__sounds.push(e.detail));"


def recording(new_page):  # type: ignore[no-untyped-def]
    """new_page, with every page recording the cues it announces from its first script on."""

    def make(viewport):  # type: ignore[no-untyped-def]
        page = new_page(viewport)
        page.context.add_init_script(RECORD)
        return page

    return make


def cues(page) -> list[tuple[str, bool]]:  # type: ignore[no-untyped-def]
    return [(cue["name"], cue["audible"]) for cue in page.evaluate("window.__sounds")]


def test_cues_are_silent_until_the_page_is_touched_and_the_sound_switch_is_remembered(site, new_page):
    player, watcher, _ = watched_table(site, recording(new_page), "house-midgame", DESKTOP, PHONE)
    player.locator("#rack .tile").nth(9).wait_for()
    sound = player.get_by_role("button", name="Sound")
    assert sound.get_attribute("aria-pressed") == "true"  # on by default

    # The player draws (a press: the page may sound now); the watcher, who never touched the page, hears
    # nothing although it gets the same cue.
    player.locator("#actions").get_by_role("button", name="Draw").click()
    player.locator("#rack .tile").nth(10).wait_for()
    player.wait_for_function("() => window.__sounds.length > 0")
    assert cues(player) == [("draw", True)]
    watcher.wait_for_function("() => window.__sounds.length > 0")
    assert cues(watcher) == [("draw", False)]

    # Sound off, and it stays off after a reload; the next cue (a discard laid down) is silent for the
    # player, while the watcher, who has touched its page by now (sound on there), hears it.
    sound.click()
    assert sound.get_attribute("aria-pressed") == "false"
    player.reload()
    player.locator("#rack .tile").nth(10).wait_for()
    assert player.get_by_role("button", name="Sound").get_attribute("aria-pressed") == "false"
    assert player.evaluate("localStorage.getItem('tile-rummy:sound')") == '"off"'
    watcher.locator("#felt").click()
    watcher.evaluate("window.__sounds = []")
    click_rack(player, "y2")  # a press on the page, so only the switch keeps it quiet
    player.locator("#actions").get_by_role("button", name="Discard").click()
    player.wait_for_function("() => window.__sounds.some((cue) => cue.name === 'lay')")
    assert ("lay", False) in cues(player) and all(not audible for _, audible in cues(player))
    watcher.wait_for_function("() => window.__sounds.some((cue) => cue.name === 'lay')")
    assert ("lay", True) in cues(watcher)
    screenshot(player, "table-sound-off-desktop")
