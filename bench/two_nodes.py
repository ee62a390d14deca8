"""Two machines, simulated (issue 47): two "nodes", each its own daphne process and Celery worker, on one
PostgreSQL and a Redis Cluster of the drill's own (three masters, each with a replica, on loopback), the
live bus on the cluster's sharded pub/sub (REDIS_BUS_CLUSTER_URL; node A is given one master as its seed,
node B another). The players of each table sit on different nodes.

    .venv/bin/python bench/two_nodes.py [--tables 6] [--duration 70] [--out result.json]

First what must cross between the nodes, each checked with sockets of the drill's own: a chat message and
presence (a player on A, the other on B), a ban saved by a third process (the drill's) closing the
user's sockets on both nodes, a bot's token revoked closing its sockets on both. Then scripted players
(bench/players.py) play the tables across the nodes, and 15 s in the drill kills (SIGKILL) the cluster
master that owns the first table's channel. Goals: the replica takes over; no socket closes; every move
the server acknowledged is in the move log, none twice; every client ends on the database's version.
It prints how long the failover took, how long each node's bus took to subscribe at the new master, and
the longest time a client of a moved table saw no new version.

Ports (this drill's own): daphne 8141 (A) and 8142 (B); the cluster 7101-7106; the cache's and broker's
Redis 7110; database rummy_h3_nodes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import drills  # noqa: E402
from bench.stack import Stack, bench_env, setup_django  # noqa: E402

NODE_PORTS = {"A": 8141, "B": 8142}
CLUSTER_PORTS = tuple(range(7101, 7107))  # three masters, then their three replicas
CACHE_PORT = 7110
DB = "rummy_h3_nodes"
NODE_TIMEOUT_MS = 2000  # cluster-node-timeout: a master silent this long is failed over
CEILING = 60.0


@dataclass
class Node(Stack):
    """One node: a Stack on the drill's own ports (the bench's Stack allows only 8030-8039)."""

    def __post_init__(self) -> None:
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.env = bench_env(self.db, self.redis_db, self.redis_port, **self.extra_env)
        os.environ["BENCH_SECRET_KEY"] = self.env["SECRET_KEY"]


class Server:
    """One redis-server of the drill's own, in a directory of its own."""

    def __init__(self, port: int, directory: Path, *args: str) -> None:
        self.port, self.directory, self.args = port, directory, args
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        if answers(self.port):
            raise SystemExit(f"someone else's server answers on {self.port}: not the drill's to use")
        self.directory.mkdir(parents=True, exist_ok=True)
        log = open(self.directory / "redis.log", "ab")  # noqa: SIM115 - owned by the child's lifetime
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.directory), *self.args],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        if not wait_until(lambda: answers(self.port), 10):
            raise RuntimeError(f"redis-server on {self.port} did not start")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)


