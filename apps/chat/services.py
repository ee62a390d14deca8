"""The chat's one write path (CONVENTIONS 6): say, mute, delete, report. Each takes the acting user as
`by` and raises `ChatRefused` (a declared `error_code` and a sentence in the active language) for what
it refuses. What must reach the table's screens is published after the commit on the table's chat topic
(apps/chat/wire.py), never through the moves' transaction or the table's version.

Who may say what (SPEC 13): seated players and signed-in spectators; a guest only the quick phrases;
nobody barred (`why_barred`) or muted by a moderator (`chat_silence`: they still play); a bot account
only at a table where it is seated; at most MAX_LENGTH characters; at most CHAT_RATE_MESSAGES messages
per CHAT_RATE_SECONDS per user, and at most REPORT_RATE_REPORTS reports per REPORT_RATE_SECONDS. The
bot accounts of one owner share one count (one person, however many accounts). A count is reserved in
the shared cache before the row is written (apps/accounts/limits.py): sockets sending at once cannot all
read "4" and all write the fifth.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from apps.accounts.bans import barred_message
from apps.accounts.bans import why_barred as accounts_why_barred
from apps.accounts.limits import window_give_back, window_hit
from apps.bots.selectors import is_bot_account, owner_id_of
from apps.chat.models import MAX_LENGTH, MAX_REPORT_LENGTH, ChatMessage, ChatMute, ModeratorMute, Report
from apps.chat.phrases import PHRASES, REPORT_REASONS
from apps.chat.wire import message_frame, publish
from apps.social.selectors import blocked_by
from apps.tables.selectors import TalkPlace, talk_place

#: How many messages come with the table when a socket opens.
HISTORY = 50
#: How many of the table's last messages a report keeps as its context.
REPORT_CONTEXT = 20


class ChatRefused(Exception):
    error_code = "chat_refused"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.error_code = code


def rate() -> tuple[int, float]:
    return int(getattr(settings, "CHAT_RATE_MESSAGES", 5)), float(getattr(settings, "CHAT_RATE_SECONDS", 10.0))


def report_rate() -> tuple[int, float]:
    return int(getattr(settings, "REPORT_RATE_REPORTS", 5)), float(getattr(settings, "REPORT_RATE_SECONDS", 600.0))


def counted_as(by: Any) -> str:
    """Whose count a user's messages and reports go to: their own, or a bot account's owner's (every bot
    account of one owner shares one)."""
    owner_id = owner_id_of(by)
    return f"user:{by.pk}" if owner_id is None else f"bots-of:{owner_id}"


def _reserve(kind: str, by: Any, most: int, seconds: float, refusal: ChatRefused) -> str:
    """Take one of `most` places in the window of `by`'s count (or raise `refusal`); returns the key, to
    give the place back if the work fails."""
    key = f"{kind}:{counted_as(by)}"
    if window_hit(key, seconds=seconds) > most:
        raise refusal
    return key


def muted_until(user_id: int, *, now: datetime | None = None) -> datetime | None:
    """When a moderator's mute of this account's chat ends, if one is in force (one query)."""
    return ModeratorMute.objects.filter(user_id=user_id, until__gt=now or timezone.now()).values_list(
        "until", flat=True).first()


def _not_muted(by: Any) -> None:
    until = muted_until(by.pk)
    if until is not None:
        raise ChatRefused(
            _("A moderator muted your chat until %(until)s. You can still play.")
            % {"until": date_format(timezone.localtime(until), "SHORT_DATETIME_FORMAT")},
            "chat_muted",
        )


def _bot_seated(by: Any, place: TalkPlace) -> None:
    """A bot account talks and reports only at a table where it is seated (it is a program playing there,
    not a spectator: people's tables are not its audience)."""
    if by.pk not in place.seats and is_bot_account(by):
        raise ChatRefused(_("A bot account can chat and report only at a table where it is seated."),
                          "chat_bot_not_seated")


def chat_silence(*, user_id: int, until: datetime, by: Any, reason: str = "") -> ModeratorMute:
    """A moderator mutes the account's chat until `until` (apps/moderation logs it)."""
    mute, _created = ModeratorMute.objects.update_or_create(
        user_id=user_id, defaults={"until": until, "by": by if getattr(by, "pk", None) else None, "reason": reason[:500]})
    return mute


def chat_unsilence(*, user_id: int) -> bool:
    """Lift a moderator's mute of the account's chat. Returns whether one was in force."""
    in_force = ModeratorMute.objects.filter(user_id=user_id, until__gt=timezone.now()).exists()
    ModeratorMute.objects.filter(user_id=user_id).delete()
    return in_force


def why_barred(user: Any) -> str | None:
    """Why this user may not chat at all now, or None: the site's one rule of who may act
    (apps/accounts/bans.py: banned or disabled), worded for the chat."""
    if accounts_why_barred(user) is None:
        return None
    return barred_message(user)


def _signed_in(by: Any) -> None:
    if by is None or not by.is_authenticated:
        raise ChatRefused(_("Sign in or play as a guest to chat."), "chat_signed_out")


def chat_say(*, table_id: int, by: Any, text: str = "", phrase: str = "") -> dict[str, Any]:
    """Store one message and publish it to the table. Returns its frame."""
    _signed_in(by)
    barred = why_barred(by)
    if barred:
        raise ChatRefused(barred, "chat_barred")
    text = (text or "").strip()
    if phrase:
        if phrase not in PHRASES:
            raise ChatRefused(_("There is no such quick phrase."), "chat_unknown_phrase")
        text = ""
    else:
        if by.is_guest:
            raise ChatRefused(_("Guests can send the quick phrases only: sign up to write your own."), "chat_guest")
        if not text:
            raise ChatRefused(_("The message is empty."), "chat_empty")
        if len(text) > MAX_LENGTH:
            raise ChatRefused(_("A message may be at most %(n)s characters.") % {"n": MAX_LENGTH}, "chat_too_long")
    place = talk_place(table_id)
    if place is None:
        raise ChatRefused(_("There is no such table."), "chat_no_table")
    _bot_seated(by, place)
    _not_muted(by)
    most, seconds = rate()
    key = _reserve("chat-rate", by, most, seconds, ChatRefused(
        _("Slow down: at most %(n)s messages in %(s)s seconds.") % {"n": most, "s": f"{seconds:g}"},
        "chat_rate_limited",
    ))
    try:
        with transaction.atomic():
            message = ChatMessage.objects.create(
                table_id=table_id, match_id=place.match_id, author=by, seat=place.seats.get(by.pk), text=text,
                phrase=phrase,
            )
            frame = {"type": "chat", "message": message_frame(message, by.get_username())}
            transaction.on_commit(lambda: publish(table_id, frame, author_id=by.pk))
    except BaseException:
        window_give_back(key)
        raise
    return frame


def chat_history(*, table_id: int, viewer_id: int | None) -> list[dict[str, Any]]:
    """The table's last HISTORY messages, oldest first, without deleted ones or those of authors the
    viewer muted."""
    messages = ChatMessage.objects.filter(table_id=table_id, deleted_at__isnull=True).select_related("author")
    if viewer_id is not None:
        messages = messages.exclude(author_id__in=muted_by(viewer_id))
    latest = list(messages.order_by("-id")[:HISTORY])
    return [message_frame(message, message.author.get_username()) for message in reversed(latest)]


def chat_since(
    *, table_id: int, viewer_id: int | None, after_id: int, shown: list[int]
) -> tuple[list[dict[str, Any]], list[int]]:
    """What a socket that was sent the table's messages `shown` (the last of them `after_id`) lacks: the
    messages after it (as `chat_history` gives them, at most HISTORY) and which of `shown` are deleted."""
    messages = ChatMessage.objects.filter(table_id=table_id, id__gt=after_id, deleted_at__isnull=True)
    if viewer_id is not None:
        messages = messages.exclude(author_id__in=muted_by(viewer_id))
    latest = list(messages.select_related("author").order_by("-id")[:HISTORY])
    deleted = ChatMessage.objects.filter(table_id=table_id, id__in=shown[-HISTORY:], deleted_at__isnull=False)
    return (
        [message_frame(message, message.author.get_username()) for message in reversed(latest)],
        list(deleted.order_by("id").values_list("id", flat=True)),
    )


def muted_by(viewer_id: int | None) -> set[int]:
    """Whose messages the viewer does not see: those they muted, and those they blocked (SPEC 17: a
    blocked player cannot chat to the blocker; silently, their messages still reach the others)."""
    if viewer_id is None:
        return set()
    return set(ChatMute.objects.filter(viewer_id=viewer_id).values_list("muted_id", flat=True)) | blocked_by(viewer_id)


def chat_mute(*, by: Any, user_id: int, muted: bool = True) -> set[int]:
    """Mute (or unmute) `user_id` for `by` alone, kept across reloads. Returns who `by` mutes now."""
    _signed_in(by)
    if user_id == by.pk:
        raise ChatRefused(_("You cannot mute yourself."), "chat_mute_self")
    if muted:
        ChatMute.objects.get_or_create(viewer=by, muted_id=user_id)
    else:
        ChatMute.objects.filter(viewer=by, muted_id=user_id).delete()
    return muted_by(by.pk)


def chat_delete(*, message_id: int, by: Any) -> ChatMessage:
    """A moderator removes a message from every screen; the row stays, marked deleted."""
    if by is None or not by.is_authenticated or not by.is_staff:
        raise ChatRefused(_("Only moderators can delete messages."), "chat_not_moderator")
    with transaction.atomic():
        message = ChatMessage.objects.select_for_update().filter(pk=message_id).first()
        if message is None:
            raise ChatRefused(_("There is no such message."), "chat_no_message")
        if message.deleted_at is None:
            message.deleted_at, message.deleted_by = timezone.now(), by
            message.save(update_fields=["deleted_at", "deleted_by"])
        table_id = message.table_id
        transaction.on_commit(lambda: publish(table_id, {"type": "chat_deleted", "id": message_id}))
    return message


def report_make(*, table_id: int, by: Any, user_id: int | None = None, message_id: int | None = None,
                reason: str = "", text: str = "") -> Report:
    """A report of a player, or of one message (its author is then the reported player), with the
    table's context at this moment."""
    _signed_in(by)
    if reason not in REPORT_REASONS:
        raise ChatRefused(_("Choose why you report."), "report_bad_reason")
    text = (text or "").strip()
    if len(text) > MAX_REPORT_LENGTH:
        raise ChatRefused(_("A report may be at most %(n)s characters.") % {"n": MAX_REPORT_LENGTH}, "report_too_long")
    place = talk_place(table_id)
    if place is None:
        raise ChatRefused(_("There is no such table."), "chat_no_table")
    message = None
    if message_id is not None:
        message = ChatMessage.objects.filter(pk=message_id, table_id=table_id).first()
        if message is None:
            raise ChatRefused(_("There is no such message at this table."), "chat_no_message")
        user_id = message.author_id
    if user_id is None or (user_id not in place.seats and message is None):
        raise ChatRefused(_("Report a player seated at this table, or one of the messages here."), "report_no_target")
    if user_id == by.pk:
        raise ChatRefused(_("You cannot report yourself."), "report_self")
    _bot_seated(by, place)
    most, seconds = report_rate()
    minutes = max(1, round(seconds / 60))
    key = _reserve("report-rate", by, most, seconds, ChatRefused(
        ngettext("Slow down: at most %(n)s reports in %(m)s minute.", "Slow down: at most %(n)s reports in %(m)s minutes.",
                 minutes) % {"n": most, "m": minutes},
        "report_rate_limited",
    ))
    last = ChatMessage.objects.filter(table_id=table_id).select_related("author").order_by("-id")[:REPORT_CONTEXT]
    context = {
        "match": place.match_id,
        "version": place.version,
        "messages": [
            {**message_frame(row, row.author.get_username()), "deleted": row.deleted_at is not None} for row in reversed(last)
        ],
    }
    try:
        with transaction.atomic():
            return Report.objects.create(reporter=by, reported_id=user_id, message=message, table_id=table_id,
                                         match_id=place.match_id, reason=reason, text=text, context=context)
    except IntegrityError:
        window_give_back(key)
        raise ChatRefused(_("You have reported this already."), "report_duplicate") from None
    except BaseException:
        window_give_back(key)
        raise
