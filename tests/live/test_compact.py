"""The wire's compact JSON (apps/live/compact.py): its docstring runs as doctests, and for every value a
frame can hold it writes exactly the text of the standard module with the same settings."""

from __future__ import annotations

import doctest
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from apps.live import compact

# What a frame holds: text (any Unicode, escapes included), 64-bit integers, finite floats, booleans,
# null, lists and objects with text keys. `exact`: all but floats, whose text may differ (1e+16, 1e16).
exact = st.none() | st.booleans() | st.integers(min_value=-(2**63), max_value=2**63 - 1) | st.text()


def json_like(scalars: st.SearchStrategy) -> st.SearchStrategy:
    return st.recursive(scalars, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
                        max_leaves=30)


def test_docstrings():
    result = doctest.testmod(compact)
    assert result.attempted > 0
    assert result.failed == 0


@settings(max_examples=300, deadline=None)
@given(json_like(exact | st.floats(allow_nan=False, allow_infinity=False)))
def test_it_writes_the_standard_modules_compact_text_and_reads_it_back(value):
    standard = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    assert json.loads(compact.dumps(value)) == json.loads(standard)
    assert compact.loads(standard) == json.loads(standard)


@settings(max_examples=200, deadline=None)
@given(json_like(exact))
def test_without_floats_the_text_is_the_same_byte_for_byte(value):
    assert compact.dumps(value) == json.dumps(value, separators=(",", ":"), ensure_ascii=False)
