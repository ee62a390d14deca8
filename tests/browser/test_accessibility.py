"""WCAG 2.2 AA, checked by axe-core (the copy axe-playwright-python bundles, run inside the page) on every
kind of page a player meets: home, lobby, a live table of each game, the rules pages, a profile and the
sign-up page; in English and in Romanian, on a phone and on a desktop (issue 41, item 9). Each test opens
its page once per language and checks it at both sizes. Screenshots of every page checked go to
test-results/screenshots/a11y-*.png. And at the table, focus starts somewhere useful (the status line) and
a skip link leads to the rack."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, PHONE, ROOT, screenshot
from tests.browser.keys import FOCUS_IN_RACK

#: WCAG 2.0, 2.1 and 2.2, levels A and AA (axe's tags; 2.2 adds only AA rules to axe's set).
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
SIZES = {"phone": PHONE, "desktop": DESKTOP}
LANGUAGES = {"en": "en-GB,en;q=0.9", "ro": "ro-RO,ro;q=0.9"}
GAMES = ("tile-rummy", "tile-rummy-rearrange")
#: A table in the middle of each game (tests/browser/seeding.py): melds with their captions, a running clock.
MIDGAME = {"tile-rummy": "house-ten-melds", "tile-rummy-rearrange": "rearrange"}


def visitor(new_page: Any, language: str) -> Any:
    page = new_page(DESKTOP)
    page.context.set_extra_http_headers({"Accept-Language": LANGUAGES[language]})
    return page


#: The contrast of text axe cannot judge by itself (it marks it "incomplete"): over a gradient (the felt,
#: the tiles, the rack), over another element, or too short for axe to call it text (a tile's number). The
#: colours behind the text are those of every element under its centre down to the first opaque one,
#: each gradient by every colour stop of it, semi-transparent layers and opacity blended; the worst
#: ratio counts. Needed: 4.5:1, or 3:1 for large text (24 px, or 18.66 px bold) and for symbols
#: (non-text contrast). Disabled buttons are measured the same way (WCAG exempts them; we want them
#: readable all the same).
CONTRAST = r"""([targets, symbols]) => {
  const parse = (text) => {
    const m = /rgba?\(([^)]+)\)/.exec(text);
    if (!m) return null;
    const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const stopsOf = (image) => [...image.matchAll(/rgba?\([^)]+\)/g)].map((m) => parse(m[0]));
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat([1]);
  const lum = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const opacity = (el) => { let o = 1; for (let n = el; n && n.nodeType === 1; n = n.parentElement) o *= Number(getComputedStyle(n).opacity); return o; };
  const hex = (c) => "#" + c.slice(0, 3).map((v) => Math.round(v).toString(16).padStart(2, "0")).join("");
  const measure = (el, symbol) => {
    el.scrollIntoView({ block: "center", inline: "center" });
    const box = el.getBoundingClientRect();
    let stack = document.elementsFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    const at = stack.indexOf(el);
    if (at >= 0) stack = stack.slice(at);
    else { stack = []; for (let n = el; n && n.nodeType === 1; n = n.parentElement) stack.push(n); }
    const layers = [];
    let unknown = false;
    for (const node of stack) {
      const style = getComputedStyle(node);
      const alpha = opacity(node);
      if (style.backgroundImage !== "none") {
        if (!style.backgroundImage.includes("gradient")) { unknown = true; break; }
        const stops = stopsOf(style.backgroundImage).map((c) => [c[0], c[1], c[2], c[3] * alpha]);
        layers.push(stops);
        if (stops.every((c) => c[3] >= 1)) break;
      }
      const bg = parse(style.backgroundColor);
      if (bg && bg[3] > 0) { layers.push([[bg[0], bg[1], bg[2], bg[3] * alpha]]); if (bg[3] * alpha >= 1) break; }
    }
    if (unknown) return null;
    let behind = [[255, 255, 255, 1]];
    for (const stops of layers.reverse()) {
      const next = [];
      for (const under of behind) for (const stop of stops) next.push(over(stop, under));
      behind = next.slice(0, 64);
    }
    const style = getComputedStyle(el);
    const fg = parse(style.color);
    fg[3] *= opacity(el);
    let worst = null;
    for (const bg of behind) {
      const r = ratio(over(fg, bg), bg);
      if (!worst || r < worst.ratio) worst = { ratio: r, fg: hex(over(fg, bg)), bg: hex(bg) };
    }
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    return { ...worst, needed: symbol || large ? 3 : 4.5, size, text: (el.innerText || el.getAttribute("aria-label") || "").trim().slice(0, 30) };
  };
  const found = [];
  targets.forEach((selector, i) => {
    const el = typeof selector === "string" ? document.querySelector(selector) : selector;
    if (!el) return;
    const result = measure(el, symbols[i]);
    found.push({ selector: String(selector), ...(result || { ratio: null }) });
  });
  for (const el of document.querySelectorAll("button:disabled, .button[aria-disabled=true]")) {
    // Its text: the element around the first words shown (a pile's count is a span over its stack).
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT, (node) =>
      node.textContent.trim() && node.parentElement.getClientRects().length ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_SKIP);
    const text = walker.nextNode();
    if (!text) continue;
    const result = measure(text.parentElement, false);
    found.push({ selector: "disabled: " + (el.id || el.className), ...(result || { ratio: null }) });
  }
  return found;
}"""


def violations(page: Any) -> list[str]:
    """axe's WCAG A/AA violations on the page as it is now, and the contrast of the text axe left
    undecided (see CONTRAST), one line per element."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": WCAG_AA}})
    found = []
    for violation in results.response["violations"]:
        for node in violation["nodes"]:
            summary = " ".join(node.get("failureSummary", "").split())
            found.append(f"{violation['id']} ({violation['impact']}) {node['target']}: {summary[:300]}")
    undecided = [
        node for rule in results.response["incomplete"] if rule["id"] == "color-contrast" for node in rule["nodes"]
    ]
    undecided = [node for node in undecided if node["target"][0] not in ("html", ":root")]  # axe's whole page
    targets = [node["target"][0] for node in undecided]
    symbols = [any(check.get("data", {}).get("messageKey") == "nonBmp" for check in node["any"]) for node in undecided]
    for item in page.evaluate(CONTRAST, [targets, symbols]):
        if item["ratio"] is None:
            print(f"contrast not measured (a picture behind it): {item['selector']}")
        elif item["ratio"] < item["needed"]:
            found.append(
                f"contrast {item['ratio']:.2f}:1 < {item['needed']}:1 {item['selector']} ({item['text']!r}, "
                f"{item['size']:.1f} px, {item['fg']} on {item['bg']})"
            )
    return found


