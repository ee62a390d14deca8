"""The words of quick pairing's script (static/js/pairing.js), given to the page in its language."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext


def page_strings() -> dict[str, str]:
    """The words pairing.js shows, in the page's language."""
    return {
        "seconds": _("%(s)s s"),
        "unknown": _("not known yet"),
        "paired": _("Players found: to the table…"),
        "requeued": _("A player did not come: you are back in the pool."),
        "left": _("You are no longer in the pool."),
        "take": pgettext("a seek in the lobby", "Take"),
        "withdraw": _("Withdraw"),
        "yours": _("your seek"),
        "range": _("rating %(min)s–%(max)s"),
        "none": _("No seek you could take right now."),
        "reconnecting": _("Reconnecting…"),
    }
