"""Error reports to Sentry (sentry-sdk), when SENTRY_DSN is set: Django and Celery integrations, no
personal data (send_default_pii off, no request bodies), and hidden information never in an event.

Hidden information is sacred (SPEC 11): a rack, the pile (the Rearrange game's pool), a deal or its seeds
must not leave the server in an error report either. An event carries local variables of every frame,
log messages, breadcrumbs and extra data, any of which can hold a game state. `scrub` (the before_send)
walks all of it: a value under a key that names hidden things is replaced, and so is any string that
reads like one (a state's repr, "racks=(...)"; three tiles or more in notation, "r5 r6 J"; a hex seed).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, cast

import sentry_sdk
from sentry_sdk.integrations.celery import CeleryIntegration
from sentry_sdk.integrations.django import DjangoIntegration
from sentry_sdk.types import Event, Hint

FILTERED = "[Filtered]"

#: Words that, as a part of a key (split on "_", "-", "." and case), mark a value as possibly hidden.
HIDDEN_WORDS = frozenset({
    "rack", "racks", "tile", "tiles", "pile", "pool", "seed", "seeds", "deal", "deals", "hand", "hands",
    "state", "states", "payload", "draft", "view", "views", "secret", "password", "token", "cookie", "authorization",
    "cookies", "sessionid", "csrftoken", "csrfmiddlewaretoken", "session", "csrf", "credentials", "tokens",
})
_WORD_SPLIT = re.compile(r"[^a-z0-9]+")
#: A string that names hidden fields with a value (reprs, JSON, key=value logs).
_HIDDEN_FIELD = re.compile(r"""["']?\b(racks?|pile|pool|seeds?|server_seed|deal|hands?)\b["']?\s*[=:]""", re.I)
#: Three tiles or more in notation: a rack, a meld being tried, a move.
_TILE = r"(?:[rybk](?:1[0-3]|[1-9])|J)"
_TILES = re.compile(rf"(?<![A-Za-z0-9]){_TILE}(?:[\s,|'\"]+{_TILE}){{2,}}(?![A-Za-z0-9])")
#: A seed or any long secret in hex (a server seed is 64 hex digits).
_HEX = re.compile(r"\b[0-9a-fA-F]{32,}\b")
#: A credential written out: a cookie's session or CSRF value, a bearer token, an invite in a query.
_CREDENTIAL = re.compile(r"\b(sessionid|csrftoken|csrfmiddlewaretoken|invite|token)=|\bBearer\s+\S", re.I)
#: How Sentry writes a bytes value it serialises (an ASGI header name): b'cookie'.
_BYTES_REPR = re.compile(r"""^b(['"])(.*)\1$""", re.S)


def hidden_key(key: object) -> bool:
    words = set(_WORD_SPLIT.split(str(key).lower()))
    return not words.isdisjoint(HIDDEN_WORDS)


def scrub_string(text: str) -> str:
    if _HIDDEN_FIELD.search(text) or _TILES.search(text) or _CREDENTIAL.search(text):
        return FILTERED
    return _HEX.sub(FILTERED, text)


def _header_name(item: object) -> str | None:
    """The name of an ASGI header, (b"cookie", b"...") as it is or as Sentry serialises it ("b'cookie'")."""
    if isinstance(item, bytes):
        return item.decode("latin-1")
    if isinstance(item, str):
        match = _BYTES_REPR.match(item)
        return match.group(2) if match else item
    return None


def scrub_value(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: FILTERED if hidden_key(key) else scrub_value(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        # A (name, value) pair, such as a header of an ASGI scope (a frame variable of every consumer and
        # middleware): the value goes by the name, as a dict's does by its key.
        if len(value) == 2 and (name := _header_name(value[0])) is not None and hidden_key(name):
            return [scrub_value(value[0]), FILTERED]
        return [scrub_value(item) for item in value]
    if isinstance(value, str):
        return scrub_string(value)
    if isinstance(value, bytes):
        return scrub_string(value.decode("latin-1"))
    return value


#: The parts of an event that carry what the site was doing (the rest is Sentry's own bookkeeping:
#: ids, timestamps, the SDK, the trace, which must stay as they are).
CONTENT_PARTS = ("exception", "threads", "breadcrumbs", "extra", "logentry", "message", "request", "tags", "user", "spans")


def scrub_logentry(entry: dict[str, Any]) -> dict[str, Any]:
    """A log message is judged as it reads, its parameters filled in ("pool: %s" with "(82, 96, 41)")."""
    message, params = str(entry.get("message", "")), entry.get("params") or []
    try:
        text = message % tuple(params) if params else message
    except (TypeError, ValueError):
        text = " ".join([message, *map(str, params)])
    if scrub_string(text) == FILTERED or scrub_string(entry.get("formatted", "")) == FILTERED:
        return {"message": FILTERED, "params": []}
    scrubbed: dict[str, Any] = scrub_value(entry)
    return scrubbed


def scrub(event: Mapping[str, Any], hint: dict[str, Any] | None = None) -> dict[str, Any]:
    """Sentry's before_send (and before_send_transaction): the event with every hidden thing replaced."""
    scrubbed = {key: scrub_value(value) if key in CONTENT_PARTS else value for key, value in event.items()}
    if isinstance(event.get("logentry"), dict):
        scrubbed["logentry"] = scrub_logentry(event["logentry"])
    return scrubbed


def _before_send(event: Event, hint: Hint) -> Event:
    """`scrub` in Sentry's types: the event keeps its keys, only their values are replaced."""
    return cast("Event", scrub(event, hint))


def init(
    *, dsn: str, environment: str = "production", release: str | None = None, traces_sample_rate: float = 0.0,
    transport: Any = None,
) -> None:
    """Start reporting to Sentry. `transport` is for tests (an in-memory one: nothing leaves the machine)."""
    options: dict[str, Any] = {}
    if transport is not None:
        options["transport"] = transport
    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        release=release,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        send_default_pii=False,
        max_request_body_size="never",
        traces_sample_rate=traces_sample_rate,
        before_send=_before_send,
        before_send_transaction=_before_send,
        **options,
    )
