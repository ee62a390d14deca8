"""The site's own system checks: `manage.py check` and `migrate` run them, and so does a web process at
start (rummysite/asgi.py), which stops on an error.

Static files in production. With DEBUG off the pages link their static files through the manifest that
`collectstatic` writes (whitenoise's CompressedManifestStaticFilesStorage): without it every page that
links one answers 500 ("Missing staticfiles manifest entry"), /play/ first (issue 40). A process in that
state stops at start and says what to run, instead of serving errors. A run that only this machine can
reach (the bench's stack: every allowed host is loopback) is warned and goes on."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.staticfiles.storage import ManifestFilesMixin
from django.core.checks import CheckMessage, Error, Warning, register
from django.core.files.storage import storages

MISSING_MANIFEST = "rummysite.E001"
#: The same, on a run that only this machine can reach (every allowed host is loopback: the bench's
#: stack, a trial): said, but the run goes on, as its pages are not what it is for.
MISSING_MANIFEST_LOCAL = "rummysite.W001"
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "[::1]", "::1"})


@register()  # not tagged "staticfiles": collectstatic, which makes the manifest, runs those
def static_manifest(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    storage = storages["staticfiles"]
    if not isinstance(storage, ManifestFilesMixin):  # DEBUG on: files are served as they are
        return []
    if storage.manifest_storage.exists(storage.manifest_name):
        return []
    where = storage.manifest_storage.path(storage.manifest_name)
    local = all(host in LOOPBACK_HOSTS for host in settings.ALLOWED_HOSTS)
    kind = Warning if local else Error
    return [
        kind(
            f"DEBUG is off and the static files are not collected: {where} is missing, so every page that "
            "links a static file would answer 500.",
            hint="Run `python manage.py collectstatic --noinput` with the same settings before starting the "
            "server (the Docker image does it when it is built; docs/operations.md, \"Deploy\").",
            id=MISSING_MANIFEST_LOCAL if local else MISSING_MANIFEST,
        )
    ]


def at_start() -> list[CheckMessage]:
    """What a web process checks at start: an error stops it, a warning is logged."""
    return static_manifest()
