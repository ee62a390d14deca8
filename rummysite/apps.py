from __future__ import annotations

from django.apps import AppConfig


class SiteConfig(AppConfig):
    """The project package as an app, so that its system checks (rummysite/checks.py) are registered
    for `manage.py check` and `migrate`, and a request's database connections are closed when it ends
    (rummysite/connections.py). It has no models."""

    name = "rummysite"
    label = "rummysite"
    verbose_name = "Tile Rummy site"

    def ready(self) -> None:
        from django.core.signals import request_finished

        from rummysite import checks  # noqa: F401  (registers the checks)
        from rummysite.connections import close_request_connections

        request_finished.connect(close_request_connections, dispatch_uid="rummysite.close_request_connections")
