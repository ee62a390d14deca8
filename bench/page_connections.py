"""What a burst of page requests costs one web process, and what it leaves open on PostgreSQL (issue 40,
section 6: with CONN_MAX_AGE=300 under daphne every request thread kept its own idle connection; 80 guest
sign-ups from 8 clients left 78 open).

    .venv/bin/python bench/page_connections.py [--clients 200] [--rounds 3] [--port 18450]
        [--db rummy_pages] [--redis-db 14] [--set NAME=VALUE ...]

One daphne with the bench's production-like settings (bench/stack.py `bench_env`: DEBUG off, PostgreSQL,
Redis; static files collected first), on a database of its own. Each client, all at once, takes the
lobby's CSRF cookie (`GET /play/`) and signs up as a guest (`POST /accounts/guest/`, which follows to a
page): three page requests. Meanwhile the connections to the database are counted every 10 ms
(pg_stat_activity, from the maintenance database: the counter is not one of them). Printed, one JSON
line per round: the connections before, at the peak and 2 s after, the requests' wall time (median, p90,
max), and the server's CPU per request (its /proc utime + stime).

`--set` passes settings to the server (CONN_MAX_AGE=300, DATABASE_POOL=1, HTTP_CONCURRENCY=...), to
compare. The test tests/site/test_page_connections.py uses the same burst and counter.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.stack import BIN, bench_env  # noqa: E402

MAINTENANCE_URL = "postgres://rummy:rummy@127.0.0.1:5432/postgres"
_CSRF_COOKIE = re.compile(r"csrftoken=([^;]+)")
_SESSION_COOKIE = re.compile(r"sessionid=([^;]+)")


# -- the database ------------------------------------------------------------------------------------------


def create_database(name: str, url: str = MAINTENANCE_URL) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        if connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is None:
            connection.execute(f'CREATE DATABASE "{name}"')


def drop_database(name: str, url: str = MAINTENANCE_URL) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class ConnectionCounter:
    """Counts the connections to one database every `every` seconds, from a thread, until stopped; `peak`
    is the most seen at once."""

    def __init__(self, database: str, url: str = MAINTENANCE_URL, every: float = 0.01) -> None:
        self.database, self.url, self.every = database, url, every
        self.peak = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def count(self) -> int:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as connection:
            return self._count(connection)

    def _count(self, connection) -> int:  # type: ignore[no-untyped-def]
        row = connection.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND backend_type = 'client backend'",
            [self.database],
        ).fetchone()
        return int(row[0])

    def _run(self) -> None:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as connection:
            while not self._stop.is_set():
                self.peak = max(self.peak, self._count(connection))
                self._stop.wait(self.every)

    def __enter__(self) -> ConnectionCounter:
        self.peak = 0
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="connection-counter", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        assert self._thread is not None
        self._thread.join(10)


# -- the server ----------------------------------------------------------------------------------------------


def server_env(database: str, redis_db: int, static_root: Path, **settings: str) -> dict[str, str]:
    return bench_env(database, redis_db, STATIC_ROOT=str(static_root), TABLE_WEB_HEARTBEAT="0", **settings)


def prepare(env: dict[str, str]) -> None:
    """Migrate the database and collect the static files (DEBUG is off: the pages need the manifest)."""
    for args in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]):
        subprocess.run([str(BIN / "python"), "manage.py", *args], cwd=ROOT, env=env, check=True,
                       stdout=subprocess.DEVNULL)


@contextmanager
def daphne(env: dict[str, str], port: int, log: Path, ceiling: float = 90.0) -> Iterator[subprocess.Popen[bytes]]:
    """One daphne on 127.0.0.1:`port`, its output in `log`, once /livez answers; stopped afterwards."""
    with log.open("wb") as out:
        process = subprocess.Popen([str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "rummysite.asgi:application"],
                                   cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + ceiling
        while True:
            try:
                status, _, _ = request(port, "GET", "/livez")
                if status == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError(log.read_text(errors="replace")[-4000:])
            time.sleep(0.2)
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def cpu_seconds(pid: int) -> float:
    """The process's CPU time so far (user + system), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# -- the clients ---------------------------------------------------------------------------------------------