def audit(page: Any, name: str, found: list[str], ready: Any = None) -> None:
    """Check the page at both sizes (loaded again at each), with a screenshot of each."""
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.reload()  # loaded at that size: what the scripts decide at load (a folded chat) is a phone's
        if ready is not None:
            ready(page)
        page.evaluate("() => window.scrollTo(0, 0)")  # a reload keeps the place the last check scrolled to
        screenshot(page, f"a11y-{name}-{size}")
        found += [f"{name} at {size}: {line}" for line in violations(page)]


def assert_none(found: list[str]) -> None:
    assert not found, f"{len(found)} WCAG 2.2 AA violations found by axe:\n" + "\n".join(found)


def test_the_home_and_lobby_pages_meet_wcag_aa(new_page):
    found: list[str] = []
    for language in LANGUAGES:
        page = visitor(new_page, language)
        page.goto("/")
        page.keyboard.press("Tab")  # the first stop of every page: its skip link, shown when focused
        assert page.evaluate("() => document.activeElement.matches('.skip-link')"), language
        assert page.locator(".skip-link").bounding_box()["x"] >= 0
        screenshot(page, f"a11y-home-skip-link-{language}")
        audit(page, f"home-{language}", found)
        page.goto("/play/")
        audit(page, f"lobby-{language}", found)
    assert_none(found)


