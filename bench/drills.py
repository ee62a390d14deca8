"""Fault drills on the real stack (daphne + PostgreSQL + Redis + Celery worker and beat), on loopback.

    .venv/bin/python bench/drills.py            # all five
    .venv/bin/python bench/drills.py worker daphne redis bus drop

- worker: kill -9 the Celery worker while turns are running (their timeout tasks held in its memory);
  a supervisor-like restart 3 s later. Goal: every turn times out exactly once, within deadline + 10 s.
- daphne: stop daphne for ~20 s mid-game while scripted players play (bench/players.py) and some
  players are away from the keyboard. Goals: clients reconnect (backoff with jitter) and resync; every
  move the server acknowledged is in the move log, none twice; every client ends on the database's
  version; the away players' turn deadlines move by the downtime plus the grace (15 s), and no turn
  times out while the site is down.
- redis: kill -9 Redis (the drill's own server on port 8039, never the machine's shared one) and start
  it again, empty, 5 s later. Goals: clients resync; nothing lost (as above).
- bus: the live bus on two Redis servers of the drill's own (REDIS_BUS_URLS, ports 8037 and 8038; the
  cache and broker stay on 8039), two daphne processes with each table's sockets spread over both; kill -9
  one bus server and start it again, empty, 5 s later. Goals: no socket closes; nothing lost (as above).
- drop: daphne loses 10% of the table broadcasts (bench/chaos.py). Goal: every client shows every
  committed version (or a newer one) within 2 s of its commit; measured with the clients pinging every
  5 s (as static/js/connection.js does) and every 1.5 s.

Each drill prints its figures and whether each goal was met.
"""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.stack import BIN, PrivateRedis, Stack, setup_django  # noqa: E402

REDIS_PORT = 8039
BUS_PORTS = (8037, 8038)  # the bus drill's two Redis servers
#: A client has caught up if it shows what was committed this many seconds before it stopped (the drop
#: drill's own goal), or newer.
CAUGHT_UP_WITHIN = 2.0
PORT = 8032
results: dict[str, dict[str, Any]] = {}


def goal(drill: str, name: str, met: bool, figure: str) -> None:
    results.setdefault(drill, {})[name] = {"met": bool(met), "figure": figure}
    print(f"  [{'met' if met else 'NOT MET'}] {name}: {figure}", flush=True)


# ---------------------------------------------------------------------------------------------------
# Tables and players


def open_table(humans: int, bots: int = 0, *, turn_seconds: int = 30) -> tuple[Any, list[Any]]:
    from apps.tables import services
    from bench.load import ensure_users

    global _next_user
    users = ensure_users(_next_user + humans)[_next_user:]
    _next_user += humans
    table = services.table_open(by=users[0], game="tile-rummy", seat_count=humans + bots, match_length=5,
                                turn_seconds=turn_seconds, bots=["easy"] * bots)
    for user in users[1:]:
        services.table_join(table_id=table.pk, by=user)
    services.table_start(table_id=table.pk, by=users[0])
    return table, users


_next_user = 5000  # users of their own, apart from the load bench's


def player_spec(tables: list[tuple[Any, list[Any]]], *, idle_tables: set[int] = frozenset(),  # type: ignore[assignment]
                urls: list[str], duration: float, ping_every: float = 5.0, quiet_tail: float = 6.0) -> dict[str, Any]:
    from bench.load import session_cookie

    specs = []
    for table, users in tables:
        seats: list[dict[str, Any] | None] = [
            {"index": index, "cookie": session_cookie(user), "idle": table.pk in idle_tables}
            for index, user in enumerate(users)
        ]
        seats += [None] * (table.seat_count - len(users))
        specs.append({"id": table.pk, "seats": seats, "spectator": True})
    return {"urls": urls, "tables": specs, "ramp": 2, "warmup": 0, "duration": duration, "think": [1.0, 3.0],
            "ping_every": ping_every, "backoff": [0.5, 8.0], "record": True, "quiet_tail": quiet_tail, "seed": 11}


