"""How many table sockets one daphne lets in when many open at once (issue 14: a web process restarted,
and every client coming back).

    .venv/bin/python bench/handshakes.py --burst 300          # 300 sockets opened at the same moment
    .venv/bin/python bench/handshakes.py --ramp 250            # 250 tables' 1,225 sockets over 15 s, no moves

The real stack (bench/stack.py), tables of the house game opened through the services with no timer,
sockets with the players' session cookies. `--burst N`: N sockets at once over 20 tables' seats; it
prints how many opened before daphne's 5 s connect timeout and the handshake times of those. `--ramp M`:
bench/players.py's clients of M four-seat tables (and a spectator each) connect over 15 s and never
move; it prints how many were connected when the measurement began and ended, and the failed attempts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.stack import BIN, DEFAULT_DB, Stack, setup_django  # noqa: E402


async def open_one(url: str, cookie: str) -> float:
    from websockets.asyncio.client import connect

    started = time.perf_counter()
    async with connect(url, origin="http://127.0.0.1:8030", additional_headers=[("Cookie", cookie)],
                       open_timeout=60) as ws:
        opened = time.perf_counter() - started
        await ws.recv()  # the table's state: the socket is really open
        return opened


async def burst(tables: list[dict], count: int) -> None:
    seats = [(f"ws://127.0.0.1:8030/ws/tables/{t['id']}/", s["cookie"]) for t in tables for s in t["seats"] if s]
    started = time.perf_counter()
    results = await asyncio.gather(*[open_one(*seats[i % len(seats)]) for i in range(count)], return_exceptions=True)
    opened = sorted(r for r in results if isinstance(r, float))
    failed = sorted({type(r).__name__ for r in results if not isinstance(r, float)})
    print(f"{count} at once: {len(opened)} opened in {time.perf_counter() - started:.1f} s; failed: {failed or 'none'}")
    if opened:
        print(f"handshake of those opened: p50 {opened[len(opened) // 2] * 1000:.0f} ms, max {opened[-1] * 1000:.0f} ms")


def ramp(stack: Stack, tables: list[dict]) -> None:
    work = stack.log_dir / "ramp"
    work.mkdir(exist_ok=True)
    spec = {"urls": stack.urls(), "tables": tables, "ramp": 15, "warmup": 5, "duration": 20,
            "think": [1e6, 1e6], "ping_every": 5.0, "seed": 1}
    (work / "spec.json").write_text(json.dumps(spec))
    subprocess.run([str(BIN / "python"), str(ROOT / "bench" / "players.py"), str(work / "spec.json"),
                    str(work / "result.json")], cwd=ROOT, timeout=600, check=True)
    result = json.loads((work / "result.json").read_text())
    print(f"{result['clients']} sockets over 15 s: {result['connected_at_start']} open 5 s after the ramp, "
          f"{result['connected_at_end']} 25 s after; {result['connect_failures']} first attempts failed, "
          f"{result['reconnects']} retries")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--burst", type=int, help="sockets opened at the same moment")
    group.add_argument("--ramp", type=int, help="tables whose sockets connect over 15 s")
    parser.add_argument("--db", default=DEFAULT_DB)
    parser.add_argument("--redis-db", type=int, default=5)
    args = parser.parse_args()
    stack = Stack(ports=[8030], db=args.db, redis_db=args.redis_db, extra_env={})
    setup_django(args.db, args.redis_db)
    from bench import load

    stack.prepare()
    stack.start()
    try:
        tables = load.open_tables(20 if args.burst else args.ramp, turn_seconds=0)
        if args.burst:
            asyncio.run(burst(tables, args.burst))
        else:
            ramp(stack, tables)
        load.close_tables([table["id"] for table in tables])
    finally:
        stack.stop()


if __name__ == "__main__":
    main()
