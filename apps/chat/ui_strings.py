"""The words the table's chat shows (rendered into the page with the table's strings: static/js/chat.js)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from apps.chat.phrases import PHRASES, REPORT_REASONS


def chat_strings() -> dict[str, object]:
    return {
        "chat_phrases": {code: str(words) for code, words in PHRASES.items()},
        "report_reasons": {code: str(words) for code, words in REPORT_REASONS.items()},
        "chat_sign_in": _("Sign in or play as a guest to chat."),
        # Translators: the chat box of a guest, who may send the quick phrases only: keep it short.
        "chat_guest_placeholder": _("Sign up to write"),
        "chat_spectator": _("watching"),
        "chat_mute": _("Mute"),
        "chat_unmute": _("Unmute"),
        "chat_mute_title": _("Hide what %(name)s says, for you only"),
        "chat_muted_now": _("Muted players' messages are hidden for you."),
        "chat_unmuted_now": _("You will see that player's new messages again."),
        "chat_delete": _("Delete"),
        "report": _("Report"),
        "actions_for": _("%(name)s: more actions"),
        "report_sent": _("Thank you: the moderators will look at it."),
        "report_player": _("Report %(name)s"),
        "report_message_of": _("Report a message of %(name)s"),
    }
