"""The quick phrases (SPEC 13): what a guest may say, by code. A message stores the code, never the
words, so every reader sees it in their own language (apps/chat/ui_strings.py words them)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

#: code -> the words, in the reader's language. The order is the order of the buttons.
PHRASES = {
    "gl": _("Good luck!"),
    "gg": _("Well played!"),
    "thanks": _("Thanks!"),
    "oops": _("Oops!"),
    "wait": _("One moment, please."),
    "hi": _("Hello!"),
    "bye": _("Bye!"),
}

#: Why a player or a message is reported: code -> the words.
REPORT_REASONS = {
    "abuse": _("Abusive or hateful"),
    "spam": _("Spam or advertising"),
    "cheating": _("Cheating or collusion"),
    "stalling": _("Stalling or leaving on purpose"),
    "other": _("Something else"),
}