def answers(port: int) -> bool:
    import redis

    try:
        return bool(redis.Redis(port=port, socket_timeout=1, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


def wait_until(predicate: Any, timeout: float, step: float = 0.05) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return bool(predicate())


class Cluster:
    def __init__(self, directory: Path) -> None:
        self.servers = {port: Server(port, directory / f"cluster-{port}", "--cluster-enabled", "yes",
                                     "--cluster-config-file", "nodes.conf",
                                     "--cluster-node-timeout", str(NODE_TIMEOUT_MS)) for port in CLUSTER_PORTS}

    def start(self) -> None:
        for server in self.servers.values():
            server.start()
        subprocess.run(["redis-cli", "--cluster", "create", *(f"127.0.0.1:{port}" for port in CLUSTER_PORTS),
                        "--cluster-replicas", "1", "--cluster-yes"], check=True, capture_output=True, timeout=120)
        if not wait_until(lambda: self.state(CLUSTER_PORTS[0]) == "ok" and len(self.masters()) == 3
                          and self.replicas_in_sync(), CEILING, 0.25):
            raise RuntimeError("the cluster did not come up with three masters and their replicas in sync")

    def state(self, port: int) -> str:
        import redis

        try:
            return str(redis.Redis(port=port, socket_timeout=1).execute_command("CLUSTER INFO").get("cluster_state"))
        except redis.RedisError:
            return "down"

    def slots(self, asked: int) -> list[tuple[int, int, int]]:
        """(first slot, last slot, master port) as one node sees them."""
        import redis

        rows = redis.Redis(port=asked, socket_timeout=1).execute_command("CLUSTER SLOTS")
        return [(int(start), int(end), int(master[1])) for start, end, master, *_ in rows]

    def masters(self, asked: int | None = None) -> set[int]:
        for port in [asked] if asked else self.alive():
            try:
                return {master for _, _, master in self.slots(port)}
            except Exception:
                continue
        return set()

    def owner(self, slot: int, asked: int) -> int | None:
        try:
            return next(master for start, end, master in self.slots(asked) if start <= slot <= end)
        except Exception:
            return None

    def replicas_in_sync(self) -> bool:
        import redis

        for port in CLUSTER_PORTS:
            info = redis.Redis(port=port, socket_timeout=1).info("replication")
            if info.get("role") == "slave" and info.get("master_link_status") != "up":
                return False
        return True

    def alive(self) -> list[int]:
        return [port for port, server in self.servers.items() if server.process and server.process.poll() is None]

    def stop(self) -> None:
        for server in self.servers.values():
            server.kill()


# ---------------------------------------------------------------------------------------------------
# What crosses between the nodes, with the drill's own sockets


async def socket(node: str, path: str, headers: list[tuple[str, str]] | None = None) -> Any:
    from websockets.asyncio.client import connect

    url = f"127.0.0.1:{NODE_PORTS[node]}"
    return await connect(f"ws://{url}{path}", origin=f"http://{url}", additional_headers=headers or [], proxy=None,
                         open_timeout=30)


async def until_frame(ws: Any, kind: str, ceiling: float = 30.0, **fields: object) -> dict[str, Any]:
    async def wait() -> dict[str, Any]:
        while True:
            frame = json.loads(await ws.recv())
            if frame["type"] == kind and all(frame.get(key) == value for key, value in fields.items()):
                return frame

    result: dict[str, Any] = await asyncio.wait_for(wait(), ceiling)
    return result


async def close_code(ws: Any, ceiling: float = 30.0) -> int:
    from websockets.exceptions import ConnectionClosed

    async def wait() -> int:
        try:
            while True:
                await ws.recv()
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd is not None else -1

    return await asyncio.wait_for(wait(), ceiling)


def in_thread(work: Any) -> Any:
    """Run a coroutine in an event loop of its own (the drill's Django calls stay on this thread's side)."""
    out: list[Any] = []

    def run() -> None:
        try:
            out.append(asyncio.run(work))
        except BaseException as error:  # handed back
            out.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(300)
    if isinstance(out[0], BaseException):
        raise out[0]
    return out[0]


def crossing() -> None:
    from asgiref.sync import sync_to_async

    from apps.accounts.models import User
    from apps.accounts.services import user_ban
    from apps.bots.models import AccessToken
    from apps.bots.services import token_revoke
    from apps.tables import services
    from bench.load import session_cookie
    from tests.bots.helpers import make_bot

    print("\n== what crosses between the nodes", flush=True)
    (table, users) = drills.open_table(2)
    cookies = [session_cookie(user) for user in users]

    async def chat_and_presence() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], float]:
        query = f"/ws/tables/{table.pk}/?chat=1&presence=1"
        mine = await socket("A", query, [("Cookie", cookies[0])])
        await until_frame(mine, "chat_history")
        theirs = await socket("B", query, [("Cookie", cookies[1])])
        await until_frame(theirs, "chat_history")
        await until_frame(mine, "presence", away=[])
        said = time.monotonic()
        await theirs.send(json.dumps({"type": "chat", "text": "from node B"}))
        heard = await until_frame(mine, "chat")
        took = time.monotonic() - said
        await theirs.close()
        gone = await until_frame(mine, "presence", away=[1])
        again = await socket("B", query, [("Cookie", cookies[1])])
        back = await until_frame(mine, "presence", away=[])
        for ws in (mine, again):
            await ws.close()
        return heard, gone, back, took

    heard, gone, back, took = in_thread(chat_and_presence())
    drills.goal("crossing", "chat from B reaches A", heard["message"]["text"] == "from node B",
                f"heard {1000 * took:.0f} ms after it was sent")
    drills.goal("crossing", "presence crosses", gone["away"] == [1] and back["away"] == [],
                "the player on B went away and came back, as seen from A")

    banned = User.objects.create_user(username=f"node-ban-{uuid.uuid4().hex[:8]}")
    at = services.table_open(by=banned, game="tile-rummy", seat_count=2, bots=["easy"])
    cookie = session_cookie(banned)

    async def ban() -> list[int]:
        sockets = [await socket(node, f"/ws/tables/{at.pk}/", [("Cookie", cookie)]) for node in ("A", "B")]
        for ws in sockets:
            await until_frame(ws, "state")
        from datetime import timedelta

        from django.utils import timezone

        await sync_to_async(user_ban)(user_id=banned.pk, until=timezone.now() + timedelta(days=1), reason="drill")
        return [await close_code(ws) for ws in sockets]

    codes = in_thread(ban())
    drills.goal("crossing", "a ban closes the user's sockets on both nodes", codes == [4403, 4403],
                f"close codes {codes} (saved by the drill's own process)")

    bot, secret = make_bot(f"node-bot-{uuid.uuid4().hex[:8]}")

    async def revoke() -> list[int]:
        sockets = [await socket(node, "/ws/lobby/", [("Authorization", f"Bearer {secret}")]) for node in ("A", "B")]
        for ws in sockets:
            await until_frame(ws, "invitations")
        token = await sync_to_async(AccessToken.objects.get)(bot__user=bot)
        owner = await sync_to_async(lambda: bot.bot_account.owner)()
        await sync_to_async(token_revoke)(token_id=token.pk, by=owner)
        return [await close_code(ws) for ws in sockets]

    codes = in_thread(revoke())
    drills.goal("crossing", "a revoked token's sockets close on both nodes", codes == [4401, 4401],
                f"close codes {codes}")