def test_the_rules_pages_of_both_games_meet_wcag_aa(new_page):
    found: list[str] = []
    for language in LANGUAGES:
        page = visitor(new_page, language)
        for game in GAMES:
            page.goto(f"/games/{game}/rules/")
            audit(page, f"rules-{game}-{language}", found)
    assert_none(found)


def test_the_sign_up_page_meets_wcag_aa(new_page):
    found: list[str] = []
    for language in LANGUAGES:
        page = visitor(new_page, language)
        page.goto("/accounts/signup/")
        audit(page, f"signup-{language}", found)
    assert_none(found)


def play_now(page: Any, game: str) -> None:
    """Play now against Easy from the home page, in whatever language the page is in."""
    page.goto("/")
    page.locator(f'form.play-now:has(input[name="game"][value="{game}"]) button[value="easy"]').click()
    page.wait_for_url("**/t/*/", timeout=60_000)
    page.locator("#rack .tile").first.wait_for()


@pytest.mark.parametrize("game", GAMES)
def test_a_live_table_meets_wcag_aa_and_starts_focus_where_the_player_acts(new_page, site, game):
    found: list[str] = []
    for language in LANGUAGES:
        page = visitor(new_page, language)
        play_now(page, game)
        # The keyboard starts on the rack (not 28 Tabs away from it, past the header and the chat).
        page.wait_for_function(FOCUS_IN_RACK)
        # The first Tab stop is the skip link to the rack, which takes the focus there.
        first = "() => document.querySelector('a[href], button, input, select, textarea, [tabindex]')"
        assert page.evaluate(first + ".getAttribute('href')") == "#rack"
        page.locator("#chat-title").focus()
        page.locator('.skip-link[href="#rack"]').focus()
        assert page.locator('.skip-link[href="#rack"]').bounding_box()["x"] >= 0
        screenshot(page, f"a11y-table-{game}-skip-link-{language}")
        page.keyboard.press("Enter")
        page.wait_for_function(FOCUS_IN_RACK)
        audit(page, f"table-{game}-{language}", found, ready=lambda page: page.locator("#rack .tile").first.wait_for())
    table = page.url.rstrip("/").rsplit("/", 1)[-1]
    seeded = [sys.executable, "-m", "tests.browser.seeding", MIDGAME[game], "--host-of-table", table]
    done = subprocess.run(seeded, env=site.env, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    page.goto(f"/t/{done.stdout.strip().splitlines()[-1]}/")
    audit(
        page,
        f"table-{game}-midgame-{language}",
        found,
        ready=lambda page: page.locator("#melds .meld").first.wait_for(),
    )
    # On a phone the player's block sticks to the bottom: a tile of the table the keyboard reaches is
    # scrolled clear of it, not hidden behind it (WCAG 2.4.11).
    page.set_viewport_size(PHONE)
    page.reload()
    page.locator("#melds .meld").first.wait_for()
    hidden = """() => { const tiles = document.querySelectorAll('#melds .tile'); const last = tiles[tiles.length - 1];
      last.focus(); return last.getBoundingClientRect().bottom - document.getElementById('me').getBoundingClientRect().top; }"""
    assert page.evaluate(hidden) <= 0, "the focused tile is behind the player's block"
    screenshot(page, f"a11y-table-{game}-midgame-focus-phone")
    assert_none(found)


def test_a_profile_page_meets_wcag_aa(new_page):
    found: list[str] = []
    for language in LANGUAGES:
        page = visitor(new_page, language)
        play_now(page, "tile-rummy")
        page.locator(".site-nav__user").click()
        page.wait_for_url("**/u/*/")
        audit(page, f"profile-{language}", found)
    assert_none(found)
