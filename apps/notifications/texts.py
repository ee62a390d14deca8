"""A notification's words, made when it is shown or pushed, in the language active then (the reader's).

Only names and ids: nothing of a rack, a hand or a chat message is ever in a notification (SPEC 17).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse
from django.utils.translation import gettext as _

from apps.notifications.models import Kind
from apps.social.models import ChallengeInvitee


@dataclass(frozen=True, slots=True)
class Item:
    """What a page, a live frame or a push shows of one notification."""

    id: int
    kind: str
    actor: str
    table_id: int | None
    reason: str
    read: bool
    created: str  # ISO 8601
    tournament_id: int | None = None
    challenge_id: int | None = None
    subject: str = ""

    def text(self) -> str:
        return describe(self.kind, self.actor, self.table_id, self.reason, self.subject)

    def url(self) -> str:
        return link(self.table_id, self.tournament_id, self.challenge_id)

    def frame(self) -> dict[str, object]:
        return {"id": self.id, "kind": self.kind, "text": self.text(), "url": self.url(), "read": self.read,
                "created": self.created}


def reason_label(code: str) -> str:
    try:
        return str(ChallengeInvitee.Reason(code).label)
    except ValueError:
        return ""


def describe(kind: str, actor: str, table_id: int | None, reason: str = "", subject: str = "") -> str:
    """One sentence in the active language (`subject`: a tournament's name, translated if it is a calendar
    arena's)."""
    name = actor or _("A player")
    if kind == Kind.CHALLENGE_RECEIVED:
        return _("%(name)s challenged you to a table.") % {"name": name}
    if kind == Kind.CHALLENGE_ACCEPTED:
        return _("%(name)s accepted your challenge.") % {"name": name}
    if kind == Kind.CHALLENGE_DECLINED:
        label = reason_label(reason)
        if label:
            return _("%(name)s declined your challenge: %(reason)s.") % {"name": name, "reason": label}
        return _("%(name)s declined your challenge.") % {"name": name}
    if kind == Kind.YOUR_TURN:
        return _("Your turn at table %(table)s.") % {"table": table_id}
    if kind == Kind.FRIEND_OPENED:
        return _("Your friend %(name)s opened table %(table)s: take a seat.") % {"name": name, "table": table_id}
    if kind == Kind.TOURNAMENT_SOON:
        if subject:
            return _("%(tournament)s, which you joined, starts in 5 minutes.") % {"tournament": _(subject)}
        return _("A tournament you joined starts in 5 minutes.")
    if kind == Kind.SEAT_AWAY:
        return _("%(name)s was away for a day at table %(table)s: the autopilot plays their seat.") % {
            "name": name, "table": table_id}
    return _("Something happened.")


def link(table_id: int | None, tournament_id: int | None = None, challenge_id: int | None = None) -> str:
    """Where the notification takes its reader: the table, the tournament, the challenge's page (the
    players' pages, apps/players), or the list of notifications."""
    if table_id is not None:
        return reverse("tables:table", args=[table_id])
    if tournament_id is not None:
        return reverse("tournaments:detail", args=[tournament_id])
    if challenge_id is not None:
        return reverse("players:challenge", args=[challenge_id])
    return reverse("notifications:list")


def title() -> str:
    return _("Tile Rummy")
