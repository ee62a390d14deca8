"""The Web Push pipeline under load (issue 45): "your turn" events at 10,000 a minute through the real
subscriber, a real Celery worker (Redis broker) and a push service on loopback, and the time from each
move's commit to its push arriving at the push service.

- Events: `apps.lib.events.deliver([TurnPassed(...)])`, as apps/tables/effects.py calls it right after a
  move's commit, from generator processes (the web processes' part), paced evenly over the minute. Each
  event is a new table (a new notification, topic `table-<id>`); its commit time is taken just before
  `deliver`. The players are a mix: without a subscribed browser (no task queued), with one, with two,
  with five; some of the subscriptions are dead (the push service answers 410: removed at the first push),
  and some events find the player with a socket open at that table (the task runs and sends nothing).
- The worker: `celery -A rummysite worker --concurrency N` (prefork), on PostgreSQL and a Redis database of
  the bench's own, with NOTIFICATIONS_PUSH_DELAY as in the settings (2 s, SPEC 17).
- The push service: tests/notifications/push_service.py in a process of its own (HTTP/1.1, keep-alive as
  real push services), stamping each POST when its body has arrived. After the run every push is checked
  as a push service and a browser would: the VAPID JWT verifies with the site's key for that audience and
  has not expired, TTL, topic, urgency and content encoding are there, and the payload decrypts with that
  browser's keys and names that event's table.
- Measured: the worker's throughput and CPU (its main process and pool, from /proc) per event and per task,
  the generators' CPU per event (the subscriber), the backlog each second (the broker's queue, the messages
  the worker holds, the pushes due and not yet arrived), and p50/p95/p99 from commit to push arrival.
- `--before REV` runs the same load first through a worker on the tree at REV (`git archive`), then through
  the working tree's: before and after in one run, on the same machine load. `--reuse-connections` adds a
  third phase: the working tree with the worker keeping its PostgreSQL connection between tasks (Celery's
  Django fixup closes it before and after every task unless CELERY_DB_REUSE_MAX is set; this module
  doubles as that settings overlay: CELERY_DB_REUSE_MAX, and Django's own close_old_connections after
  each task, which honours CONN_MAX_AGE and the health checks).

    .venv/bin/python bench/push_pipeline.py [--events 10000] [--seconds 60] [--before REV]
        [--db rummy_h4] [--redis-db 14] [--port 8641] [--concurrency 2] [--generators 2]
"""

from __future__ import annotations

import argparse
import base64
import json
import math
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

if os.environ.get("DJANGO_SETTINGS_MODULE") == "bench.push_pipeline":  # the worker's settings overlay
    from celery.signals import task_postrun
    from django.db import close_old_connections

    from rummysite.settings import *  # noqa: F403

    CELERY_DB_REUSE_MAX = 1_000_000  # Celery's fixup closes the connections every 1,000,000 tasks only...
    task_postrun.connect(lambda **kwargs: close_old_connections(), weak=False)  # ...Django's rules otherwise

from bench.stack import BIN, bench_env, setup_django  # noqa: E402

TABLE_BASE = 50_000_000  # the events' tables: ids no real table has (a notification only keeps the id)
#: The players' mix: (share of players, subscribed browsers).
MIX = ((0.40, 0), (0.40, 1), (0.15, 2), (0.05, 5))
DEAD_SHARE = 0.02  # of subscriptions: the push service answers 410 Gone
AT_TABLE_SHARE = 0.10  # of events: the player has a socket open at that table (no push)


# --- the push service, in a process of its own ----------------------------------------------------------


def serve_push(port: int, out_path: str) -> None:
    """tests/notifications/push_service.py on `port`, speaking HTTP/1.1 (connections kept, as FCM, Mozilla
    and Apple's push services do); each POST is written to `out_path` as one JSON line, stamped when its
    body has been read. A path with '/gone-' in it is answered 410."""
    from http.server import ThreadingHTTPServer

    from tests.notifications.push_service import PushService, Received

    out = open(out_path, "a", buffering=1)  # noqa: SIM115 - lives as long as the process
    lock = threading.Lock()

    class Recorder:
        def append(self, item: Received) -> None:
            stamp = time.time()
            line = json.dumps({"t": stamp, "path": item.path, "h": item.headers,
                               "body": base64.b64encode(item.body).decode()})
            with lock:
                out.write(line + "\n")

    class Statuses(dict[str, int]):
        def get(self, path: str, default: Any = None) -> Any:  # type: ignore[override]
            return 410 if "/gone-" in path else 201

    service = PushService()
    handler = service.server.RequestHandlerClass
    handler.protocol_version = "HTTP/1.1"  # type: ignore[attr-defined]
    service.server.server_close()
    service.server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    service.server.daemon_threads = True
    service.received = Recorder()  # type: ignore[assignment]
    service.status = Statuses()
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})  # the serving threads inherit the mask
    thread = threading.Thread(target=service.server.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True)
    thread.start()
    print("ready", flush=True)
    signal.sigwait({signal.SIGTERM})
    service.server.shutdown()
    service.server.server_close()
    out.close()


