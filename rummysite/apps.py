from __future__ import annotations

from django.apps import AppConfig


class SiteConfig(AppConfig):
    """The project package as an app, so that its system checks (rummysite/checks.py) are registered
    for `manage.py check` and `migrate`. It has no models."""

    name = "rummysite"
    label = "rummysite"
    verbose_name = "Tile Rummy site"

    def ready(self) -> None:
        from rummysite import checks  # noqa: F401  (registers the checks)
