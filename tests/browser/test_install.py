"""The site installs like an app, in Chromium: the page's manifest is valid, the service worker registers
for the whole site and takes control, a page asked for without a network gets the offline page (and the
page again once the network is back), the worker never keeps a table's page; on a touch screen the table
offers Full screen, which puts the table alone on the screen."""

from __future__ import annotations

from tests.browser.conftest import PHONE, play_now, screenshot

CACHED_URLS = """async () => {
  const urls = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) urls.push(new URL(request.url).pathname);
  }
  return urls;
}"""


def test_the_manifest_is_valid_and_the_service_worker_registers_for_the_whole_site(new_page):
    page = new_page(PHONE)
    page.goto("/")
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    manifest = page.evaluate("async (href) => (await fetch(href)).json()", href)
    assert manifest["name"] and manifest["short_name"] and manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    assert {icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png"} >= {"192x192", "512x512"}
    for icon in manifest["icons"]:
        size = page.evaluate(
            "async (src) => { const img = new Image(); img.src = src; await img.decode(); return [img.naturalWidth, img.naturalHeight]; }",
            icon["src"],
        )
        if icon["sizes"] != "any":
            assert "x".join(map(str, size)) == icon["sizes"], icon

    scope = page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
    assert scope == page.url  # the home page's URL: the whole site
    page.reload()
    assert page.evaluate("() => navigator.serviceWorker.controller !== null")
    shell = page.evaluate(CACHED_URLS)
    assert "/offline/" in shell and all(url == "/offline/" or url.startswith("/static/") for url in shell)


def test_without_a_network_a_page_is_the_offline_page_and_a_table_is_never_kept(new_page):
    page = new_page(PHONE)
    table_url = play_now(page)
    page.locator("#rack .tile").first.wait_for()
    page.evaluate("async () => navigator.serviceWorker.ready")
    page.reload()
    page.locator("#rack .tile").first.wait_for()
    assert page.evaluate("() => navigator.serviceWorker.controller !== null")
    assert not [url for url in page.evaluate(CACHED_URLS) if url.startswith("/t/")]

    page.context.set_offline(True)
    page.goto(table_url)
    page.get_by_role("heading", name="You are offline").wait_for()
    assert page.locator("#rack").count() == 0  # no old copy of the table
    screenshot(page, "offline-phone")
    page.context.set_offline(False)
    page.locator("#rack .tile").first.wait_for(timeout=60_000)  # the table again, by itself
    assert page.url == table_url


def test_on_a_touch_screen_the_table_offers_full_screen_which_shows_the_table_alone(browser, site):
    context = browser.new_context(viewport={"width": 844, "height": 390}, base_url=site.url, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        play_now(page, "tile-rummy-rearrange")
        page.locator("#rack .tile").first.wait_for()
        button = page.get_by_role("button", name="Full screen")
        assert button.is_visible() and button.get_attribute("aria-pressed") == "false"
        button.click()
        page.wait_for_function("() => document.fullscreenElement === document.getElementById('table-app')")
        assert button.get_attribute("aria-pressed") == "true"
        box = page.locator("#table-app").bounding_box()
        assert (box["x"], box["y"], box["width"], box["height"]) == (0, 0, 844, 390)
        screenshot(page, "table-fullscreen-landscape-phone")
        button.click()
        page.wait_for_function("() => document.fullscreenElement === null")
    finally:
        context.close()


def test_on_a_desktop_the_table_has_no_full_screen_button(new_page):
    page = new_page()
    play_now(page)
    page.locator("#rack .tile").first.wait_for()
    assert page.get_by_role("button", name="Full screen").is_hidden()
