"""The real stack for benchmarks and drills: daphne (one or more processes), a Celery worker and beat, on
PostgreSQL and Redis, all on loopback.

Each process is started with production-like settings (DEBUG off, a random SECRET_KEY, no HTTPS
redirect since everything is plain loopback HTTP) and its own log file. The bench uses its own database
(default `rummy_bench`), its own Redis database (default 5) and ports 8030-8039, so it never touches what
other people run on the same machine (ports 8000-8029, Redis 0-2).

    stack = Stack(ports=[8030])
    stack.prepare()          # create the database if needed, migrate, load the catalog, empty Redis db
    stack.start()            # daphne(s), worker, beat; waits for /healthz
    ...
    stack.stop()
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / ".venv" / "bin"
if not BIN.exists():  # running from an interpreter outside the project's venv
    BIN = Path(sys.executable).parent

DEFAULT_DB = "rummy_bench"
DEFAULT_REDIS_DB = 5
PORTS = range(8030, 8040)


def bench_env(db: str = DEFAULT_DB, redis_db: int = DEFAULT_REDIS_DB, redis_port: int = 6379, **extra: str) -> dict[str, str]:
    """The environment of every process of the bench stack (and of the bench scripts' own Django)."""
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE"}}
    env.update(
        DATABASE_URL=f"postgres://rummy:rummy@127.0.0.1:5432/{db}",
        REDIS_URL=f"redis://127.0.0.1:{redis_port}/{redis_db}",
        SECRET_KEY=env.get("BENCH_SECRET_KEY") or secrets.token_urlsafe(64),
        DEBUG="0",
        SECURE_SSL_REDIRECT="0",
        SECURE_HSTS_SECONDS="0",
        EMAIL_URL="console",  # production settings refuse to guess where mail goes
        LOG_JSON="0",  # the drills read the logs' plain lines
        ALLOWED_HOSTS="127.0.0.1,localhost",
        CELERY_BEAT_SCHEDULE_FILENAME=f"/tmp/rummy-bench-beat-{db}",
        PYTHONPATH=str(ROOT),
        PYTHONUNBUFFERED="1",
        # The scripted clients send no browser seed: deal at once rather than after the seeds' window.
        TABLE_FAIR_SEED_SECONDS="0",
        # The bench's few players play table after table together: keep every one rated, as a site's
        # many different players' tables are (SPEC 11's daily cap on the same opponents).
        RATED_REPEAT_LIMIT=env.get("RATED_REPEAT_LIMIT") or "1000000",
        # Every scripted player comes from 127.0.0.1, and one user may drive many tables: the SPEC 11
        # limits are for strangers, not for the bench's crowd (a drill that tests a limit sets its own).
        LIVE_SOCKETS_PER_ADDRESS="1000000",
        LIVE_SOCKETS_PER_USER="100000",
        GUESTS_PER_ADDRESS_PER_HOUR="1000000",
        TABLE_UNSTARTED_PER_HOST="10000",
        TABLE_SEATS_PER_USER="10000",
    )
    env.update(extra)
    return env


def setup_django(db: str = DEFAULT_DB, redis_db: int = DEFAULT_REDIS_DB, redis_port: int = 6379, **extra: str) -> None:
    """Configure Django in this process for the bench database (to open tables, read the truth)."""
    os.environ.update(bench_env(db, redis_db, redis_port, **extra))
    os.environ["BENCH_SECRET_KEY"] = os.environ["SECRET_KEY"]
    os.environ["DJANGO_SETTINGS_MODULE"] = "rummysite.settings"
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import django

    django.setup()


@dataclass
class Stack:
    ports: list[int] = field(default_factory=lambda: [8030])
    db: str = DEFAULT_DB
    redis_db: int = DEFAULT_REDIS_DB
    worker: bool = True
    beat: bool = True
    worker_concurrency: int = 2
    redis_port: int = 6379  # 6379: the machine's shared Redis (our own db number); else a PrivateRedis
    asgi_app: str = "rummysite.asgi:application"
    log_dir: Path = field(default_factory=lambda: Path(f"/tmp/rummy-bench-{os.getpid()}"))
    extra_env: dict[str, str] = field(default_factory=dict)
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for port in self.ports:
            if port not in PORTS:
                raise ValueError(f"port {port}: the bench uses ports 8030-8039 only")
        if self.redis_port == 6379 and not 3 <= self.redis_db <= 9:
            raise ValueError("the bench uses Redis databases 3-9 only")
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.env = bench_env(self.db, self.redis_db, self.redis_port, **self.extra_env)
        os.environ["BENCH_SECRET_KEY"] = self.env["SECRET_KEY"]

    # -- preparing -------------------------------------------------------------------------------------

    def prepare(self, *, flush_redis: bool = True) -> None:
        exists = subprocess.run(
            ["runuser", "-u", "postgres", "--", "psql", "-tAc", f"SELECT 1 FROM pg_database WHERE datname='{self.db}'"],
            capture_output=True,
            text=True,
        )
        if exists.stdout.strip() != "1":
            subprocess.run(["runuser", "-u", "postgres", "--", "createdb", "-O", "rummy", self.db], check=True)
        for args in (["migrate", "--noinput", "-v0"], ["load_catalog"]):
            subprocess.run([str(BIN / "python"), "manage.py", *args], cwd=ROOT, env=self.env, check=True,
                           stdout=subprocess.DEVNULL)
        if flush_redis:
            self.flush_redis()

    def flush_redis(self) -> None:
        subprocess.run(["redis-cli", "-p", str(self.redis_port), "-n", str(self.redis_db), "FLUSHDB"], check=True,
                       stdout=subprocess.DEVNULL)

    # -- processes ---------------------------------------------------------------------------------------

    def _spawn(self, name: str, args: list[str]) -> subprocess.Popen[bytes]:
        log = open(self.log_dir / f"{name}.log", "ab")  # noqa: SIM115 - owned by the child's lifetime
        process = subprocess.Popen(args, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        self.processes[name] = process
        return process

    def start_daphne(self, port: int) -> subprocess.Popen[bytes]:
        return self._spawn(f"daphne-{port}", [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), self.asgi_app])

    def start_worker(self) -> subprocess.Popen[bytes]:
        return self._spawn("worker", [str(BIN / "celery"), "-A", "rummysite", "worker", "--loglevel=WARNING",
                                      f"--concurrency={self.worker_concurrency}", "--without-gossip",
                                      "--without-mingle", "-n", f"bench-{os.getpid()}@localhost"])

    def start_beat(self) -> subprocess.Popen[bytes]:
        return self._spawn("beat", [str(BIN / "celery"), "-A", "rummysite", "beat", "--loglevel=WARNING",
                                    f"--schedule={self.env['CELERY_BEAT_SCHEDULE_FILENAME']}"])

    def start(self, timeout: float = 60) -> None:
        for port in self.ports:
            self.start_daphne(port)
        if self.worker:
            self.start_worker()
        if self.beat:
            self.start_beat()
        for port in self.ports:
            self.wait_ready(port, timeout)

    def wait_ready(self, port: int, timeout: float = 60) -> float:
        """Poll /healthz until it answers 200; returns the seconds it took."""
        started = time.monotonic()
        while time.monotonic() - started < timeout:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as response:
                    if response.status == 200:
                        return time.monotonic() - started
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"daphne on port {port} did not become healthy in {timeout} s; see {self.log_dir}")

    def kill(self, name: str, sig: int = signal.SIGTERM, wait: float = 15) -> None:
        process = self.processes.pop(name, None)
        if process is None or process.poll() is not None:
            return
        try:
            if sig == signal.SIGKILL:
                os.killpg(process.pid, sig)  # the process and its children (the worker's pool) at once
            else:
                process.send_signal(sig)  # a warm shutdown: the worker finishes and stops its own pool
        except ProcessLookupError:
            return
        try:
            process.wait(wait)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)

    def stop(self) -> None:
        for name in list(self.processes):
            self.kill(name)

    def pids(self) -> dict[str, int]:
        return {name: process.pid for name, process in self.processes.items() if process.poll() is None}

    def urls(self) -> list[str]:
        return [f"ws://127.0.0.1:{port}" for port in self.ports]

    def __enter__(self) -> Stack:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


class PrivateRedis:
    """A Redis server of the bench's own (on a bench port, no persistence), for the drills that restart
    Redis: the machine's shared Redis is never restarted."""

    def __init__(self, port: int = 8039, log_dir: Path | None = None) -> None:
        if port not in PORTS:
            raise ValueError("the bench uses ports 8030-8039 only")
        self.port = port
        self.log_dir = log_dir or Path(f"/tmp/rummy-bench-{os.getpid()}")
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        log = open(self.log_dir / f"redis-{self.port}.log", "ab")  # noqa: SIM115
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        for _ in range(100):
            if subprocess.run(["redis-cli", "-p", str(self.port), "ping"], capture_output=True).returncode == 0:
                return
            time.sleep(0.05)
        raise RuntimeError(f"redis-server on port {self.port} did not start")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
        self.process = None
