"""Presence (SPEC 13: a seat shows within 5 s whether its player is connected): how long after a
player's socket closes the other player's socket is told `{"type": "presence", "away": [1]}`, and how
long after it opens again it is told `away: []`.

    .venv/bin/python bench/presence.py                    # one daphne, the embedded bus
    REDIS_URL=redis://127.0.0.1:6379/6 .venv/bin/python bench/presence.py --two   # two daphnes, the Redis bus

The away figure includes the grace (TABLE_PRESENCE_GRACE_SECONDS, 2 s: a reload within it tells nobody).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from websockets.asyncio.client import connect  # noqa: E402

from tests.faults.test_live_server import free_port  # noqa: E402
from tests.faults.test_two_servers import Visitor, table_of, until_frame  # noqa: E402


def start(count: int, directory: Path) -> tuple[list[subprocess.Popen[bytes]], list[str]]:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DJANGO_SETTINGS_MODULE", "SECRET_KEY"}}
    env.update(DATABASE_URL=f"sqlite:///{directory / 'site.sqlite3'}", CELERY_EMBEDDED="0", LOG_LEVEL="WARNING",
               TABLE_WEB_HEARTBEAT="0", TABLE_FAIR_SEED_SECONDS="0", LIVE_BUS_CHANNEL=f"rummy-live:bench-presence:{os.getpid()}")
    if count == 1:
        env.pop("REDIS_URL", None)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    processes, urls = [], []
    for _ in range(count):
        port = free_port()
        processes.append(subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                                           "rummysite.asgi:application"], cwd=ROOT, env=env,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        urls.append(f"127.0.0.1:{port}")
    for url in urls:
        for _ in range(300):
            try:
                Visitor(url)
                break
            except OSError:
                time.sleep(0.2)
    return processes, urls


async def trial(a: str, b: str, table_id: int, host: Visitor, guest: Visitor) -> tuple[float, float]:
    query = "?presence=1"
    mine = await connect(f"ws://{a}/ws/tables/{table_id}/{query}", origin=f"http://{a}",
                         additional_headers=[("Cookie", host.cookie)], proxy=None)
    theirs = await connect(f"ws://{b}/ws/tables/{table_id}/{query}", origin=f"http://{b}",
                           additional_headers=[("Cookie", guest.cookie)], proxy=None)
    await until_frame(mine, "presence", away=[])
    closed = time.monotonic()
    await theirs.close()
    await until_frame(mine, "presence", away=[1])
    away = time.monotonic() - closed
    opened = time.monotonic()
    again = await connect(f"ws://{b}/ws/tables/{table_id}/{query}", origin=f"http://{b}",
                          additional_headers=[("Cookie", guest.cookie)], proxy=None)
    await until_frame(mine, "presence", away=[])
    back = time.monotonic() - opened
    await again.close()
    await mine.close()
    await asyncio.sleep(2.5)  # every socket's grace over before the next trial
    return away, back


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--two", action="store_true", help="two daphne processes on the Redis bus")
    parser.add_argument("--trials", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        processes, urls = start(2 if args.two else 1, Path(directory))
        try:
            a, b = urls[0], urls[-1]
            host, guest = Visitor(a), Visitor(a)
            host.post("/accounts/guest/")
            guest.post("/accounts/guest/")
            table_id = table_of(host.post("/play/new/", game="tile-rummy", seats="2", match_length="1",
                                          turn_seconds="60", seat_1=""))
            guest.post(f"/t/{table_id}/join/")
            figures = [asyncio.run(trial(a, b, table_id, host, guest)) for _ in range(args.trials)]
        finally:
            for process in processes:
                process.terminate()
                process.wait(10)
    aways, backs = [f[0] for f in figures], [f[1] for f in figures]
    print(f"{'two processes, Redis bus' if args.two else 'one process'}: {args.trials} trials")
    print(f"  away told after: median {statistics.median(aways):.2f} s, max {max(aways):.2f} s (goal: < 5 s)")
    print(f"  back told after: median {statistics.median(backs) * 1000:.0f} ms, max {max(backs) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