# ---------------------------------------------------------------------------------------------------
# Play across the nodes, and kill a master


def channel_of(topic: str) -> bytes:
    from django.conf import settings

    return f"{settings.LIVE_BUS_CHANNEL}:{topic}".encode()


def shard_subscribers(port: int, channel: bytes) -> int:
    import redis

    try:
        reply = redis.Redis(port=port, socket_timeout=1).execute_command("PUBSUB SHARDNUMSUB", channel)
    except redis.RedisError:
        return -1
    # redis-py parses it as NUMSUB's [(channel, count)]; raw, it is [channel, count]
    return int(reply[0][1] if isinstance(reply[0], (list, tuple)) else reply[1])


def failover(cluster: Cluster, tables: int, duration: float) -> None:
    from redis.crc import key_slot

    print(f"\n== {tables} tables played across the nodes; a cluster master killed 15 s in", flush=True)
    playing = [drills.open_table(2) for _ in range(tables)]
    urls = [f"ws://127.0.0.1:{NODE_PORTS['A']}", f"ws://127.0.0.1:{NODE_PORTS['B']}"]
    spec = drills.player_spec(playing, urls=urls, duration=duration)
    for table in spec["tables"]:
        table["urls"] = urls  # a table's seats go to the nodes in turn: its two players on different nodes
    stack_like = Node(ports=[], db=DB, redis_port=CACHE_PORT, redis_db=0, log_dir=LOG_DIR / "players")
    process, work = drills.start_players(stack_like, spec, "players")
    first = playing[0][0].pk
    channel = channel_of(f"table:{first}")
    slot = key_slot(channel)
    victim = cluster.owner(slot, CLUSTER_PORTS[0]) or CLUSTER_PORTS[0]
    time.sleep(15)
    moved = [table.pk for table, _ in playing
             if cluster.owner(key_slot(channel_of(f"table:{table.pk}")), CLUSTER_PORTS[0]) == victim]
    before = shard_subscribers(victim, channel)
    killed_at = time.monotonic()
    killed_wall = time.time()
    cluster.servers[victim].kill()
    survivor = next(port for port in CLUSTER_PORTS if port != victim)
    print(f"  killed master {victim} (owner of table {first}'s slot {slot}, and of {len(moved)} of the {tables}"
          f" tables' channels; both nodes subscribed there: {before} subscribers)", flush=True)
    new_owner: list[int] = []

    def taken_over() -> bool:
        owner = cluster.owner(slot, survivor)
        if owner is not None and owner != victim and cluster.state(survivor) == "ok":
            new_owner.append(owner)
            return True
        return False

    took_over = wait_until(taken_over, CEILING, 0.05)
    failed_over = time.monotonic() - killed_at
    resubscribed = took_over and wait_until(lambda: shard_subscribers(new_owner[-1], channel) >= 2, CEILING, 0.05)
    subscribed_after = time.monotonic() - killed_at
    drills.goal("failover", "the replica takes over", took_over,
                f"slot {slot} served by {new_owner[-1] if new_owner else None} {failed_over:.1f} s after the kill"
                f" (cluster-node-timeout {NODE_TIMEOUT_MS} ms)")
    drills.goal("failover", "both nodes' buses subscribe at the new master", resubscribed,
                f"{shard_subscribers(new_owner[-1], channel) if new_owner else 0} subscribers of table {first}'s"
                f" channel there {subscribed_after:.1f} s after the kill")
    result = drills.finish_players(process, work, duration + 120)
    stalls = []
    for table_id in moved:
        for history in result["history"][str(table_id)].values():
            times = sorted(t for _, t in history)
            around = [t for t in times if t >= killed_wall - 10]
            gaps = [(b - a, a) for a, b in zip(around, around[1:], strict=False) if b >= killed_wall]
            if gaps:
                stalls.append(max(gaps)[0])
    print(f"  clients of the {len(moved)} moved tables: longest wait for a new version across the kill"
          f" {max(stalls, default=float('nan')):.1f} s (median {sorted(stalls)[len(stalls) // 2] if stalls else float('nan'):.1f} s;"
          f" players think 1-3 s between moves)", flush=True)
    print(f"  reconnects: {result['reconnects']}, syncs after a pong: {result['syncs_after_pong']},"
          f" error frames: {result['errors']}", flush=True)
    drills.goal("failover", "no socket closed", result["drops"] == 0, f"{result['drops']} connections dropped")
    drills.check_nothing_lost("failover", playing, result)


