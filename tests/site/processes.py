"""A fresh process of the site, for what a process decides once, at start: its settings, the SDKs it
starts, the servers it runs. Nothing of the test run's own configuration leaks in unless asked."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

#: Variables a fresh process does not inherit from the test run (CI points some at PostgreSQL and Redis;
#: the others choose production or development behaviour, which each test sets itself).
NOT_INHERITED = frozenset({
    "DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "EMAIL_URL", "DATABASE_POOL", "CONN_MAX_AGE", "LOG_JSON",
    "SENTRY_DSN", "PROMETHEUS_MULTIPROC_DIR", "METRICS_PORT", "TRUSTED_PROXIES", "INTERNAL_NETWORKS",
})

#: What a production process needs at the least.
PRODUCTION = {"SECRET_KEY": "s" * 64, "DEBUG": "0", "ALLOWED_HOSTS": "rummy.example.com", "EMAIL_URL": "console"}


def environment(**variables: str) -> dict[str, str]:
    inherited = {k: v for k, v in os.environ.items() if k not in NOT_INHERITED and not k.startswith("SECURE_")}
    return {**inherited, "DJANGO_SETTINGS_MODULE": "rummysite.settings", **variables}


def manage(args: list[str], **variables: str) -> subprocess.CompletedProcess[str]:
    """`manage.py ARGS` in a fresh process with these variables."""
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=environment(**variables),
                          capture_output=True, text=True, timeout=120)


def python(code: str, **variables: str) -> subprocess.CompletedProcess[str]:
    """`python -c CODE` (dedented) in a fresh process with these variables; CODE calls django.setup()."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, env=environment(**variables),
                          capture_output=True, text=True, timeout=120)


def shell(code: str, **variables: str) -> Any:
    """Run CODE in `manage.py shell` (Django set up) and return the JSON its last line of output holds."""
    result = manage(["shell", "-c", textwrap.dedent(code)], **variables)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])
