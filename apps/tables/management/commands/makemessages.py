"""Django's makemessages, also reading the scripts' plural strings: `plural_forms(singular, plural)`
(apps/lib/script_words.py, used by every app's ui_strings.py) calls ngettext with the phrase's two forms,
which xgettext only sees when told that `plural_forms` takes a singular and a plural (Django's docs:
"Customizing the makemessages command")."""

from __future__ import annotations

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=plural_forms:1,2"]