def start_players(stack: Stack, spec: dict[str, Any], name: str) -> tuple[subprocess.Popen[bytes], Path]:
    work = stack.log_dir / name
    work.mkdir(exist_ok=True)
    spec["status_file"] = str(work / "status.json")
    (work / "spec.json").write_text(json.dumps(spec))
    process = subprocess.Popen([str(BIN / "python"), str(ROOT / "bench" / "players.py"), str(work / "spec.json"),
                                str(work / "result.json")], cwd=ROOT)
    return process, work


def finish_players(process: subprocess.Popen[bytes], work: Path, timeout: float) -> dict[str, Any]:
    process.wait(timeout=timeout)
    return json.loads((work / "result.json").read_text())


def check_nothing_lost(drill: str, tables: list[tuple[Any, list[Any]]], result: dict[str, Any]) -> None:
    """Acknowledged moves are all in the move log, none twice; every client ends on the table's version."""
    from django.db.models import Max

    from apps.tables.models import MoveLog, Table

    ids = {table.pk for table, _ in tables}
    logged = list(MoveLog.objects.filter(game__match__table_id__in=ids).exclude(client_id="")
                  .values_list("game__match__table_id", "client_id"))
    logged_ids = [client_id for _, client_id in logged]
    acked = set(result["acked_ids"])
    missing = acked - set(logged_ids)
    twice = len(logged_ids) - len(set(logged_ids))
    goal(drill, "no acknowledged move lost", not missing,
         f"{len(acked)} moves acknowledged, {len(missing)} missing from the move log")
    goal(drill, "no move applied twice", twice == 0, f"{len(logged_ids)} logged moves with an id, {twice} duplicates")
    # Site bots and autopilot go on playing in the quiet tail, so a version may be committed just as the
    # clients stop: each must show at least what was committed CAUGHT_UP_WITHIN seconds before that.
    stopped = datetime.fromtimestamp(result["measure_to"] - CAUGHT_UP_WITHIN, tz=UTC)
    versions = dict(Table.objects.filter(pk__in=ids).values_list("pk", "version"))
    settled = dict(MoveLog.objects.filter(game__match__table_id__in=ids, at__lte=stopped)
                   .values("game__match__table_id").annotate(v=Max("version")).values_list("game__match__table_id", "v"))
    behind = [(table_id, shown, settled.get(int(table_id), 0), versions[int(table_id)])
              for table_id, shown_list in result["final_versions"].items()
              for shown in shown_list if not settled.get(int(table_id), 0) <= shown <= versions[int(table_id)]]
    clients = sum(len(shown) for shown in result["final_versions"].values())
    goal(drill, "every client ends on the database's version", not behind,
         f"{clients - len(behind)}/{clients} clients on their table's version as of {CAUGHT_UP_WITHIN:.0f} s before"
         f" they stopped, or newer" + (f"; behind (table, shown, settled, last): {behind[:5]}" if behind else ""))


def log_problems(stack: Stack) -> list[str]:
    found = []
    for log in sorted(stack.log_dir.glob("*.log")):
        for line in log.read_text(errors="replace").splitlines():
            if "Traceback" in line or " ERROR " in line:
                found.append(f"{log.name}: {line[:160]}")
    return found


def wait_until(predicate: Any, timeout: float, step: float = 0.25) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return False


# ---------------------------------------------------------------------------------------------------
# The drills


