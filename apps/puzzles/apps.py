from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PuzzlesConfig(AppConfig):
    name = "apps.puzzles"
    label = "puzzles"
    verbose_name = _("Puzzles")
