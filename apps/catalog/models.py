from django.db import models
from django.utils.translation import gettext_lazy as _


class Game(models.Model):
    """A game of the catalog. Rows come from `apps/catalog/data.py` through `manage.py load_catalog`."""

    slug = models.SlugField(_("slug"), max_length=40, unique=True)
    name = models.CharField(_("name"), max_length=80)
    tagline = models.TextField(_("tagline"), blank=True)
    min_players = models.PositiveSmallIntegerField(_("fewest players"))
    max_players = models.PositiveSmallIntegerField(_("most players"))
    min_minutes = models.PositiveSmallIntegerField(_("shortest match, minutes"))
    max_minutes = models.PositiveSmallIntegerField(_("longest match, minutes"))
    difficulty = models.CharField(_("difficulty"), max_length=40)
    has_leaderboard = models.BooleanField(_("has a leaderboard"), default=True)
    position = models.PositiveSmallIntegerField(_("position in the catalog"), default=0)

    class Meta:
        ordering = ["position", "slug"]
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self) -> str:
        return self.name
