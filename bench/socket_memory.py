"""Memory per WebSocket of one daphne process: its resident set with 0, then N, 2N, ... table sockets open
(spectators of open tables, ten per table, each sent the table's state frame), measured after the
frames are sent and the process is quiet. For the capacity plan (docs/operations.md, "Scale").

    .venv/bin/python bench/socket_memory.py [--steps 500,1000,2000] [--per-table 5]

On the drill's own port 8143, database rummy_h3_nodes (bench/two_nodes.py makes it) and Redis db 3.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.stack import setup_django  # noqa: E402
from bench.two_nodes import DB, Node  # noqa: E402

PORT = 8143
REDIS_DB = 3


def rss_mib(pid: int) -> float:
    return float(psutil.Process(pid).memory_info().rss) / 2**20


async def open_sockets(table_ids: list[int], count: int, opened: list[object]) -> None:
    from websockets.asyncio.client import connect

    url = f"127.0.0.1:{PORT}"
    while len(opened) < count:
        table_id = table_ids[len(opened) % len(table_ids)]
        ws = await connect(f"ws://{url}/ws/tables/{table_id}/?chat=1&presence=1", origin=f"http://{url}",
                           proxy=None, open_timeout=60, max_size=2**22)
        opened.append(ws)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", default="500,1000,2000")
    parser.add_argument("--per-table", type=int, default=10)
    args = parser.parse_args()
    steps = [int(step) for step in args.steps.split(",")]
    node = Node(ports=[PORT], db=DB, redis_port=6379, redis_db=REDIS_DB, worker=False, beat=False,
                log_dir=Path(f"/tmp/rummy-socket-memory-{PORT}"))
    node.prepare(flush_redis=True)
    setup_django(DB, REDIS_DB, 6379)
    from apps.tables import services
    from bench.load import ensure_users

    host = ensure_users(1)[0]
    tables = [services.table_open(by=host, game="tile-rummy", seat_count=4, bots=["easy"] * 3).pk
              for _ in range(max(steps) // args.per_table)]
    node.start()
    try:
        pid = node.pids()[f"daphne-{PORT}"]
        time.sleep(3)
        base = rss_mib(pid)
        print(f"daphne {pid}: {base:.1f} MiB with no socket ({len(tables)} open tables, {args.per_table} sockets each)")
        opened: list[object] = []

        async def run() -> None:
            previous, at = base, 0
            for step in steps:
                await open_sockets(tables, step, opened)
                await asyncio.sleep(5)  # the rooms' checks and presence settle
                now = rss_mib(pid)
                print(f"  {step:>5} sockets: {now:7.1f} MiB; {1024 * (now - previous) / (step - at):6.1f} KiB per socket"
                      f" since the last step, {1024 * (now - base) / step:6.1f} KiB per socket in all", flush=True)
                previous, at = now, step
            for ws in opened:
                await ws.close()  # type: ignore[attr-defined]

        asyncio.run(run())
    finally:
        node.stop()


if __name__ == "__main__":
    main()
