from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """A player. The username is the display name. Guests are real accounts made in one click, with
    no email and no password, that can later be turned into registered accounts (keeping history)."""

    is_guest = models.BooleanField(_("guest"), default=False, db_index=True)
    banned_until = models.DateTimeField(_("banned until"), null=True, blank=True)
    ban_reason = models.CharField(_("ban reason"), max_length=200, blank=True)
    last_seen = models.DateTimeField(_("last seen"), null=True, blank=True)
    # The player's own choice of language (SPEC 12), applied when they sign in; "" follows the browser.
    language = models.CharField(_("language"), max_length=10, blank=True, default="")
    # Marked by a moderator as a booster (SPEC 11): barred from rated play from then on. Set only through
    # the moderation service (apps/moderation), which also voids the account's rating gains.
    booster_since = models.DateTimeField(_("marked as booster"), null=True, blank=True)

    class Meta(AbstractUser.Meta):  # type: ignore[name-defined, misc]  # Django's, left out of django-stubs
        swappable = "AUTH_USER_MODEL"
        verbose_name = _("user")
        verbose_name_plural = _("users")

    @property
    def is_banned(self) -> bool:
        return self.banned_until is not None and self.banned_until > timezone.now()

    @property
    def is_booster(self) -> bool:
        return self.booster_since is not None

    @property
    def is_registered(self) -> bool:
        """A registered human: counts for ratings (guests never do)."""
        return not self.is_guest
