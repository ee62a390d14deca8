"""What a "your turn" notification costs (issue 45): the subscriber's work after a move's commit (one
notification made, its frame published on the player's topic, its push task queued when the player has a
subscribed browser) with 0, 1 and 5 subscriptions, in CPU and statements; and the push task itself (the
payload encrypted per browser with pywebpush, VAPID-signed, POSTed to a push service on 127.0.0.1 that
answers 201), with 1 and 5 subscriptions. On the bench's PostgreSQL and Redis.

    .venv/bin/python bench/notify_cost.py [--events 300] [--db rummy_bench] [--redis-db 6]

The time from a move's commit to its push leaving is NOTIFICATIONS_PUSH_DELAY (2 s, on purpose) plus the
broker's hop plus the task's wall time printed here.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.stack import Stack, setup_django  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=300)
    parser.add_argument("--db", default="rummy_bench")
    parser.add_argument("--redis-db", type=int, default=6)
    args = parser.parse_args()
    Stack(db=args.db, redis_db=args.redis_db).prepare()
    setup_django(db=args.db, redis_db=args.redis_db)

    from django.conf import settings
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from apps.accounts.models import User
    from apps.lib.events import deliver
    from apps.notifications import push, services
    from apps.notifications.management.commands.vapid_keys import new_pair
    from apps.notifications.models import Notification, PushSubscription
    from apps.tables.events import TurnPassed
    from tests.notifications.push_service import Browser, PushService, b64url

    public, private = new_pair()
    settings.WEBPUSH_VAPID_PUBLIC_KEY, settings.WEBPUSH_VAPID_PRIVATE_KEY = public, private
    settings.NOTIFICATIONS_PUSH_ALLOW_HTTP = True
    queued: list[tuple[object, ...]] = []
    services.queue_task = lambda name, *task_args, eta=None: queued.append(task_args) or True  # type: ignore[assignment]

    print(f"load average (1 min) {os.getloadavg()[0]:.2f}")
    with PushService() as service:
        for devices in (0, 1, 5):
            user, _ = User.objects.get_or_create(username=f"bench-notify-{devices}")
            Notification.objects.filter(user=user).delete()
            PushSubscription.objects.filter(user=user).delete()
            for n in range(devices):
                browser = Browser()
                push.subscribe(user=user, endpoint=service.endpoint(f"{devices}-{n}"), p256dh=browser.p256dh,
                               auth=b64url(browser.auth))
            cpu, statements = [], []
            for n in range(args.events):
                Notification.objects.filter(user=user).update(read_at=None) if n == 0 else None
                with CaptureQueriesContext(connection) as queries:
                    start = time.process_time()
                    # A different table each time: each is a new notification, as at a day-long table after a read.
                    deliver([TurnPassed(table_id=1_000_000 + n, seat=0, user_id=user.pk)])
                    cpu.append((time.process_time() - start) * 1000)
                statements.append(len(queries))
            print(f"{devices} subscriptions: the subscriber per event {statistics.mean(cpu):.2f} ms CPU mean "
                  f"(median {statistics.median(cpu):.2f}), {statistics.mean(statements):.1f} statements; "
                  f"push tasks queued {len(queued)}")
            queued.clear()
            if devices:
                note_ids = list(Notification.objects.filter(user=user).values_list("pk", flat=True)[:50])
                wall, task_cpu = [], []
                for note_id in note_ids:
                    start_wall, start_cpu = time.perf_counter(), time.process_time()
                    outcome = push.push_notification(note_id)
                    wall.append((time.perf_counter() - start_wall) * 1000)
                    task_cpu.append((time.process_time() - start_cpu) * 1000)
                    assert outcome.sent == devices, outcome
                wall.sort()
                print(f"  the push task, {devices} browsers: {statistics.mean(task_cpu):.1f} ms CPU mean, wall median "
                      f"{statistics.median(wall):.1f} ms, p95 {wall[int(len(wall) * 0.95) - 1]:.1f} ms "
                      f"({len(service.received)} pushes received)")
            Notification.objects.filter(user=user).delete()


if __name__ == "__main__":
    main()
