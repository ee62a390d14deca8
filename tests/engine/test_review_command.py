"""`python -m apps.engine review` and `hint` (SPEC 9), and the examples of docs/engine.md, run as written."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from apps.engine.cli import main
from apps.engine.game import get_rules
from tests.engine.review_records import rearrange_record
from tests.engine.test_review import REARRANGE_RACKS

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else None), err


def test_review_prints_every_turn_with_what_was_played_and_the_best_play(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = rearrange_record(REARRANGE_RACKS, [(0, "draw"), (1, "draw")], pool="y10")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record.to_dict()))
    code, output, err = run(capsys, "review", str(path))
    assert (code, err) == (0, "")
    first = output["turns"][0]
    assert {key: first[key] for key in ("seat", "played", "best", "missed_tiles", "missed_points")} == {
        "seat": 0, "played": "draw", "best": "play r10 r11 r12", "missed_tiles": 3, "missed_points": 33,
    }


def test_hint_reads_a_state_or_a_view_and_answers_from_the_seats_view(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rules = get_rules("tile-rummy-rearrange")
    state = rules.from_deal(rearrange_record(REARRANGE_RACKS, []).deal)
    (tmp_path / "state.json").write_text(json.dumps(rules.to_dict(state)))
    (tmp_path / "view.json").write_text(json.dumps(rules.view_for(state, 0)))
    for name in ("state.json", "view.json"):
        code, output, _ = run(capsys, "hint", "--game", "tile-rummy-rearrange", "--state", str(tmp_path / name), "--seat", "0")
        assert code == 0 and output["play"] == "play r10 r11 r12" and output["placed"] == ["r10", "r11", "r12"]


def test_hint_refuses_a_seat_out_of_turn_another_seats_view_and_a_file_that_is_not_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rules = get_rules("tile-rummy-rearrange")
    state = rules.from_deal(rearrange_record(REARRANGE_RACKS, []).deal)
    (tmp_path / "state.json").write_text(json.dumps(rules.to_dict(state)))
    (tmp_path / "view.json").write_text(json.dumps(rules.view_for(state, 0)))
    (tmp_path / "bad.json").write_text("{not json")
    game = ("--game", "tile-rummy-rearrange")
    code, output, err = run(capsys, "hint", *game, "--state", str(tmp_path / "state.json"), "--seat", "1")
    assert (code, output) == (1, None) and "not this seat's turn" in err
    code, output, err = run(capsys, "hint", *game, "--state", str(tmp_path / "view.json"), "--seat", "1")
    assert (code, output) == (1, None) and "is the view of seat 0" in err
    code, output, err = run(capsys, "hint", *game, "--state", str(tmp_path / "bad.json"), "--seat", "0")
    assert (code, output) == (2, None) and "is not JSON" in err
    code, output, err = run(capsys, "hint", *game, "--state", str(tmp_path / "state.json"), "--seat", "7")
    assert (code, output) == (1, None) and "There is no seat 7" in err


# --- the documentation's examples -----------------------------------------------------------------------------


def shown_commands(text: str) -> list[tuple[list[str], Any]]:
    """Each `$ python -m apps.engine ...` line of a ```console block, with the JSON shown after it."""
    found = []
    for block in re.findall(r"```console\n(.*?)```", text, flags=re.S):
        for command, output in re.findall(r"^\$ python -m apps\.engine (.*)\n((?:[^$].*\n?)*)", block, flags=re.M):
            found.append((shlex.split(command), json.loads(output)))
    return found


def holds(actual: Any, shown: Any) -> bool:
    """The output holds what the documentation shows: the keys shown with equal values (recursively), and
    the items of a list shown in order, a prefix of the output's list."""
    if isinstance(shown, dict):
        return isinstance(actual, dict) and all(key in actual and holds(actual[key], value) for key, value in shown.items())
    if isinstance(shown, list):
        return isinstance(actual, list) and len(shown) <= len(actual) and all(map(holds, actual, shown))
    return bool(actual == shown)


def test_the_review_and_hint_examples_of_the_engine_docs_print_what_they_show(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    examples = [(argv, shown) for argv, shown in shown_commands((ROOT / "docs" / "engine.md").read_text()) if argv[0] in ("review", "hint")]
    assert [argv[0] for argv, _ in examples] == ["review", "hint"]
    for argv, shown in examples:
        code, output, err = run(capsys, *argv)
        assert (code, err) == (0, "") and holds(output, shown), (argv, output)


def test_the_matcher_of_the_examples_notices_a_difference() -> None:
    assert holds({"a": [1, 2, {"b": 3}], "c": 4}, {"a": [1, 2, {"b": 3}]})
    assert not holds({"a": [1, 2]}, {"a": [2]}) and not holds({"a": 1}, {"b": 1}) and not holds({"a": [1]}, {"a": [1, 2]})