def drill_worker(stack: Stack) -> None:
    print("\n== kill -9 the Celery worker mid-turn", flush=True)
    from apps.tables.models import MoveLog, Table

    tables = [open_table(1, 1, turn_seconds=30)[0] for _ in range(6)]
    ids = [table.pk for table in tables]
    # Bots play until each table waits for its (absent) human: a 30 s turn clock is running.
    wait_until(lambda: Table.objects.filter(pk__in=ids, due_action=Table.Due.TIMEOUT).count() == len(ids), 30)
    deadlines = dict(Table.objects.filter(pk__in=ids).values_list("pk", "due_at"))
    time.sleep(2)
    killed_at = time.time()
    stack.kill("worker", signal.SIGKILL)
    print(f"  worker killed with SIGKILL {min(d.timestamp() for d in deadlines.values()) - killed_at:.0f}-"
          f"{max(d.timestamp() for d in deadlines.values()) - killed_at:.0f} s before the deadlines", flush=True)
    time.sleep(3)
    stack.start_worker()
    print(f"  worker restarted {time.time() - killed_at:.1f} s after the kill", flush=True)
    last = max(d.timestamp() for d in deadlines.values())
    time.sleep(max(0.0, last + 15 - time.time()))
    lateness = []
    counts = []
    for table_id, deadline in deadlines.items():
        timeouts = list(MoveLog.objects.filter(game__match__table_id=table_id, actor=MoveLog.Actor.TIMEOUT)
                        .values_list("at", flat=True))
        counts.append(len(timeouts))
        lateness += [(at - deadline).total_seconds() for at in timeouts]
    goal("worker", "each turn timed out exactly once", counts == [1] * len(ids), f"timeouts per table: {counts}")
    goal("worker", "within deadline + 10 s", bool(lateness) and all(0 <= late <= 10 for late in lateness),
         f"timeouts {min(lateness, default=0):.1f}-{max(lateness, default=0):.1f} s after their deadlines")


def drill_daphne(stack: Stack) -> None:
    print("\n== restart daphne mid-game", flush=True)
    from apps.tables import liveness
    from apps.tables.models import MoveLog, Table

    playing = [open_table(2) for _ in range(4)]
    away = [open_table(1, 1) for _ in range(2)]
    away_ids = {table.pk for table, _ in away}
    spec = player_spec(playing + away, idle_tables=away_ids, urls=stack.urls(), duration=75)
    process, work = start_players(stack, spec, "daphne-drill")
    wait_until(lambda: Table.objects.filter(pk__in=away_ids, due_action=Table.Due.TIMEOUT).count() == len(away_ids), 30)
    time.sleep(4)
    deadlines = dict(Table.objects.filter(pk__in=away_ids).values_list("pk", "due_at"))
    timeouts_before = MoveLog.objects.filter(game__match__table_id__in=away_ids, actor=MoveLog.Actor.TIMEOUT).count()
    stopped_at = time.time()
    stack.kill(f"daphne-{PORT}", signal.SIGKILL)
    print(f"  daphne killed; the away players' deadlines are {min(d.timestamp() for d in deadlines.values()) - stopped_at:.0f}-"
          f"{max(d.timestamp() for d in deadlines.values()) - stopped_at:.0f} s away", flush=True)
    time.sleep(20)
    stack.start_daphne(PORT)
    healthy = stack.wait_ready(PORT)
    back_at = time.time()
    print(f"  daphne back after {back_at - stopped_at:.1f} s (healthy {healthy:.1f} s after its start)", flush=True)
    total = sum(1 for table, users in playing + away for _ in users) + len(playing + away)
    reconnected = wait_until(lambda: json.loads((work / "status.json").read_text())["connected"] >= total, 40)
    all_back = time.time()
    goal("daphne", "every client reconnected", reconnected,
         f"all {total} connections back {all_back - back_at:.1f} s after daphne was")
    # Let the sweep notice the web is back and give the clocks back.
    wait_until(lambda: all(t.due_at and t.due_at.timestamp() > deadlines[t.pk].timestamp() + 20
                           for t in Table.objects.filter(pk__in=away_ids)), 20)
    after = dict(Table.objects.filter(pk__in=away_ids).values_list("pk", "due_at"))
    last_beat_before = stopped_at  # the heartbeat ran every 2 s until the kill
    expected = back_at - last_beat_before + liveness.grace()
    extensions = [(after[t] - deadlines[t]).total_seconds() for t in away_ids if after[t]]
    timeouts_during = MoveLog.objects.filter(game__match__table_id__in=away_ids, actor=MoveLog.Actor.TIMEOUT).count() \
        - timeouts_before
    goal("daphne", "no turn timed out while the site was down", timeouts_during == 0,
         f"{timeouts_during} timeouts of the away players' turns during the downtime")
    goal("daphne", "deadlines moved by the downtime plus the grace",
         bool(extensions) and all(abs(e - expected) <= 6 for e in extensions),
         f"deadlines moved by {', '.join(f'{e:.1f}' for e in extensions)} s; downtime {back_at - stopped_at:.1f} s"
         f" + grace {liveness.grace():.0f} s = {expected:.1f} s (heartbeat every 2 s, sweep every 1 s)")
    result = finish_players(process, work, 120)
    connects = sorted(t for t in result["connects"] if t > stopped_at)
    if connects:
        spread = connects[-1] - connects[0]
        print(f"  reconnections: {len(connects)}, first {connects[0] - back_at:+.1f} s, last {connects[-1] - back_at:+.1f} s"
              f" after daphne was back (spread {spread:.1f} s: backoff with full jitter)", flush=True)
    print(f"  drops seen by the clients: {result['drops']}, reconnects: {result['reconnects']}, "
          f"error frames: {result['errors']}", flush=True)
    check_nothing_lost("daphne", playing + away, result)


