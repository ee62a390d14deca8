"""Compact JSON text: what every frame, envelope and hot JSON column is written as.

One definition of the wire's JSON for the whole site: no spaces, text as UTF-8 (not `\\u` escapes), keys
in the order given, integer keys as strings, as `json.dumps(value, separators=(",", ":"),
ensure_ascii=False)` writes them. It is encoded and decoded by orjson, in C: a move's frames, its
envelope and the game's state cost several encodings and decodings, which the standard library's module
did at several times the CPU (bench/README.md, issue 14).

>>> dumps({"type": "state", "seat": 1, "name": "Ioana Ștefănescu", "melds": [["r1", "r2", "r3"]], 3: None})
'{"type":"state","seat":1,"name":"Ioana Ștefănescu","melds":[["r1","r2","r3"]],"3":null}'
>>> import json
>>> value = {"text": 'quote " backslash \\\\ newline \\n tab \\t', "ints": [0, -7, 2**53], "float": 0.5, "no": False}
>>> dumps(value) == json.dumps(value, separators=(",", ":"), ensure_ascii=False)
True
>>> loads('{"a": [1, 2.5, "ț", null, true]}')
{'a': [1, 2.5, 'ț', None, True]}

Where the standard module writes what is not JSON, this does not: NaN is written as null, and an integer
past 64 bits is refused:
>>> dumps({"x": float("nan")})
'{"x":null}'
>>> dumps({"big": 2**64})
Traceback (most recent call last):
    ...
TypeError: Integer exceeds 64-bit range
"""

from __future__ import annotations

from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value: Any) -> str:
    """`value` as compact JSON text (see the module's docstring)."""
    return orjson.dumps(value, option=_OPTIONS).decode()


def loads(text: str | bytes) -> Any:
    """The value of JSON text (ValueError if it is not JSON)."""
    return orjson.loads(text)