def request(port: int, method: str, path: str, *, cookies: dict[str, str] | None = None, form: dict[str, str] | None = None,
            timeout: float = 120.0) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Host": "127.0.0.1", "Referer": f"http://127.0.0.1:{port}/play/"}
    if cookies:
        headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in cookies.items())
    body = None
    if form is not None:
        body = urllib.parse.urlencode(form)
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def sign_up(port: int) -> tuple[list[float], list[int]]:
    """One visitor: the lobby (its CSRF cookie), a guest account, the page it is sent to. The wall time
    and status of each request."""
    times, statuses = [], []

    def timed(method: str, path: str, **kwargs: object) -> tuple[int, dict[str, str], bytes]:
        started = time.perf_counter()
        answer = request(port, method, path, **kwargs)  # type: ignore[arg-type]
        times.append(time.perf_counter() - started)
        statuses.append(answer[0])
        return answer

    _, headers, _ = timed("GET", "/play/")
    csrf = _CSRF_COOKIE.search(headers.get("set-cookie", ""))
    cookies = {"csrftoken": csrf.group(1)} if csrf else {}
    status, headers, _ = timed("POST", "/accounts/guest/", cookies=cookies,
                               form={"csrfmiddlewaretoken": cookies.get("csrftoken", ""), "next": "/play/"})
    session = _SESSION_COOKIE.search(headers.get("set-cookie", ""))
    if status == 302 and session:
        timed("GET", headers.get("location", "/play/"), cookies={**cookies, "sessionid": session.group(1)})
    return times, statuses


def burst(port: int, clients: int) -> tuple[list[float], list[int]]:
    """`clients` visitors signing up at once (a thread each, released together)."""
    start = threading.Barrier(clients)
    results: list[tuple[list[float], list[int]]] = []
    lock = threading.Lock()

    def client() -> None:
        start.wait()
        outcome = sign_up(port)
        with lock:
            results.append(outcome)

    threads = [threading.Thread(target=client, daemon=True) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    times = [t for outcome in results for t in outcome[0]]
    statuses = [s for outcome in results for s in outcome[1]]
    return times, statuses


def pages(port: int, count: int, path: str = "/play/") -> list[int]:
    """`count` requests for one page at once (a thread each, released together): their statuses."""
    start = threading.Barrier(count)
    statuses: list[int] = []
    lock = threading.Lock()

    def client() -> None:
        start.wait()
        status = request(port, "GET", path)[0]
        with lock:
            statuses.append(status)

    threads = [threading.Thread(target=client, daemon=True) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    return statuses


def measure_round(port: int, pid: int, counter: ConnectionCounter, clients: int) -> dict[str, object]:
    before = counter.count()
    cpu = cpu_seconds(pid)
    with counter:
        times, statuses = burst(port, clients)
    cpu = cpu_seconds(pid) - cpu
    time.sleep(2)
    after = counter.count()
    ordered = sorted(times)
    return {
        "requests": len(times),
        "errors": sum(1 for status in statuses if status >= 400),
        "connections_before": before,
        "connections_peak": counter.peak,
        "connections_after_2s": after,
        "wall_ms_median": round(statistics.median(ordered) * 1000, 1),
        "wall_ms_p90": round(ordered[int(len(ordered) * 0.9)] * 1000, 1),
        "wall_ms_max": round(ordered[-1] * 1000, 1),
        "server_cpu_ms_per_request": round(cpu * 1000 / max(1, len(times)), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--port", type=int, default=18450)
    parser.add_argument("--db", default="rummy_pages")
    parser.add_argument("--redis-db", type=int, default=14)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="a setting of the server")
    args = parser.parse_args()
    settings = dict(item.split("=", 1) for item in args.set)
    work = Path(f"/tmp/rummy-pages-{os.getpid()}")
    work.mkdir(parents=True, exist_ok=True)
    env = server_env(args.db, args.redis_db, work / "static", **settings)
    create_database(args.db)
    prepare(env)
    counter = ConnectionCounter(args.db)
    print(json.dumps({"settings": settings, "clients": args.clients, "load": os.getloadavg()}), flush=True)
    with daphne(env, args.port, work / "daphne.log") as process:
        for _ in range(args.rounds):
            print(json.dumps(measure_round(args.port, process.pid, counter, args.clients)), flush=True)
    print(json.dumps({"load": os.getloadavg()}), flush=True)


if __name__ == "__main__":
    main()
