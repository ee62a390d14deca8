"""Django's makemessages, also reading the table's plural strings: `_forms(singular, plural)` in
apps/tables/ui_strings.py calls ngettext with the phrase's two forms, which xgettext only sees when told
that `_forms` takes a singular and a plural (Django's docs: "Customizing the makemessages command")."""

from __future__ import annotations

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=_forms:1,2"]
