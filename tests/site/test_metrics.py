"""Prometheus metrics (the instruments in apps/lib/metrics.py, served by rummysite/metrics.py): a scripted game moves them by exactly what it did, the
endpoint is refused to the public, and every process's metrics (a worker's children too) are served."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
from channels.testing import WebsocketCommunicator
from django.db.models import Count
from django.test import override_settings
from prometheus_client import REGISTRY

from apps.engine.game import get_rules
from apps.leaderboards import tasks as rating_tasks
from apps.lib import metrics as instruments
from apps.tables import services
from apps.tables.models import MoveLog, Seat
from apps.tables.services import sql
from rummysite import metrics
from rummysite.asgi import application
from tests.site.processes import python
from tests.tables.helpers import human_move, make_user, play_match, state_of

PUBLIC = "203.0.113.9"


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


@pytest.mark.django_db(transaction=True)  # the counters move when the moves commit
def test_a_scripted_game_moves_the_counters_by_exactly_its_moves():
    alice = make_user("alice")
    table = services.table_open(by=alice, game="tile-rummy", seat_count=2, bots=["easy"])
    services.table_start(table_id=table.pk, by=alice)
    before = {actor: sample("rummy_moves_total", game="tile-rummy", actor=actor) for actor in ("player", "bot")}
    latencies_before = sample("rummy_move_broadcast_seconds_count", game="tile-rummy")

    play_match(table.pk, seed=5)

    made = dict(MoveLog.objects.filter(game__match__table=table).values_list("actor").annotate(n=Count("pk")))
    assert set(made) == {"player", "bot"} and min(made.values()) > 5
    moved = {actor: sample("rummy_moves_total", game="tile-rummy", actor=actor) - before[actor] for actor in made}
    assert moved == made
    # Every move's new version was broadcast, and each broadcast's latency observed once.
    assert sample("rummy_move_broadcast_seconds_count", game="tile-rummy") - latencies_before == sum(made.values())
    assert ("tile-rummy", "finished", 1) in metrics.open_tables()


@pytest.mark.django_db(transaction=True)
def test_a_move_whose_transaction_rolls_back_is_neither_counted_nor_timed(monkeypatch):
    alice, bob = make_user("alice"), make_user("bob")
    table = services.table_open(by=alice, game="tile-rummy", seat_count=2)
    services.table_join(table_id=table.pk, by=bob)
    services.table_start(table_id=table.pk, by=alice)
    seat_index = get_rules("tile-rummy").to_move(state_of(table.pk)[1])
    to_move = Seat.objects.select_related("user").get(table=table, index=seat_index)
    move = human_move(table.pk, seat_index, random.Random(1))
    before = (sample("rummy_moves_total", game="tile-rummy", actor="player"), sample("rummy_move_broadcast_seconds_count", game="tile-rummy"))

    def lost_database(*args: object, **fields: object) -> None:  # the move was applied; saving it fails
        raise RuntimeError("the database went away")

    monkeypatch.setattr(sql, "write", lost_database)  # how the move path writes its rows
    with pytest.raises(RuntimeError):
        services.game_move(table_id=table.pk, by=to_move.user, move=move)
    after = (sample("rummy_moves_total", game="tile-rummy", actor="player"), sample("rummy_move_broadcast_seconds_count", game="tile-rummy"))
    assert after == before


def test_a_failing_rating_task_is_counted(monkeypatch):
    def broken(*, match_id: int) -> bool:
        raise RuntimeError("the rating ledger is away")

    monkeypatch.setattr(rating_tasks, "rating_apply_match", broken)
    name = rating_tasks.rate_match.name
    before = sample("rummy_celery_task_failures_total", task=name)
    result = rating_tasks.rate_match.apply(args=(1,))
    assert result.failed()
    assert sample("rummy_celery_task_failures_total", task=name) == before + 1


def test_a_tasks_lag_runs_from_its_eta_or_from_when_it_was_queued():
    now = datetime(2026, 12, 1, 12, 0, 0, tzinfo=UTC).timestamp()
    late_eta = (datetime(2026, 12, 1, 11, 59, 57, tzinfo=UTC)).isoformat()
    assert instruments.task_lag(SimpleNamespace(eta=late_eta), now) == pytest.approx(3.0)
    assert instruments.task_lag(SimpleNamespace(eta=None, rummy_published_at=now - 0.25), now) == pytest.approx(0.25)
    early = (datetime.fromtimestamp(now, UTC) + timedelta(seconds=1)).isoformat()
    assert instruments.task_lag(SimpleNamespace(eta=early), now) == 0.0
    assert instruments.task_lag(SimpleNamespace(eta=None), now) is None  # sent by something that did not stamp it


def test_every_task_sent_is_stamped_with_when_it_was_queued():
    headers: dict[str, object] = {}
    instruments._stamp_published(headers=headers)
    assert isinstance(headers[instruments.PUBLISHED_HEADER], float)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)  # the socket's session is read on a database thread, which may hold a connection from an earlier test
async def test_open_websockets_are_counted_until_they_close():
    headers = [(b"host", b"127.0.0.1"), (b"origin", b"http://127.0.0.1:8000")]
    before = sample("rummy_websockets_connected", endpoint="other")
    socket = WebsocketCommunicator(application, "/ws/ping/", headers=headers)
    assert (await socket.connect(timeout=5))[0]
    assert sample("rummy_websockets_connected", endpoint="other") == before + 1
    refused = WebsocketCommunicator(application, "/ws/ping/", headers=[(b"host", b"127.0.0.1"), (b"origin", b"https://evil.example")])
    assert not (await refused.connect(timeout=5))[0]
    assert sample("rummy_websockets_connected", endpoint="other") == before + 1
    await socket.disconnect()
    await socket.wait(timeout=5)
    assert sample("rummy_websockets_connected", endpoint="other") == before


@pytest.mark.django_db
def test_the_metrics_endpoint_refuses_the_public(client):
    response = client.get("/metrics", REMOTE_ADDR=PUBLIC)
    assert response.status_code == 404
    assert b"rummy_" not in response.content


@pytest.mark.django_db
@override_settings(METRICS_TOKEN="t" * 40)
def test_the_metrics_endpoint_answers_staff_the_token_and_the_internal_network(client):
    assert client.get("/metrics", REMOTE_ADDR=PUBLIC, HTTP_AUTHORIZATION="Bearer " + "x" * 40).status_code == 404
    by_token = client.get("/metrics", REMOTE_ADDR=PUBLIC, HTTP_AUTHORIZATION="Bearer " + "t" * 40)
    internal = client.get("/metrics", REMOTE_ADDR="127.0.0.1")
    player = make_user("player")
    client.force_login(player)
    assert client.get("/metrics", REMOTE_ADDR=PUBLIC).status_code == 404
    client.force_login(make_user("moderator", staff=True))
    staff = client.get("/metrics", REMOTE_ADDR=PUBLIC)
    for response in (by_token, internal, staff):
        assert response.status_code == 200
        text = response.content.decode()
        for name in ("rummy_moves_total", "rummy_move_broadcast_seconds", "rummy_websockets_connected",
                     "rummy_tables_open", "rummy_celery_queue_length", "rummy_celery_task_lag_seconds",
                     "rummy_celery_task_failures_total"):
            assert f"# TYPE {name.removesuffix('_total')}" in text, name


def test_a_workers_children_are_summed_in_multiprocess_mode(tmp_path):
    """Celery's prefork children each count their own failures; the main process serves the sum."""
    result = python(
        """
        import django, multiprocessing
        django.setup()
        from apps.lib.metrics import TASK_FAILURES
        from rummysite import metrics

        def fail(times):
            for _ in range(times):
                TASK_FAILURES.labels(task="apps.leaderboards.tasks.rate_match").inc()

        children = [multiprocessing.get_context("fork").Process(target=fail, args=(n,)) for n in (2, 3)]
        for child in children: child.start()
        for child in children: child.join()
        print(metrics.exposition(site=False).decode())
        """,
        PROMETHEUS_MULTIPROC_DIR=str(tmp_path),
    )
    assert result.returncode == 0, result.stderr
    assert 'rummy_celery_task_failures_total{task="apps.leaderboards.tasks.rate_match"} 5.0' in result.stdout


def test_a_process_serves_its_metrics_on_the_metrics_port():
    result = python(
        """
        import socket, urllib.request, django
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]
        import os; os.environ["METRICS_PORT"] = str(port)
        django.setup()
        from apps.lib.metrics import MOVES
        from rummysite import metrics
        assert metrics.start_exporter()
        assert not metrics.start_exporter()  # once per process
        MOVES.labels(game="tile-rummy", actor="bot").inc(3)
        print(urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read().decode())
        """
    )
    assert result.returncode == 0, result.stderr
    assert 'rummy_moves_total{actor="bot",game="tile-rummy"} 3.0' in result.stdout
    assert "rummy_celery_queue_length" in result.stdout
