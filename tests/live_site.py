"""The real site in a process of its own, for tests that talk to it as a program would: daphne on a free
port, the embedded default (its own SQLite file, the in-process Celery worker, so the site's bots move and
its clocks run), nothing of the test run's own configuration inherited."""

from __future__ import annotations

import asyncio
import concurrent.futures
import importlib.util
import json
import os
import socket
import subprocess
import sys
import textwrap
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
NOT_INHERITED = ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS",
                 "DJANGO_SETTINGS_MODULE", "LIVE_BUS_CHANNEL")


class LiveSite:
    def __init__(self, url: str, env: dict[str, str], log: Path) -> None:
        self.url = url
        self.env = env
        self.log = log

    def manage(self, *args: str) -> str:
        """`manage.py ARGS` on the site's own database; its output."""
        done = subprocess.run([sys.executable, "manage.py", *args], env=self.env, cwd=ROOT, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout

    def shell(self, code: str) -> object:
        """Run `code` in `manage.py shell` on the site's database; the JSON its last line prints."""
        return json.loads(self.manage("shell", "-c", textwrap.dedent(code)).strip().splitlines()[-1])

    def bot_account(self, name: str) -> str:
        """A new bot account named `name` (its owner a new registered player), through the commands a
        script would use: a new token of it."""
        owner = f"owner-of-{name}"
        self.shell(f"from apps.accounts.models import User; User.objects.create_user(username={owner!r}); print(1)")
        self.manage("bot_account", "create", name, "--owner", owner)
        return self.manage("bot_token", "create", name).strip()

    def bot_accounts(self, *names: str) -> dict[str, str]:
        """New bot accounts (one owner each) and a token of each, in one go: {name: token}."""
        found = self.shell(f"""
            import json
            from apps.accounts.models import User
            from apps.bots.services import bot_account_create, token_create
            tokens = {{}}
            for name in {list(names)!r}:
                owner = User.objects.create_user(username="owner-of-" + name)
                user = bot_account_create(by=owner, username=name)
                tokens[name] = token_create(bot_id=user.pk, by=owner, name="tests")[1]
            print(json.dumps(tokens))
        """)
        assert isinstance(found, dict)
        return found

    def errors(self) -> list[str]:
        return problems_in(self.log)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def migrate(env: dict[str, str]) -> None:
    """The site's database of `env`, migrated (as a deployment would, before the servers start)."""
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], env=env, cwd=ROOT, check=True,
                   capture_output=True)


@contextmanager
def daphne(env: dict[str, str], log: Path, ceiling: float = 60.0) -> Iterator[str]:
    """daphne on a free port with `env`, its output in `log`: its address ("127.0.0.1:PORT") once `/livez`
    answers (the ceiling is generous: a busy machine starts it slowly); stopped afterwards."""
    port = free_port()
    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                                    "rummysite.asgi:application"], env=env, cwd=ROOT, stdout=out,
                                   stderr=subprocess.STDOUT)
    address = f"127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + ceiling
        while True:
            try:
                with urllib.request.urlopen(f"http://{address}/livez", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError(log.read_text(errors="replace")[-4000:]) from None
                time.sleep(0.2)
        yield address
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


def problems_in(log: Path) -> list[str]:
    """The lines of a server's log that say something went wrong."""
    return [line for line in log.read_text(errors="replace").splitlines() if "Traceback" in line or " ERROR " in line]


@contextmanager
def live_site(directory: Path, **settings: str) -> Iterator[LiveSite]:
    env = {key: value for key, value in os.environ.items() if key not in NOT_INHERITED}
    env.update({
        "DATABASE_URL": f"sqlite:///{directory / 'site.sqlite3'}",
        "CELERY_EMBEDDED": "1",
        "CELERY_BEAT_SCHEDULE_FILENAME": str(directory / "celerybeat-schedule"),
        "TABLE_BOT_DELAY": "0.05",
        "TABLE_NEXT_GAME_DELAY": "1",
        "TABLE_WEB_HEARTBEAT": "0",
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
        **settings,
    })
    migrate(env)
    log = directory / "server.log"
    with daphne(env, log) as address:
        yield LiveSite(f"http://{address}", env, log)


def load_example_bot() -> ModuleType:
    """examples/bot/bot.py, imported as a module (tests run its own functions)."""
    spec = importlib.util.spec_from_file_location("example_bot", ROOT / "examples" / "bot" / "bot.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def run(coroutine, ceiling: float = 300.0):  # type: ignore[no-untyped-def]
    """asyncio.run in a thread of its own (the browser tests keep Playwright's loop in the main thread),
    with a generous ceiling: a test waits on its condition, never on a time."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, asyncio.wait_for(coroutine, ceiling)).result()
