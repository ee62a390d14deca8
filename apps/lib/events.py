"""Typed events: how an app tells the others what happened without naming them (CONVENTIONS 16 and 26).

An event is a small frozen dataclass of ids and plain values, declared by the app it happens in (the
table's are in apps/tables/events.py). Another app that cares subscribes a function to the event's type
in its `AppConfig.ready()`, as apps/accounts' `user_barred` signal is connected; the app that emits the
event never imports its listeners, so a new listener is one subscriber in its own app and no edit of the
emitter. mypy checks that a subscriber takes the type it subscribes to.

Events leave only with the commit of the transaction that made them true (`emit`, or `deliver` from a
callback that already runs after it, as the table's effects do): a rolled-back change tells nobody.
Each event goes to the subscribers of its exact type in the order they subscribed; a subscriber that
raises is logged and neither the caller nor the other subscribers notice (whatever it should have done is
caught up by its own app's backstop, as a lost task is by a sweep).

This module is on the ground floor: it imports nothing of the project.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import transaction

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Event:
    """The base of every event: a value that says what happened, by ids (rows are read again by whoever
    needs them, after the commit)."""


E = TypeVar("E", bound=Event)

#: Each event type's subscribers, in the order they subscribed (filled once, by the apps' `ready()`).
_subscribers: dict[type[Event], list[Callable[[Any], None]]] = {}


def subscribe(event_type: type[E], handler: Callable[[E], None]) -> None:
    """Call `handler(event)` after the commit of every `event_type` emitted. Subscribing the same
    handler twice keeps one (an app's `ready()` may run again in tests)."""
    handlers = _subscribers.setdefault(event_type, [])
    if handler not in handlers:
        handlers.append(handler)


def unsubscribe(event_type: type[E], handler: Callable[[E], None]) -> None:
    """Stop calling `handler` (tests that subscribe a listener of their own take it away again)."""
    handlers = _subscribers.get(event_type, [])
    if handler in handlers:
        handlers.remove(handler)


def subscribers(event_type: type[Event]) -> tuple[Callable[[Any], None], ...]:
    """Who hears of `event_type`, in order (what the architecture's picture and its tests read)."""
    return tuple(_subscribers.get(event_type, ()))


def emit(*events: Event) -> None:
    """Deliver `events` once the current transaction commits (at once outside of one); never if it
    rolls back."""
    if events:
        transaction.on_commit(lambda: deliver(events))


def deliver(events: Iterable[Event]) -> None:
    """Deliver `events` now, each to its type's subscribers in order. Only for code that already runs
    after the commit (apps/tables/effects.py); a service calls `emit`."""
    for event in events:
        for handler in tuple(_subscribers.get(type(event), ())):
            try:
                handler(event)
            except Exception:  # one listener's failure is its own app's to catch up, never the emitter's
                log.exception("The subscriber %s of %r failed", getattr(handler, "__qualname__", handler), event)
