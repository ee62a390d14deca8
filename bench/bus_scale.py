"""The live bus with P web processes: what Redis sends and each process reads, per move.

    .venv/bin/python bench/bus_scale.py --processes 1,2,4,8 --tables 250
    .venv/bin/python bench/bus_scale.py --code /tmp/bus_before ...   # the same, on another checkout's code

For each P it starts P daphne processes (ports 8900..), a Celery worker and beat on the bench's database
and a Redis server of its own (port 6391: INFO counts this bench's traffic alone, not the machine's
shared Redis), opens N four-seat tables (bench/load.py) and plays them with the load generator
(bench/players.py), its sockets spread over the processes either socket by socket, as a proxy that
balances connections does (`--spread sockets`: a table's five sockets land on up to five processes), or
table by table, as a proxy that routes /ws/tables/<id>/ by a hash of the path does (`--spread tables`).
Over the measured window it reports, per acknowledged move:

- the bytes Redis sent (INFO stats total_net_output_bytes: pub/sub, cache and broker together, the
  same for both codes but for the bus) and the PUBLISH commands it ran;
- the messages each daphne process's bus subscriber read (the `rummy_bus_messages_read` metric at
  /metrics; a code without it subscribes every process to one channel for the whole site, so each of
  its processes reads every PUBLISH of the bus) and the subscriber threads' CPU where it is counted;
- the CPU of daphne (all processes) and of the whole stack, and the move-to-broadcast p50/p99.

--code runs the processes from another checkout (a `git worktree` of the code before a change), with
this script's own Django (to open the tables) and the same database, so before and after are measured
by the same command in the same run of the machine. The load average is printed with every row.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import psutil  # noqa: E402
import redis  # noqa: E402

from bench.load import Sampler, close_tables, open_tables, percentile  # noqa: E402
from bench.stack import BIN, Stack, bench_env, setup_django  # noqa: E402

DB = "rummy_h_bus_bench"
REDIS_PORT = 6391
DAPHNE_PORTS = range(8900, 9000)


@dataclass
class CodeStack(Stack):
    """The bench's stack, its processes run from `code` (a checkout) on ports 8900-8999."""

    code: Path = ROOT

    def __post_init__(self) -> None:
        if any(port not in DAPHNE_PORTS for port in self.ports):
            raise ValueError("bus_scale uses ports 8900-8999 only")
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.env = bench_env(self.db, self.redis_db, self.redis_port, **self.extra_env)
        self.env["PYTHONPATH"] = str(self.code)
        os.environ["BENCH_SECRET_KEY"] = self.env["SECRET_KEY"]

    def _spawn(self, name: str, args: list[str]) -> subprocess.Popen[bytes]:
        log = open(self.log_dir / f"{name}.log", "ab")  # noqa: SIM115 - owned by the child's lifetime
        process = subprocess.Popen(
            args, cwd=self.code, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        self.processes[name] = process
        return process


class Counters(threading.Thread):
    """Once a second: Redis's output bytes and PUBLISH count, and each daphne's bus metrics."""

    def __init__(self, ports: list[int]) -> None:
        super().__init__(daemon=True)
        self.ports = ports
        self.redis = redis.Redis(port=REDIS_PORT)
        self.samples: list[dict[str, Any]] = []
        self.stop_event = threading.Event()

    def sample(self) -> dict[str, Any]:
        stats = self.redis.info("stats")
        commands = self.redis.info("commandstats")
        found: dict[str, Any] = {
            "t": time.time(),
            "out": int(stats["total_net_output_bytes"]),
            "publish": int(commands.get("cmdstat_publish", {}).get("calls", 0)),
            "read": {},
            "bus_cpu": {},
        }
        for port in self.ports:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
                    text = response.read().decode()
            except OSError:
                continue
            for key, name in (
                ("read", "rummy_bus_messages_read_total"),
                ("bus_cpu", "rummy_bus_subscriber_cpu_seconds_total"),
            ):
                match = re.search(rf"^{name} (\S+)$", text, re.MULTILINE)
                if match:
                    found[key][port] = float(match.group(1))
        return found

    def run(self) -> None:
        while not self.stop_event.is_set():
            try:
                self.samples.append(self.sample())
            except redis.RedisError as error:  # a slow answer on a busy machine: the next second's sample
                print(f"  (a sample of the counters failed: {error})", flush=True)
            self.stop_event.wait(1.0)

    def between(self, start: float, end: float) -> tuple[dict[str, Any], dict[str, Any]]:
        inside = [s for s in self.samples if start <= s["t"] <= end] or self.samples[-2:]
        return inside[0], inside[-1]


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def start_redis(log_dir: Path) -> None:
    stop_redis()  # one left by a run that was killed
    subprocess.run(
        [
            "redis-server",
            "--port",
            str(REDIS_PORT),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--daemonize",
            "yes",
            "--dir",
            str(log_dir),
            "--logfile",
            str(log_dir / "redis.log"),
            "--pidfile",
            str(log_dir / "redis.pid"),
        ],
        check=True,
    )
    for _ in range(100):
        try:
            redis.Redis(port=REDIS_PORT).ping()
            return
        except redis.ConnectionError:
            time.sleep(0.05)
    raise RuntimeError("redis-server did not start")


def stop_redis() -> None:
    server = redis.Redis(port=REDIS_PORT, socket_connect_timeout=1, retry_on_error=[])
    for _ in range(100):
        try:
            server.ping()
        except redis.ConnectionError:
            return  # nothing answers on the port (any more)
        try:
            server.shutdown(nosave=True)  # returns once the server has closed the connection
        except redis.RedisError:
            pass
        time.sleep(0.05)


def run_one(code: Path, p: int, args: argparse.Namespace, log_dir: Path) -> dict[str, Any]:
    ports = [8900 + i for i in range(p)]
    stack = CodeStack(
        ports=ports,
        db=DB,
        redis_db=0,
        redis_port=REDIS_PORT,
        code=code,
        log_dir=log_dir / f"p{p}",
        extra_env=dict(item.split("=", 1) for item in args.env),
    )
    print(f"\n== {code} P = {p}, {args.tables} tables, spread by {args.spread} (load {load_average()})", flush=True)
    counters = Counters(ports)
    try:
        for port in ports:
            stack.start_daphne(port)
        stack.start_worker()
        stack.start_beat()
        for port in ports:
            stack.wait_ready(port, 300)  # eight processes starting at once on a busy machine take a while
        tables = open_tables(args.tables, bot_every=10)
        urls = stack.urls()
        for table in tables:
            if args.spread == "tables":
                table["urls"] = [urls[table["id"] % len(urls)]]
        spec = {
            "urls": urls,
            "tables": tables,
            "ramp": args.ramp,
            "warmup": args.warmup,
            "duration": args.duration,
            "think": [1.0, 3.0],
            "ping_every": 5.0,
            "pings": "quiet",
            "seed": p,
        }
        work = stack.log_dir
        (work / "spec.json").write_text(json.dumps(spec))
        sampler = Sampler(stack.pids(), DB)
        # This bench's Redis only (the machine's shared one serves other people too).
        sampler.groups["redis"] = [psutil.Process(int((log_dir.parent / "redis.pid").read_text()))]
        generator = subprocess.Popen(
            [
                str(BIN / "python"),
                str(ROOT / "bench" / "players.py"),
                str(work / "spec.json"),
                str(work / "result.json"),
            ],
            cwd=ROOT,
        )
        sampler.add("load generator", generator.pid)
        sampler.start()
        counters.start()
        generator.wait(timeout=args.ramp + args.warmup + args.duration + 180)
        sampler.stop_event.set()
        counters.stop_event.set()
        sampler.join()
        counters.join()
        result = json.loads((work / "result.json").read_text())
        close_tables([table["id"] for table in tables])
    finally:
        stack.stop()
    start, end = result["measure_from"], result["measure_to"]
    first, last = counters.between(start, end)
    resources = sampler.summary(start, end)
    moves = max(1, result["moves_acked"])
    seconds = last["t"] - first["t"]
    moves_in_counters = moves * seconds / result["measured_s"]  # the counters' window is whole seconds
    publishes = last["publish"] - first["publish"]
    read = {port: last["read"][port] - first["read"].get(port, 0) for port in last["read"]}
    bus_cpu = {port: last["bus_cpu"][port] - first["bus_cpu"].get(port, 0) for port in last["bus_cpu"]}
    cpu = resources.get("cpu_pct", {})
    per_move = {
        group: 10 * cpu.get(group, 0) * result["measured_s"] / moves
        for group in ("daphne", "worker", "beat", "postgres", "redis")
    }
    row = {
        "code": str(code),
        "processes": p,
        "tables": args.tables,
        "spread": args.spread,
        "sockets_open": result["connected_at_start"],
        "moves": result["moves_acked"],
        "moves_per_s": result["moves_acked"] / result["measured_s"],
        "redis_out_bytes_per_move": (last["out"] - first["out"]) / moves_in_counters,
        "publishes_per_move": publishes / moves_in_counters,
        # Without the metric (one channel for the site) every process reads every publish.
        "read_per_process_per_move": {str(port): count / moves_in_counters for port, count in read.items()}
        or {str(port): publishes / moves_in_counters for port in ports},
        "read_counted": bool(read),
        "bus_cpu_us_per_move": {str(port): 1e6 * spent / moves_in_counters for port, spent in bus_cpu.items()},
        "daphne_cpu_ms_per_move": per_move["daphne"],
        "stack_cpu_ms_per_move": sum(per_move.values()),
        "p50_ms": percentile(result["latencies_ms"], 50),
        "p99_ms": percentile(result["latencies_ms"], 99),
        "errors": sum(result["errors"].values()),
        "drops": result["drops"],
        "others_cpu_pct": cpu.get("others", 0.0),
        "load_average": load_average(),
    }
    (work / "row.json").write_text(json.dumps(row, indent=1))
    print_row(row)
    return row


def print_row(row: dict[str, Any]) -> None:
    reads = list(row["read_per_process_per_move"].values())
    bus_cpu = list(row["bus_cpu_us_per_move"].values())
    print(
        f"  P={row['processes']}  moves/s {row['moves_per_s']:.1f}  open {row['sockets_open']}"
        f"  redis out {row['redis_out_bytes_per_move'] / 1024:.1f} KiB/move  publishes {row['publishes_per_move']:.2f}/move"
        f"  read/process/move {min(reads, default=0):.2f}-{max(reads, default=0):.2f}"
        f" ({'counted' if row['read_counted'] else 'every publish'})"
        f"  bus thread {sum(bus_cpu) / max(1, len(bus_cpu)):.0f} us/move/process"
        f"  daphne {row['daphne_cpu_ms_per_move']:.2f} ms/move  stack {row['stack_cpu_ms_per_move']:.2f} ms/move"
        f"  p50 {row['p50_ms']:.0f} ms  p99 {row['p99_ms']:.0f} ms  errors {row['errors']}  drops {row['drops']}"
        f"  others {row['others_cpu_pct']:.0f}%  load {row['load_average']}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--processes", default="1,2,4,8", help="comma-separated P values")
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--spread", choices=("sockets", "tables"), default="sockets")
    parser.add_argument(
        "--code", action="append", default=[], help="checkouts to run (each, for every P); default: this one"
    )
    parser.add_argument("--duration", type=float, default=40.0)
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--ramp", type=float, default=15.0)
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for the stack's processes")
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # a kill still stops the stack and the Redis

    codes = [Path(code).resolve() for code in args.code] or [ROOT]
    log_dir = Path(f"/tmp/rummy-bus-scale-{os.getpid()}")
    log_dir.mkdir(parents=True, exist_ok=True)
    print(f"Logs: {log_dir}", flush=True)
    start_redis(log_dir)
    rows = []
    try:
        setup_django(DB, 0, REDIS_PORT)
        CodeStack(ports=[8900], db=DB, redis_db=0, redis_port=REDIS_PORT, log_dir=log_dir).prepare()
        for p in [int(value) for value in args.processes.split(",")]:
            for code in codes:  # before and after side by side, for each P
                rows.append(run_one(code, p, args, log_dir / code.name))
                if args.out:
                    Path(args.out).write_text(json.dumps(rows, indent=1))
    finally:
        stop_redis()
    print(
        f"\nMachine: {os.cpu_count()} cores; {args.tables} tables, spread by {args.spread}; {args.duration:.0f} s measured"
        f" after {args.ramp:.0f} s ramp + {args.warmup:.0f} s warm-up"
    )
    for row in rows:
        print(f"{row['code']}:")
        print_row(row)


if __name__ == "__main__":
    main()
