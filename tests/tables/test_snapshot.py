"""The envelope a change of a table publishes (apps/tables/snapshot.py) and the log's entries
(apps/tables/history.py): their docstrings run as doctests, and an envelope refuses what it cannot carry."""

from __future__ import annotations

import doctest
import json

import pytest

from apps.tables import history, snapshot


@pytest.mark.parametrize("module", [snapshot, history], ids=lambda module: module.__name__)
def test_docstrings(module):
    result = doctest.testmod(module)
    assert result.attempted > 0
    assert result.failed == 0


def test_an_envelope_keeps_its_frames_byte_for_byte():
    frames = {
        "spectator": snapshot.dumps({"type": "state", "name": "Ștefan \u2028 \"quoted\" \\ back\nslash"}),
        "0": snapshot.dumps({"type": "state", "rack": ["r1", "j"]}),
    }
    published = snapshot.unpack(snapshot.pack(3, {"41": 0}, frames))
    assert published == {"v": 3, "seats": {"41": 0}, "frames": frames}
    assert json.loads(snapshot.frame_in(published, 41)) == {"type": "state", "rack": ["r1", "j"]}
    assert json.loads(snapshot.frame_in(published, 99))["name"] == "Ștefan \u2028 \"quoted\" \\ back\nslash"


def test_a_frame_with_a_raw_newline_is_refused():
    with pytest.raises(ValueError):
        snapshot.pack(1, {}, {"spectator": '{"a":1}\n{"b":2}'})
