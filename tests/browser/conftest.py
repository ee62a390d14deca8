"""Browser tests: the real site in a subprocess (daphne on a free port, the embedded default with its own
SQLite file and in-memory channel layer, bots and timers run by the in-process Celery worker) driven by
Debian's Chromium through Playwright. Marked `browser`; skipped with a reason when Chromium or Playwright
is missing. Screenshots go to test-results/screenshots/ (CI keeps them as artifacts)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-results" / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"]
DESKTOP = {"width": 1280, "height": 900}
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
GAME_NAMES = {"tile-rummy": "Tile Rummy", "tile-rummy-rearrange": "Tile Rummy: Rearrange"}

#: Settings the server must not inherit from the test run (CI points them at PostgreSQL and Redis):
#: the site under test is self-contained.
_NOT_INHERITED = (
    "DATABASE_URL",
    "REDIS_URL",
    "CELERY_BROKER_URL",
    "SECRET_KEY",
    "DEBUG",
    "ALLOWED_HOSTS",
    "DJANGO_SETTINGS_MODULE",
)


@pytest.fixture(autouse=True)
def close_database_connections_of_async_code() -> None:
    """Overrides the suite's async fixture of that name: these tests use no database in this process,
    and Playwright's sync API runs its own event loop, beside which an async fixture cannot run."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here):
            item.add_marker(pytest.mark.browser)


def server_env(directory: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in _NOT_INHERITED}
    env.update(
        {
            "DATABASE_URL": f"sqlite:///{directory / 'site.sqlite3'}",
            "CELERY_EMBEDDED": "1",
            "CELERY_BEAT_SCHEDULE_FILENAME": str(directory / "celerybeat-schedule"),
            "TABLE_BOT_DELAY": "0.05",
            "TABLE_NEXT_GAME_DELAY": "4",
            "LOG_LEVEL": "WARNING",
            "PYTHONUNBUFFERED": "1",
            # Every page of the session comes from 127.0.0.1 to one site: SPEC 11's limits per address
            # are for strangers (their edges are tested in tests/accounts and tests/security).
            "GUESTS_PER_ADDRESS_PER_HOUR": "100000",
            "GUESTS_PER_ADDRESS_BURST": "100000",
            "LIVE_SOCKETS_PER_ADDRESS": "100000",
        }
    )
    return env


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_until_up(url: str, process: subprocess.Popen[bytes], log: Path, timeout: float = 40.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the site exited with {process.returncode}:\n{log.read_text()[-4000:]}")
        try:
            with urllib.request.urlopen(url + "/play/", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the site did not answer within {timeout} s:\n{log.read_text()[-4000:]}")


class Site:
    """The running site: its URL, and its environment (for the test-only hooks in seeding.py)."""

    def __init__(self, url: str, env: dict[str, str]) -> None:
        self.url = url
        self.env = env

    def manage(self, *args: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args], env=self.env, cwd=ROOT, capture_output=True, text=True, check=True
        )
        return done.stdout


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    _require_browser()
    directory = tmp_path_factory.mktemp("site")
    env = server_env(directory)
    for command in (["migrate", "--noinput", "-v", "0"], ["load_catalog"]):
        subprocess.run([sys.executable, "manage.py", *command], env=env, cwd=ROOT, check=True, capture_output=True)
    port = _free_port()
    log = directory / "server.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "rummysite.asgi:application"],
            env=env,
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(url, process, log)
        yield Site(url, env)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        errors = [line for line in log.read_text(errors="replace").splitlines() if "Traceback" in line or " ERROR " in line]
        if errors:
            print(f"\nThe site logged errors ({log}):\n" + "\n".join(errors[:20]))


def _require_browser() -> None:
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        pytest.skip(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.skip("Playwright for Python is not installed (pip install playwright)")


@pytest.fixture(scope="session")
def browser(site: Site) -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser, site: Site) -> Iterator[object]:  # type: ignore[no-untyped-def]
    """new_page(viewport=DESKTOP): a page in a fresh context (its own cookies: a new visitor).
    Script errors on any page fail the test."""
    contexts = []
    errors: list[str] = []

    def make(viewport: dict[str, int] = DESKTOP):  # type: ignore[no-untyped-def]
        context = browser.new_context(viewport=viewport, base_url=site.url)
        context.set_default_timeout(30_000)  # a generous ceiling: a busy machine serves a move slowly
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"script errors on the page: {errors}"


def play_now(page, game: str = "tile-rummy", level: str = "Easy", button: str | None = None) -> str:  # type: ignore[no-untyped-def]
    """Press Play now on the home page (one press: a guest made on the spot, a started table against the
    bot of that level); returns the table's URL. `button`: the button's name on a page in another language."""
    page.goto("/")
    name = button or f"Play {GAME_NAMES[game]} now against the {level} bot"
    page.get_by_role("button", name=name, exact=True).click()
    try:
        page.wait_for_url("**/t/*/", timeout=60_000)
    except Exception as error:  # say where it landed instead: a refusal page says why
        raise AssertionError(f"Play now landed on {page.url}: {page.inner_text('body')[:1500]}") from error
    return str(page.url)


def screenshot(page, name: str) -> Path:  # type: ignore[no-untyped-def]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path
