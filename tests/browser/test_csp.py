"""With the site running in Chromium, its pages work under the Content Security Policy: no violation
is reported on the home page, the lobby, the offline page or a table page (while the table plays over
its WebSocket), with the service worker registered from each."""

from __future__ import annotations

import pytest

from tests.browser.conftest import play_now

pytestmark = pytest.mark.browser

RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(`${event.violatedDirective} blocked ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`);
});
"""


def violations(page) -> list[str]:  # type: ignore[no-untyped-def]
    return list(page.evaluate("window.__cspViolations"))


def test_the_home_page_the_lobby_and_a_table_page_run_without_a_csp_violation(new_page):
    page = new_page()
    page.context.add_init_script(RECORD_VIOLATIONS)
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    seen = {}

    response = page.goto("/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.wait_for_load_state("networkidle")
    seen["home"] = violations(page)

    page.goto("/play/")
    page.wait_for_load_state("networkidle")
    seen["lobby"] = violations(page)

    page.goto("/offline/")  # the service worker's offline page
    page.wait_for_load_state("networkidle")
    seen["offline"] = violations(page)

    play_now(page)
    page.locator("#rack .tile").first.wait_for()  # the page's modules ran and the WebSocket delivered
    page.wait_for_timeout(1500)  # a bot move or two over the socket
    seen["table"] = violations(page)

    assert seen == {"home": [], "lobby": [], "offline": [], "table": []}
    assert [line for line in console if "Content Security Policy" in line] == []

    # The control: the policy is enforced and the recorder hears it (an inline handler is refused).
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<img src=\"data:,\" onerror=\"window.__ran=1\">')")
    page.wait_for_timeout(300)
    assert page.evaluate("window.__ran") is None
    assert any("script-src" in violation for violation in violations(page)), violations(page)


def test_the_admin_runs_without_a_csp_violation(new_page, site):
    """The moderators' pages are under the same policy: the dashboard, a list with its filters and
    actions, a change form with its widgets, and the table admin."""
    password = "a long moderator passphrase 42"
    site.manage(
        "shell", "-c",
        "from apps.accounts.models import User; "
        f"User.objects.filter(username='csp-mod').exists() or User.objects.create_user('csp-mod', 'mod@example.com', {password!r}, is_staff=True, is_superuser=True)",
    )
    page = new_page()
    page.context.add_init_script(RECORD_VIOLATIONS)
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))

    page.goto("/admin/")
    page.wait_for_url("**/accounts/login/**")  # the admin signs in through the site's own login page
    page.locator("input[name=login]").fill("csp-mod")
    page.locator("input[name=password]").fill(password)
    page.get_by_role("button", name="Sign In").click()
    page.wait_for_url("**/admin/")
    seen = {"dashboard": violations(page)}
    response = page.goto("/admin/")
    assert "script-src 'self'" in response.headers["content-security-policy"]

    for name, path in [("users", "/admin/accounts/user/"), ("tables", "/admin/tables/table/")]:
        page.goto(path)
        page.wait_for_load_state("networkidle")
        seen[name] = violations(page)
    page.goto("/admin/accounts/user/")
    page.get_by_role("link", name="csp-mod").first.click()
    page.wait_for_load_state("networkidle")
    assert page.locator("input[name=username]").input_value() == "csp-mod"
    seen["change form"] = violations(page)

    assert seen == {"dashboard": [], "users": [], "tables": [], "change form": []}
    assert [line for line in console if "Content Security Policy" in line] == []
