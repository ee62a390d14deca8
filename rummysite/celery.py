"""The Celery application. Tasks live in each app's `tasks.py`; settings use the CELERY_ prefix."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummysite.settings")

app = Celery("rummysite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
