from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PuzzlesConfig(AppConfig):
    name = "apps.puzzles"
    label = "puzzles"
    verbose_name = _("Puzzles")

    def ready(self) -> None:
        from apps.accounts.services import guest_activity

        guest_activity("puzzle_attempts")  # a guest who only solved puzzles keeps them as one who played
