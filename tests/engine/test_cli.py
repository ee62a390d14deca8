"""`python -m apps.engine` (SPEC 9): `meld` and `replay` print one JSON object; bad input fails loudly."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from apps.engine.cli import main
from tests.engine.test_records import recorded_game

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object] | None, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else None), err


@pytest.mark.parametrize(
    ("tiles", "expected"),
    [
        # SPEC sections 2 and 3 examples
        (["r12", "r13", "r1"], {"valid": True, "kind": "run", "points": 30}),
        (["r9", "y9", "J"], {"valid": True, "kind": "set", "points": 15}),
        (["r1", "y1", "b1"], {"valid": True, "kind": "set", "points": 75}),
        (["r1", "r2", "r3"], {"valid": True, "kind": "run", "points": 15}),
        (["r12 r13 J"], {"valid": True, "kind": "run", "points": 30}),
    ],
)
def test_meld_answers_whether_a_meld_is_legal_and_its_opening_value(
    capsys: pytest.CaptureFixture[str], tiles: list[str], expected: dict[str, object]
) -> None:
    assert run(capsys, "meld", "--game", "tile-rummy", *tiles) == (0, expected, "")


@pytest.mark.parametrize(
    ("tiles", "reason"),
    [
        (["r13", "r1", "r2"], "'r13 r1 r2' is not a meld: a 1 can start a run or follow 13, never sit in the middle"),
        (["r5", "J", "J"], "'r5 J J' is not a meld: a meld needs at least twice as many real tiles as jokers"),
    ],
)
def test_meld_gives_the_reason_when_invalid(capsys: pytest.CaptureFixture[str], tiles: list[str], reason: str) -> None:
    assert run(capsys, "meld", "--game", "tile-rummy", *tiles) == (0, {"valid": False, "kind": None, "points": 0, "reason": reason}, "")


@pytest.mark.parametrize(("game", "noun"), [("tile-rummy", "meld"), ("tile-rummy-rearrange", "set")])
@pytest.mark.parametrize("tiles", ["J J J r5", "r1 J r3 r4 J r6 r7 r8 J r10 r11 r12 r13"])
def test_meld_refuses_three_jokers_in_either_game_quoting_the_input(
    capsys: pytest.CaptureFixture[str], game: str, noun: str, tiles: str
) -> None:
    # Issue 13: both were once answered valid; there are only two jokers (SPEC 2).
    reason = f"{tiles!r} is not a {noun}: there are only two jokers in the game, not 3"
    assert run(capsys, "meld", "--game", game, *tiles.split()) == (0, {"valid": False, "kind": None, "points": 0, "reason": reason}, "")


def test_solve_refuses_a_table_and_rack_with_three_jokers(capsys: pytest.CaptureFixture[str]) -> None:
    code, output, err = run(capsys, "solve", "--game", "tile-rummy-rearrange", "--table", "r4 J r6", "--rack", "J J r7")
    assert code == 1 and output is None
    assert err == "error: --table 'r4 J r6' --rack 'J J r7': there are only two jokers in the game, not 3\n"


def test_meld_refuses_a_word_that_is_not_a_tile(capsys: pytest.CaptureFixture[str]) -> None:
    code, output, err = run(capsys, "meld", "--game", "tile-rummy", "r5", "x6", "r7")
    assert code != 0 and output is None and "'x6' is not a tile" in err


def test_meld_says_the_rearrange_game_is_not_available_yet_until_it_is(capsys: pytest.CaptureFixture[str]) -> None:
    from apps.engine.game import is_available

    code, output, err = run(capsys, "meld", "--game", "tile-rummy-rearrange", "r1", "r2", "r3")
    if is_available("tile-rummy-rearrange"):
        assert code == 0 and output is not None
    else:
        assert code != 0 and "not available yet" in err


def test_replay_checks_a_record_and_prints_the_final_scores(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = recorded_game()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record.to_dict()))
    code, output, _ = run(capsys, "replay", str(path))
    assert code == 0 and output is not None and record.result is not None
    assert output["scores"] == record.result["scores"] and output["over"] is True
    assert output["moves"] == len(record.moves)


def test_replay_fails_loudly_on_a_broken_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = recorded_game().to_dict()
    data["moves"][3]["move"] = "lay r1 r2"
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data))
    code, output, err = run(capsys, "replay", str(path))
    assert code != 0 and output is None and "Move 4" in err
    (tmp_path / "junk.json").write_text("{not json")
    code, _, err = run(capsys, "replay", str(tmp_path / "junk.json"))
    assert code == 2 and "is not JSON" in err
    code, _, err = run(capsys, "replay", str(tmp_path / "missing.json"))
    assert code == 2 and "Cannot read" in err


def test_the_module_runs_as_a_program_and_prints_one_json_object() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "apps.engine", "meld", "--game", "tile-rummy", "r12", "r13", "r1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0
    assert json.loads(done.stdout) == {"valid": True, "kind": "run", "points": 30}