LOG_DIR = Path(f"/tmp/rummy-two-nodes-{os.getpid()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--duration", type=float, default=70.0)
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    if shutil.which("redis-server") is None:
        raise SystemExit("redis-server is not installed: the drill starts its own cluster")
    print(f"Logs: {LOG_DIR}", flush=True)
    cluster = Cluster(LOG_DIR)
    cache = Server(CACHE_PORT, LOG_DIR / "cache")
    nodes: list[Node] = []
    try:
        cache.start()
        cluster.start()
        print(f"cluster up: masters {sorted(cluster.masters())}, each with a replica", flush=True)
        for name, seed, beat in (("A", CLUSTER_PORTS[0], True), ("B", CLUSTER_PORTS[1], False)):
            nodes.append(Node(ports=[NODE_PORTS[name]], db=DB, redis_port=CACHE_PORT, redis_db=0, beat=beat,
                              worker_concurrency=1, log_dir=LOG_DIR / f"node-{name}",
                              extra_env={"REDIS_BUS_CLUSTER_URL": f"redis://127.0.0.1:{seed}/0"}))
        nodes[0].prepare()
        setup_django(DB, 0, CACHE_PORT, REDIS_BUS_CLUSTER_URL=f"redis://127.0.0.1:{CLUSTER_PORTS[2]}/0")
        for node in nodes:
            node.start()
        crossing()
        failover(cluster, args.tables, args.duration)
    finally:
        for node in nodes:
            node.stop()
        cluster.stop()
        cache.kill()
        problems = [line for node in nodes for line in drills.log_problems(node)]
        print(f"  server log: {len(problems)} tracebacks / ERROR lines", flush=True)
        for line in problems[:8]:
            print("    ", line)
    print("\nSummary")
    for drill, goals in drills.results.items():
        for name, outcome in goals.items():
            print(f"  {drill:10} {'met    ' if outcome['met'] else 'NOT MET'}  {name}: {outcome['figure']}")
    if args.out:
        Path(args.out).write_text(json.dumps(drills.results, indent=1))


if __name__ == "__main__":
    main()