def drill_redis(stack: Stack, redis: PrivateRedis) -> None:
    print("\n== restart Redis mid-game", flush=True)
    playing = [open_table(2) for _ in range(4)]
    spec = player_spec(playing, urls=stack.urls(), duration=60)
    process, work = start_players(stack, spec, "redis-drill")
    time.sleep(15)
    killed_at = time.time()
    redis.kill()
    time.sleep(5)
    redis.start()
    print(f"  Redis killed and started again, empty, after {time.time() - killed_at:.1f} s", flush=True)
    result = finish_players(process, work, 120)
    print(f"  drops seen by the clients: {result['drops']}, reconnects: {result['reconnects']}, "
          f"syncs after a pong: {result['syncs_after_pong']}, error frames: {result['errors']}", flush=True)
    check_nothing_lost("redis", playing, result)


def drill_bus(stack: Stack, servers: list[PrivateRedis]) -> None:
    print("\n== restart one of the two bus Redis servers mid-game", flush=True)
    playing = [open_table(2) for _ in range(6)]
    spec = player_spec(playing, urls=stack.urls(), duration=60)
    process, work = start_players(stack, spec, "bus-drill")
    time.sleep(15)
    killed_at = time.time()
    servers[1].kill()
    time.sleep(5)
    servers[1].start()
    print(f"  bus Redis {servers[1].port} killed and started again, empty, after {time.time() - killed_at:.1f} s",
          flush=True)
    result = finish_players(process, work, 120)
    print(f"  reconnects: {result['reconnects']}, syncs after a pong: {result['syncs_after_pong']}, "
          f"error frames: {result['errors']}", flush=True)
    goal("bus", "no socket closed", result["drops"] == 0, f"{result['drops']} connections dropped")
    check_nothing_lost("bus", playing, result)


def convergence(tables: list[tuple[Any, list[Any]]], result: dict[str, Any], since: float) -> list[float]:
    """For every committed move and every client: seconds from its commit until the client showed that
    version or a newer one."""
    from apps.tables.models import MoveLog

    lags = []
    for table, _ in tables:
        committed = [(version, at.timestamp()) for version, at in MoveLog.objects.filter(
            game__match__table_id=table.pk).values_list("version", "at") if at.timestamp() >= since]
        for history in result["history"][str(table.pk)].values():
            for version, at in committed:
                shown = next((t for v, t in history if v >= version), None)
                if shown is not None:
                    lags.append(max(0.0, shown - at))
                elif at < result["measure_to"] - 3:
                    lags.append(float("inf"))
    return lags