# --- measuring processes --------------------------------------------------------------------------------

CLOCK = os.sysconf("SC_CLK_TCK")


def group_cpu(pgid: int) -> float:
    """CPU seconds (user + system) of the live processes of process group `pgid`."""
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:  # fields after the name: state ppid pgrp ...
            total += int(fields[11]) + int(fields[12])
    return total / CLOCK


def redis_count(redis_db: int, *command: str) -> int:
    out = subprocess.run(["redis-cli", "-n", str(redis_db), *command], capture_output=True, text=True).stdout
    return int(out.strip() or 0)


def percentile(values: list[float], share: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


# --- the players and their browsers ----------------------------------------------------------------------


@dataclass
class Player:
    user_id: int
    endpoints: list[str] = field(default_factory=list)


def make_players(count: int, phase: str, origin: str, rng: random.Random) -> tuple[list[Player], dict[str, Any]]:
    """`count` bench players, their subscriptions made anew for this phase; returns them and the browsers
    by endpoint path (their private keys, to decrypt what arrives)."""
    from apps.accounts.models import User
    from apps.notifications.models import Notification, PushSettings, PushSubscription
    from tests.notifications.push_service import Browser, b64url

    users = list(User.objects.filter(username__startswith="pipeline-").order_by("pk").values_list("pk", flat=True))
    if len(users) < count:
        User.objects.bulk_create([User(username=f"pipeline-{n}") for n in range(len(users), count)])
        users = list(User.objects.filter(username__startswith="pipeline-").order_by("pk").values_list("pk", flat=True))
    users = users[:count]
    Notification.objects.filter(user_id__in=users).delete()
    PushSubscription.objects.filter(user_id__in=users).delete()
    PushSettings.objects.filter(user_id__in=users).delete()
    players, browsers, subscriptions = [], {}, []
    cuts = []
    acc = 0.0
    for share, devices in MIX:
        acc += share
        cuts.append((acc, devices))
    for n, user_id in enumerate(users):
        devices = next(d for cut, d in cuts if (n + 0.5) / count <= cut + 1e-9)
        player = Player(user_id)
        for k in range(devices):
            dead = rng.random() < DEAD_SHARE
            path = f"/push/{phase}-{'gone-' if dead else ''}{user_id}-{k}"
            browser = Browser(auth=os.urandom(16))
            browsers[path] = browser
            player.endpoints.append(path)
            subscriptions.append(PushSubscription(user_id=user_id, endpoint=origin + path, p256dh=browser.p256dh,
                                                  auth=b64url(browser.auth), language=rng.choice(["en", "ro"])))
        players.append(player)
    PushSubscription.objects.bulk_create(subscriptions)
    PushSettings.objects.bulk_create([PushSettings(user_id=p.user_id) for p in players if p.endpoints])
    return players, browsers


# --- the events --------------------------------------------------------------------------------------------


def generate(share: int, shares: int, plan: list[tuple[int, int, bool]], start: float, interval: float,
             results: Any) -> None:
    """Generator process `share` of `shares`: delivers its events of `plan` (table, user, at table) at
    their times after `start`; puts (index, commit time) pairs and its CPU on `results`."""
    from django.db import connections

    from apps.lib.events import deliver
    from apps.notifications import presence
    from apps.tables.events import TurnPassed

    connections.close_all()
    stamps = []
    cpu_start = time.process_time()
    late = 0.0
    for index in range(share, len(plan), shares):
        table_id, user_id, at_table = plan[index]
        due = start + index * interval
        wait = due - time.time()
        if wait > 0:
            time.sleep(wait)
        else:
            late = max(late, -wait)
        if at_table:
            presence.arrived(table_id, user_id)
        committed = time.time()  # the move's transaction has committed: apps/tables/effects.py delivers now
        deliver([TurnPassed(table_id=table_id, seat=0, user_id=user_id)])
        stamps.append((index, committed))
    results.put((share, stamps, time.process_time() - cpu_start, late))
    connections.close_all()


# --- one phase: a worker on one tree, the whole load through it ------------------------------------------------


def start_worker(tree: Path, env: dict[str, str], concurrency: int, log: Path,
                 reuse: bool = False) -> subprocess.Popen[bytes]:
    worker_env = dict(env, PYTHONPATH=f"{tree}:{ROOT}" if reuse else str(tree))
    if reuse:
        worker_env["DJANGO_SETTINGS_MODULE"] = "bench.push_pipeline"
    return subprocess.Popen(
        [str(BIN / "celery"), "-A", "rummysite", "worker", "--loglevel=WARNING", f"--concurrency={concurrency}",
         "--without-gossip", "--without-mingle", "--without-heartbeat", "-n", f"pipeline-{os.getpid()}@localhost"],
        cwd=tree, env=worker_env, stdout=open(log, "ab"), stderr=subprocess.STDOUT, start_new_session=True,  # noqa: SIM115
    )


def stop(process: subprocess.Popen[Any]) -> None:
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(5)


def read_pushes(path: Path, offset: int) -> tuple[list[dict[str, Any]], int]:
    with open(path, "rb") as handle:
        handle.seek(offset)
        data = handle.read()
    end = data.rfind(b"\n") + 1
    lines = [json.loads(line) for line in data[:end].splitlines() if line]
    return lines, offset + end


def run_phase(name: str, tree: Path, args: argparse.Namespace, env: dict[str, str], public: str,
              log_dir: Path, reuse: bool = False) -> dict[str, Any]:
    from django.db import connections

    from tests.notifications.push_service import check_vapid

    rng = random.Random(f"{args.seed}-{name}")
    subprocess.run(["redis-cli", "-n", str(args.redis_db), "FLUSHDB"], check=True, stdout=subprocess.DEVNULL)
    origin = f"http://127.0.0.1:{args.port}"
    players, browsers = make_players(args.players, name, origin, rng)
    pushes_path = log_dir / f"pushes-{name}.jsonl"
    pushes_path.write_text("")
    service = subprocess.Popen([str(BIN / "python"), __file__, "--serve-push", str(args.port), str(pushes_path)],
                               cwd=ROOT, env=env, stdout=subprocess.PIPE, start_new_session=True,
                               stderr=open(log_dir / f"push-service-{name}.log", "ab"))  # noqa: SIM115
    assert service.stdout is not None and service.stdout.readline().strip() == b"ready"
    worker = start_worker(tree, env, args.concurrency, log_dir / f"worker-{name}.log", reuse)
    try:
        # Warm-up: the pool's children import everything and open their connections before the clock.
        subscribed = [p for p in players if p.endpoints and not any("gone-" in e for e in p.endpoints)]
        warm_plan = [(TABLE_BASE - 1000 - n, subscribed[n].user_id, False) for n in range(4 * args.concurrency)]
        context = multiprocessing.get_context("fork")
        queue: Any = context.Queue()
        connections.close_all()  # a forked process must not share the parent's connections
        warm = context.Process(target=generate, args=(0, 1, warm_plan, time.time(), 0.0, queue))
        warm.start()
        queue.get(timeout=60)
        warm.join(10)
        expected = sum(len(subscribed[n].endpoints) for n in range(len(warm_plan)))
        offset, seen = 0, 0
        ceiling = time.monotonic() + 120
        while seen < expected:
            lines, offset = read_pushes(pushes_path, offset)
            seen += len(lines)
            if time.monotonic() > ceiling:
                raise RuntimeError(f"the worker sent {seen} of {expected} warm-up pushes in 120 s; see {log_dir}")
            time.sleep(0.2)

        # The load.
        plan = []
        for n in range(args.events):
            player = players[rng.randrange(len(players))]
            plan.append((TABLE_BASE + n, player.user_id, bool(player.endpoints) and rng.random() < AT_TABLE_SHARE))
        interval = args.seconds / args.events
        load_before = os.getloadavg()
        cpu_before = group_cpu(worker.pid)
        service_cpu_before = group_cpu(service.pid)
        start = time.time() + 0.5
        results = context.Queue()
        connections.close_all()
        generators = [context.Process(target=generate, args=(k, args.generators, plan, start, interval, results))
                      for k in range(args.generators)]
        for process in generators:
            process.start()
        samples = []  # (seconds since start, broker queue, held by the worker, pushes arrived so far)
        arrived = 0
        generated: dict[int, float] = {}
        generator_cpu, late, finished = 0.0, 0.0, 0
        quiet_since = None
        ceiling = start + args.seconds + 600
        while True:
            time.sleep(1.0)
            lines, offset = read_pushes(pushes_path, offset)
            arrived += len(lines)
            llen = redis_count(args.redis_db, "LLEN", "celery")
            held = redis_count(args.redis_db, "HLEN", "unacked")
            now = time.time()
            samples.append((now - start, llen, held, arrived))
            while finished < len(generators) and not results.empty():  # read before they can exit
                _, stamps, cpu, behind = results.get()
                generated.update(stamps)
                generator_cpu += cpu
                late = max(late, behind)
                finished += 1
            done_generating = finished == len(generators)
            if done_generating and llen == 0 and held == 0:
                if quiet_since is None:
                    quiet_since = now
                elif now - quiet_since > 3:
                    break
            else:
                quiet_since = None
            if now > ceiling:
                print(f"  {name}: not drained {ceiling - start:.0f} s after the start", flush=True)
                break
        worker_cpu = group_cpu(worker.pid) - cpu_before
        service_cpu = group_cpu(service.pid) - service_cpu_before
        load_after = os.getloadavg()
        for process in generators:
            process.join(10)
    finally:
        stop(worker)
        service.send_signal(signal.SIGTERM)
        service.wait(30)

    # What arrived, checked as a push service and a browser would.
    pushes, _ = read_pushes(pushes_path, 0)
    verified_headers: set[str] = set()
    latencies, first_arrival = [], {}
    checked = 0
    for push in pushes:
        table_id = int(push["h"]["topic"].removeprefix("table-"))
        index = table_id - TABLE_BASE
        if index < 0:
            continue  # warm-up
        headers = push["h"]
        assert headers["ttl"] == str(12 * 60 * 60) and headers["urgency"] == "high", headers
        assert headers["content-encoding"] == "aes128gcm", headers
        if headers["authorization"] not in verified_headers:
            claims = check_vapid(headers["authorization"], public, origin)
            assert claims["exp"] > push["t"], claims
            verified_headers.add(headers["authorization"])
        body = browsers[push["path"]].decrypt(base64.b64decode(push["body"]))
        assert body["tag"] == headers["topic"] and str(table_id) in body["body"], body
        checked += 1
        latency = push["t"] - generated[index]
        latencies.append(latency)
        first_arrival[index] = min(first_arrival.get(index, math.inf), push["t"])

    # Who should have had a push: subscribed, not at the table, and a browser still alive (dead ones go at
    # their first push, so a later event of that player has fewer browsers).
    by_user = {p.user_id: p for p in players}
    with_task = sum(1 for table_id, user_id, _ in plan if by_user[user_id].endpoints)
    pushed_events = sorted(first_arrival)
    deliberate = float(env["NOTIFICATIONS_PUSH_DELAY"])
    backlog = []
    arrival_times = sorted(first_arrival.values())
    due_times = sorted(generated[i] + deliberate for i in pushed_events)
    for elapsed, llen, held, _ in samples:
        moment = start + elapsed
        due = bisect_right(due_times, moment)
        done = bisect_right(arrival_times, moment)
        backlog.append((elapsed, llen, held, due - done))
    last_push = max((p["t"] for p in pushes), default=start)
    return {
        "name": name, "events": len(generated), "with_task": with_task, "pushes": checked,
        "gone": sum(1 for p in pushes if "gone-" in p["path"] and int(p["h"]["topic"][6:]) >= TABLE_BASE),
        "pushed_events": len(pushed_events),
        "generation_seconds": max(generated.values()) - min(generated.values()) if generated else 0,
        "generator_late": late, "generator_cpu_ms": generator_cpu * 1000 / max(1, len(generated)),
        "worker_cpu_s": worker_cpu, "worker_cpu_ms_event": worker_cpu * 1000 / max(1, len(generated)),
        "worker_cpu_ms_task": worker_cpu * 1000 / max(1, with_task),
        "service_cpu_ms_push": service_cpu * 1000 / max(1, checked),
        "drain_seconds": last_push - start,
        "throughput": len(pushed_events) / max(1e-9, last_push - start - deliberate),
        "capacity": with_task / max(1e-9, worker_cpu),
        "p50": percentile(latencies, 0.50), "p95": percentile(latencies, 0.95), "p99": percentile(latencies, 0.99),
        "max": max(latencies, default=math.nan),
        "vapid_headers": len(verified_headers), "backlog": backlog, "load": (load_before, load_after),
    }


def bisect_right(values: list[float], x: float) -> int:
    import bisect

    return bisect.bisect_right(values, x)


def report(result: dict[str, Any]) -> None:
    r = result
    print(f"\n== {r['name']}: {r['events']} events in {r['generation_seconds']:.1f} s (generators at most "
          f"{r['generator_late'] * 1000:.0f} ms behind schedule), {r['with_task']} with a task, "
          f"{r['pushed_events']} events pushed, {r['pushes']} pushes verified ({r['gone']} answered 410), "
          f"{r['vapid_headers']} distinct VAPID headers")
    print(f"   commit -> push arrived: p50 {r['p50']:.3f} s, p95 {r['p95']:.3f} s, p99 {r['p99']:.3f} s, "
          f"max {r['max']:.3f} s")
    print(f"   worker CPU {r['worker_cpu_s']:.1f} s: {r['worker_cpu_ms_event']:.2f} ms per event, "
          f"{r['worker_cpu_ms_task']:.2f} ms per task; subscriber (generators) {r['generator_cpu_ms']:.2f} ms "
          f"per event; push service {r['service_cpu_ms_push']:.2f} ms per push")
    print(f"   last push {r['drain_seconds']:.1f} s after the start; {r['throughput']:.0f} events pushed a second "
          f"(at most the rate the generators made them); the worker's capacity {r['capacity']:.0f} tasks per CPU "
          f"second (one core); "
          f"load average (1, 5 min) {r['load'][0][0]:.2f}/{r['load'][0][1]:.2f} before, "
          f"{r['load'][1][0]:.2f}/{r['load'][1][1]:.2f} after")
    rows = r["backlog"]
    step = max(1, len(rows) // 15)
    print("   backlog (s: broker queue, held by the worker, pushes due not arrived): " + ", ".join(
        f"{e:.0f}: {q}/{h}/{d}" for e, q, h, d in rows[::step]))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--serve-push", nargs=2, metavar=("PORT", "FILE"))
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--db", default="rummy_h4")
    parser.add_argument("--redis-db", type=int, default=14)
    parser.add_argument("--port", type=int, default=8641)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--generators", type=int, default=2)
    parser.add_argument("--before", help="a git revision: run the same load through a worker on that tree first")
    parser.add_argument("--reuse-connections", action="store_true",
                        help="a last phase: the working tree with the worker keeping its database connection")
    parser.add_argument("--seed", default="45")
    args = parser.parse_args()
    if args.serve_push:
        serve_push(int(args.serve_push[0]), args.serve_push[1])
        return

    from apps.notifications.management.commands.vapid_keys import new_pair

    public, private = new_pair()
    extra = {"WEBPUSH_VAPID_PUBLIC_KEY": public, "WEBPUSH_VAPID_PRIVATE_KEY": private,
             "WEBPUSH_VAPID_SUBJECT": "mailto:bench@example.org",
             "NOTIFICATIONS_PUSH_DELAY": os.environ.get("NOTIFICATIONS_PUSH_DELAY", "2.0")}
    env = bench_env(args.db, args.redis_db, **extra)
    subprocess.run([str(BIN / "python"), "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    setup_django(args.db, args.redis_db, **extra)
    from django.conf import settings

    settings.NOTIFICATIONS_PUSH_ALLOW_HTTP = True
    log_dir = Path(tempfile.mkdtemp(prefix="push-pipeline-"))
    trees = []
    if args.before:
        before = log_dir / "before"
        before.mkdir()
        archive = subprocess.run(["git", "archive", args.before], cwd=ROOT, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(before)], input=archive, check=True)
        trees.append((f"before ({args.before})", before))
    trees.append(("after (working tree)" if args.before else "working tree", ROOT))
    if args.reuse_connections:
        trees.append(("reuse (working tree, the worker's connection kept)", ROOT))
    print(f"{args.events} events in {args.seconds:.0f} s, {args.players} players, worker concurrency "
          f"{args.concurrency}, {args.generators} generators, delay {extra['NOTIFICATIONS_PUSH_DELAY']} s; "
          f"logs in {log_dir}", flush=True)
    for name, tree in trees:
        report(run_phase(name.split(" ")[0], tree, args, env, public, log_dir, reuse=name.startswith("reuse")))


if __name__ == "__main__":
    main()
