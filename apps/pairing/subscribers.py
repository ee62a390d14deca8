"""What pairing hears from the apps below: a ban takes the account out of its pool and withdraws its
seek (`apps.accounts.signals.user_barred`), and the table's socket tells pairing a paired player came
(its part, apps/pairing/consumers.py)."""

from __future__ import annotations

from typing import Any

from apps.accounts.signals import user_barred
from apps.pairing import services
from apps.pairing.consumers import ArrivalPart
from apps.tables.parts import register_socket_part


def barred(sender: Any, user: Any, **kwargs: Any) -> None:
    services.user_barred(user.pk)


def connect() -> None:
    user_barred.connect(barred, dispatch_uid="pairing.barred")
    register_socket_part(ArrivalPart)