def drill_drop(stack: Stack, ping_every: float) -> None:
    print(f"\n== 10% of broadcasts lost; clients ping every {ping_every} s", flush=True)
    playing = [open_table(2) for _ in range(6)]  # people only: every broadcast comes from daphne
    spec = player_spec(playing, urls=stack.urls(), duration=70, ping_every=ping_every, quiet_tail=8)
    started = time.time()
    process, work = start_players(stack, spec, f"drop-drill-{ping_every}")
    result = finish_players(process, work, 150)
    lags = sorted(convergence(playing, result, started + 5))
    dropped = sum(line.count("chaos: dropped") for line in (stack.log_dir / f"daphne-{PORT}.log").read_text().splitlines())
    within = sum(1 for lag in lags if lag <= 2.0)
    p = (lambda q: lags[min(len(lags) - 1, int(q * (len(lags) - 1)))]) if lags else (lambda q: float("nan"))
    print(f"  {dropped} broadcasts dropped in all; syncs after a pong: {result['syncs_after_pong']}", flush=True)
    goal(f"drop (ping {ping_every} s)", "every client converges within 2 s", bool(lags) and within == len(lags),
         f"{within}/{len(lags)} (client, version) pairs within 2 s ({100 * within / max(1, len(lags)):.2f}%); "
         f"p50 {1000 * p(0.5):.0f} ms, p99 {1000 * p(0.99):.0f} ms, max {lags[-1] if lags else float('nan'):.2f} s")
    check_nothing_lost(f"drop (ping {ping_every} s)", playing, result)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("drills", nargs="*", default=["worker", "daphne", "redis", "bus", "drop"])
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    redis = PrivateRedis(REDIS_PORT)
    redis.start()
    stack = Stack(ports=[PORT], redis_port=REDIS_PORT, redis_db=0)
    setup_django(redis_port=REDIS_PORT, redis_db=0)
    print(f"Stack logs: {stack.log_dir}", flush=True)
    try:
        stack.prepare()
        for drill in args.drills:
            if drill == "drop":
                for ping_every in (5.0, 1.5):
                    chaos = Stack(ports=[PORT], redis_port=REDIS_PORT, redis_db=0, asgi_app="bench.chaos:application",
                                  log_dir=stack.log_dir / f"chaos-{ping_every}")
                    chaos.start()
                    try:
                        drill_drop(chaos, ping_every)
                    finally:
                        print("  server log problems:", len(log_problems(chaos)), flush=True)
                        chaos.stop()
                continue
            if drill == "bus":
                servers = [PrivateRedis(port, stack.log_dir) for port in BUS_PORTS]
                urls = ",".join(f"redis://127.0.0.1:{port}/0" for port in BUS_PORTS)
                two = Stack(ports=[PORT, PORT + 1], redis_port=REDIS_PORT, redis_db=0, log_dir=stack.log_dir / "bus",
                            extra_env={"REDIS_BUS_URLS": urls})
                try:
                    for server in servers:
                        server.start()
                    two.start()
                    drill_bus(two, servers)
                finally:
                    two.stop()
                    for server in servers:
                        server.kill()
                    print("  server log problems:", len(log_problems(two)), flush=True)
                continue
            stack.start()
            try:
                if drill == "worker":
                    drill_worker(stack)
                elif drill == "daphne":
                    drill_daphne(stack)
                elif drill == "redis":
                    drill_redis(stack, redis)
                else:
                    raise SystemExit(f"unknown drill {drill!r}")
            finally:
                stack.stop()
                problems = log_problems(stack)
                print(f"  server log: {len(problems)} tracebacks / ERROR lines so far", flush=True)
                for line in problems[:8]:
                    print("    ", line)
    finally:
        stack.stop()
        redis.kill()
    print("\nSummary")
    for drill, goals in results.items():
        for name, outcome in goals.items():
            print(f"  {drill:18} {'met    ' if outcome['met'] else 'NOT MET'}  {name}: {outcome['figure']}")
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
