"""Load benchmark: M live tables on the real stack, played by scripted people over WebSockets.

    .venv/bin/python bench/load.py --tables 50,100,200 --duration 60
    .venv/bin/python bench/load.py --tables 100 --daphne 2 --profile /tmp/prof   # py-spy on each daphne

For each M it opens M four-seat tables of the house game (60 s per turn, 5-game matches) on the bench's
own database; a share of the tables have an Easy bot in one seat. A separate process (bench/players.py)
connects one WebSocket per human seat plus one spectator per table, and plays: each seat thinks 1-3 s
per move, then sends the move the Easy bot would choose from its own view, and pings every 5 s like
the browser. After a ramp-up and a warm-up it measures for `--duration` seconds:

- move-to-broadcast latency: the mover's send to each other connection's receipt of the state frame
  with the version that move produced (other seats and the spectator), p50/p95/p99;
- moves per second (acknowledged), error frames (any `error` other than `stale`), dropped connections;
- CPU (% of one core, averaged over the window) and peak RSS of daphne, the Celery worker, PostgreSQL,
  Redis and the load generator itself; peak database connections (pg_stat_activity).

It prints one row per M and the knee: the largest M with p99 <= 100 ms (and no errors or drops).
Everything runs on 127.0.0.1, ports 8030-8039, Redis db 5 and the `rummy_bench` database (bench/stack.py).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import psutil  # noqa: E402

from bench.stack import BIN, DEFAULT_DB, Stack, setup_django  # noqa: E402

GAME = "tile-rummy"


# ---------------------------------------------------------------------------------------------------
# Opening the tables (through the services, like the site does)


def ensure_users(count: int) -> list[Any]:
    from allauth.account.models import EmailAddress
    from django.contrib.auth.hashers import make_password

    from apps.accounts.models import User

    names = [f"bench-{i:05d}" for i in range(count)]
    existing = set(User.objects.filter(username__in=names).values_list("username", flat=True))
    unusable = make_password(None)
    User.objects.bulk_create(
        [User(username=name, password=unusable) for name in names if name not in existing], batch_size=1000
    )
    by_name = {user.username: user for user in User.objects.filter(username__in=names)}
    # Players of rated tables (SPEC 11): each has a verified email address.
    verified = set(EmailAddress.objects.filter(user__in=by_name.values(), verified=True).values_list("user_id", flat=True))
    EmailAddress.objects.bulk_create(
        [EmailAddress(user=user, email=f"{user.username}@bench.test", verified=True, primary=True)
         for user in by_name.values() if user.pk not in verified],
        batch_size=1000,
    )
    return [by_name[name] for name in names]


def session_cookie(user: Any) -> str:
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


def open_tables(count: int, *, seats: int = 4, bot_every: int = 10, turn_seconds: int = 60,
                match_length: int = 5, spectators: bool = True) -> list[dict[str, Any]]:
    """Open and start `count` tables; every `bot_every`-th table has an Easy bot in its last seat."""
    from apps.tables import services

    humans_per_table = [seats - 1 if bot_every and i % bot_every == bot_every - 1 else seats for i in range(count)]
    users = ensure_users(sum(humans_per_table))
    cookies = {user.pk: session_cookie(user) for user in users}
    tables = []
    hosts: list[tuple[int, Any]] = []
    at = 0
    for i, humans in enumerate(humans_per_table):
        players = users[at : at + humans]
        at += humans
        table = services.table_open(by=players[0], game=GAME, seat_count=seats, match_length=match_length,
                                    turn_seconds=turn_seconds, bots=["easy"] * (seats - humans))
        for user in players[1:]:
            services.table_join(table_id=table.pk, by=user)
        hosts.append((table.pk, players[0]))
        seat_specs: list[dict[str, Any] | None] = [
            {"index": index, "cookie": cookies[user.pk]} for index, user in enumerate(players)
        ]
        seat_specs += [None] * (seats - humans)
        tables.append({"id": table.pk, "seats": seat_specs, "spectator": spectators})
        if (i + 1) % 100 == 0:
            print(f"  opened {i + 1}/{count} tables", flush=True)
    # Started only once all are seated: opening hundreds takes longer than a turn's timer on a slow machine,
    # and the first tables' turns would time out before their players connect.
    started = time.time()
    for table_id, host in hosts:
        services.table_start(table_id=table_id, by=host)
    print(f"  started {count} tables in {time.time() - started:.1f} s", flush=True)
    return tables


def close_tables(table_ids: list[int]) -> None:
    from apps.accounts.models import User
    from apps.tables import services
    from apps.tables.models import Table

    staff, _ = User.objects.get_or_create(username="bench-moderator", defaults={"is_staff": True})
    for table_id in Table.objects.filter(pk__in=table_ids).exclude(status=Table.Status.CLOSED).values_list(
        "pk", flat=True
    ):
        services.table_close(table_id=table_id, by=staff, reason="bench over")


# ---------------------------------------------------------------------------------------------------
# Watching the server


class Sampler(threading.Thread):
    """Samples CPU and memory of the stack's processes (and PostgreSQL, Redis, the load generator) and
    the number of database connections, once a second."""

    def __init__(self, pids: dict[str, int], db: str) -> None:
        super().__init__(daemon=True)
        self.groups: dict[str, list[psutil.Process]] = {}
        for name, pid in pids.items():
            group = "daphne" if name.startswith("daphne") else name
            process = psutil.Process(pid)
            self.groups.setdefault(group, []).append(process)
        # The postmaster: its backends are its children.
        self.groups["postgres"] = [
            p for p in psutil.process_iter(["name", "ppid"]) if p.info["name"] == "postgres" and p.info["ppid"] == 1
        ]
        self.groups["redis"] = [p for p in psutil.process_iter(["name"]) if p.info["name"] == "redis-server"]
        self.db = db
        self.stop_event = threading.Event()
        self.window: tuple[float, float] | None = None
        self.samples: list[dict[str, Any]] = []

    def add(self, group: str, pid: int) -> None:
        self.groups.setdefault(group, []).append(psutil.Process(pid))

    @staticmethod
    def _family(process: psutil.Process) -> list[psutil.Process]:
        try:
            return [process, *process.children(recursive=True)]
        except psutil.Error:
            return []

    def cpu_times(self) -> dict[str, float]:
        """CPU seconds per group: each process, its live descendants, and the children it has reaped
        (PostgreSQL's backends come and go)."""
        totals: dict[str, float] = {}
        for group, processes in self.groups.items():
            total = 0.0
            for process in processes:
                for member in self._family(process):
                    try:
                        times = member.cpu_times()
                    except psutil.Error:
                        continue
                    total += times.user + times.system
                    if member is process:
                        total += times.children_user + times.children_system
            totals[group] = total
        cpu = psutil.cpu_times()
        totals["machine"] = cpu.user + cpu.system + cpu.nice + getattr(cpu, "softirq", 0) + getattr(cpu, "irq", 0)
        return totals

    def rss(self) -> dict[str, float]:
        totals: dict[str, float] = {}
        for group, processes in self.groups.items():
            total = 0
            for process in processes:
                for member in self._family(process):
                    try:
                        total += member.memory_info().rss
                    except psutil.Error:
                        pass
            totals[group] = total / 2**20
        return totals

    def db_connections(self) -> int:
        out = subprocess.run(
            ["runuser", "-u", "postgres", "--", "psql", "-tAc",
             f"SELECT count(*) FROM pg_stat_activity WHERE datname = '{self.db}'"],
            capture_output=True, text=True,
        )
        try:
            return int(out.stdout.strip())
        except ValueError:
            return -1

    def run(self) -> None:
        while not self.stop_event.is_set():
            self.samples.append({"t": time.time(), "cpu": self.cpu_times(), "rss": self.rss(),
                                 "db": self.db_connections()})
            self.stop_event.wait(1.0)

    def summary(self, start: float, end: float) -> dict[str, Any]:
        inside = [s for s in self.samples if start <= s["t"] <= end]
        if len(inside) < 2:
            return {}
        first, last = inside[0], inside[-1]
        span = last["t"] - first["t"]
        cpu = {group: 100 * (last["cpu"][group] - first["cpu"].get(group, 0)) / span for group in last["cpu"]}
        rss = {group: max(s["rss"].get(group, 0) for s in inside) for group in last["rss"]}
        ours = sum(value for group, value in cpu.items() if group != "machine")
        cpu["others"] = max(0.0, cpu["machine"] - ours)  # other people's work on the same machine
        return {"cpu_pct": cpu, "rss_mb": rss, "db_connections_max": max(s["db"] for s in inside)}


# ---------------------------------------------------------------------------------------------------
# One run


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def run_one(stack: Stack, m: int, args: argparse.Namespace) -> dict[str, Any]:
    print(f"\n== M = {m} tables", flush=True)
    opened = time.time()
    tables = open_tables(m, bot_every=args.bot_every)
    print(f"  opened {m} tables in {time.time() - opened:.1f} s", flush=True)
    work = stack.log_dir / f"m{m}"
    work.mkdir(exist_ok=True)
    spec = {
        "urls": stack.urls(),
        "tables": tables,
        "ramp": args.ramp,
        "warmup": args.warmup,
        "duration": args.duration,
        "think": [1.0, 3.0],
        "ping_every": 5.0,
        "pings": args.pings,
        "seed": m,
    }
    (work / "spec.json").write_text(json.dumps(spec))
    sampler = Sampler(stack.pids(), stack.db)
    generator = subprocess.Popen([str(BIN / "python"), str(ROOT / "bench" / "players.py"), str(work / "spec.json"),
                                  str(work / "result.json")], cwd=ROOT)
    sampler.add("load generator", generator.pid)
    sampler.start()
    profilers = []
    if args.profile:
        time.sleep(args.ramp + args.warmup)
        for name, pid in stack.pids().items():
            if name.startswith("daphne") or (args.profile_worker and name == "worker"):
                out = Path(args.profile) / f"m{m}-{name}.txt"
                out.parent.mkdir(parents=True, exist_ok=True)
                profilers.append(subprocess.Popen(
                    [str(BIN / "py-spy"), "record", "--pid", str(pid), "--duration", str(int(args.duration)),
                     "--rate", "50", "--format", "raw", "--nonblocking", "--gil", "--output", str(out),
                     *(["--subprocesses"] if name == "worker" else [])],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    generator.wait(timeout=args.ramp + args.warmup + args.duration + 120)
    for profiler in profilers:
        profiler.wait(timeout=60)
    sampler.stop_event.set()
    sampler.join()
    result = json.loads((work / "result.json").read_text())
    resources = sampler.summary(result["measure_from"], result["measure_to"])
    close_tables([table["id"] for table in tables])
    latencies = result["latencies_ms"]
    sockets = sum(1 for table in tables for seat in table["seats"] if seat)
    row = {
        "tables": m,
        "player_sockets": sockets,
        "spectators": m,
        "connected": result["connected_at_end"],
        "connected_at_start": result["connected_at_start"],
        "samples": len(latencies),
        "p50": percentile(latencies, 50),
        "p95": percentile(latencies, 95),
        "p99": percentile(latencies, 99),
        "max": max(latencies, default=float("nan")),
        "generator_lag_p99": percentile(result.get("lag_ms", []), 99),
        "generator_lag_max": max(result.get("lag_ms", []), default=float("nan")),
        "moves_per_s": result["moves_acked"] / result["measured_s"],
        "errors": sum(result["errors"].values()),
        "error_codes": result["errors"],
        "error_samples": result["error_samples"][:3],
        "drops": result["drops"],
        "connect_failures": result["connect_failures"],
        "syncs_after_pong": result["syncs_after_pong"],
        "syncs_sent": result.get("syncs_sent", 0),
        "pings_per_s": result.get("pings_sent", 0) / result["measured_s"],
        **resources,
    }
    moves = max(1, result["moves_acked"])
    cpu = row.get("cpu_pct", {})
    # CPU time per move: less sensitive to other work on the machine than latency is.
    per_move = {group: 10 * cpu.get(group, 0) * result["measured_s"] / moves
                for group in ("daphne", "worker", "beat", "postgres", "redis", "load generator")}
    row["cpu_ms_per_move"] = per_move
    row["daphne_cpu_ms_per_move"] = per_move["daphne"]
    # Every server process together (Redis is the machine's whole server: on a quiet machine, ours).
    row["stack_cpu_ms_per_move"] = sum(per_move[group] for group in ("daphne", "worker", "beat", "postgres", "redis"))
    row["generator_cpu_ms_per_move"] = per_move["load generator"]
    (work / "row.json").write_text(json.dumps(row, indent=1))
    print_row(row, header=False)
    return row


COLUMNS = ("tables  sockets     open   p50 ms   p95 ms   p99 ms  moves/s  errors  drops  syncs  daphne%  worker%  pg%  redis%"
           "  gen%  other%  daphneMB  db conns  daphne ms/move  stack ms/move  gen ms/move  gen lag p99  pings/s")


def print_row(row: dict[str, Any], header: bool = True) -> None:
    if header:
        print(COLUMNS)
    cpu = row.get("cpu_pct", {})
    rss = row.get("rss_mb", {})
    print(
        f"{row['tables']:>6}  {row['player_sockets'] + row['spectators']:>7}"
        f"  {row.get('connected_at_start', -1):>7}  {row['p50']:>7.1f}  {row['p95']:>7.1f}"
        f"  {row['p99']:>7.1f}  {row['moves_per_s']:>7.1f}  {row['errors']:>6}  {row['drops']:>5}"
        f"  {row.get('syncs_sent', 0):>5}  {cpu.get('daphne', 0):>7.0f}  {cpu.get('worker', 0):>7.0f}  {cpu.get('postgres', 0):>3.0f}"
        f"  {cpu.get('redis', 0):>6.0f}  {cpu.get('load generator', 0):>4.0f}  {cpu.get('others', 0):>6.0f}"
        f"  {rss.get('daphne', 0):>8.0f}"
        f"  {row.get('db_connections_max', -1):>8}  {row.get('daphne_cpu_ms_per_move', 0):>14.1f}"
        f"  {row.get('stack_cpu_ms_per_move', 0):>13.1f}  {row.get('generator_cpu_ms_per_move', 0):>11.1f}"
        f"  {row.get('generator_lag_p99', float('nan')):>11.1f}  {row.get('pings_per_s', float('nan')):>7.1f}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", default="25,50,100,200", help="comma-separated M values")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds measured per M")
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--ramp", type=float, default=15.0, help="seconds over which the clients connect")
    parser.add_argument("--daphne", type=int, default=1, help="daphne processes (ports 8030..)")
    parser.add_argument("--bot-every", type=int, default=10, help="every N-th table has an Easy bot seat (0: none)")
    parser.add_argument("--db", default=DEFAULT_DB)
    parser.add_argument("--redis-db", type=int, default=5)
    parser.add_argument("--pings", choices=("quiet", "always"), default="quiet",
                        help="clients ping after 5 s without a version, as the browser (quiet), or every 5 s (always)")
    parser.add_argument("--profile", default="", help="directory: record py-spy profiles of daphne")
    parser.add_argument("--profile-worker", action="store_true")
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for the stack's processes")
    parser.add_argument("--out", default="", help="write the rows as JSON here")
    args = parser.parse_args()

    extra = dict(item.split("=", 1) for item in args.env)
    stack = Stack(ports=[8030 + i for i in range(args.daphne)], db=args.db, redis_db=args.redis_db, extra_env=extra)
    setup_django(args.db, args.redis_db, **extra)
    print(f"Stack logs: {stack.log_dir}", flush=True)
    stack.prepare()
    rows = []
    try:
        stack.start()
        for m in [int(value) for value in args.tables.split(",")]:
            rows.append(run_one(stack, m, args))
    finally:
        stack.stop()
    print(f"\nMachine: {os.cpu_count()} cores, {psutil.virtual_memory().total / 2**30:.0f} GiB; "
          f"{args.daphne} daphne process(es), worker concurrency {stack.worker_concurrency}; "
          f"{args.duration:.0f} s measured per M after {args.ramp:.0f} s ramp + {args.warmup:.0f} s warm-up")
    print("CPU: % of one core averaged over the window (200% = both cores); redis is the whole (shared) server;"
          " other% is everything else running on the machine meanwhile (other people's work).")
    print()
    print(COLUMNS)
    for row in rows:
        print_row(row, header=False)
    good = [row["tables"] for row in rows if row["p99"] <= 100 and row["errors"] == 0 and row["drops"] == 0
            and row.get("connected_at_start") == row["player_sockets"] + row["spectators"]]
    print(f"\nKnee (largest M with p99 <= 100 ms, no errors, no drops, every socket open): {max(good) if good else 'none'}")
    print("open: sockets open when the measurement began (a run where some are still connecting measures less)")
    if args.out:
        Path(args.out).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
