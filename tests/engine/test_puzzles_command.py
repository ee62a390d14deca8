"""`python -m apps.engine puzzles generate|check` (apps/engine/puzzles/command.py): the same seed writes
the same puzzles, a check of good puzzles exits 0 with a JSON summary, and one wrong puzzle makes it exit 1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from apps.engine.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    with pytest.raises(SystemExit) as stop:
        main(list(argv))
    code = stop.value.code
    return int(code or 0), capsys.readouterr().out


def test_generation_is_the_same_for_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    first = run(capsys, "puzzles", "generate", "--game", "tile-rummy", "--count", "2", "--seed", "3")
    second = run(capsys, "puzzles", "generate", "--game", "tile-rummy", "--count", "2", "--seed", "3")
    assert first == second and first[0] == 0
    lines = first[1].splitlines()
    assert len(lines) == 2
    assert all(json.loads(line)["game"] == "tile-rummy" for line in lines)


def test_generated_puzzles_check_and_a_wrong_one_fails(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "puzzles.jsonl"
    code, summary = run(
        capsys, "puzzles", "generate", "--game", "tile-rummy", "--count", "2", "--seed", "3", "--out", str(out)
    )
    assert code == 0 and json.loads(summary)["puzzles"] == 2
    code, summary = run(capsys, "puzzles", "check", str(out))
    assert code == 0 and json.loads(summary) == {"checked": 2, "ok": 2, "failed": 0, "failures": []}
    puzzles = [json.loads(line) for line in out.read_text().splitlines()]
    puzzles[0]["solution"]["moves"] = ["discard " + puzzles[0]["position"]["rack"].split()[0]]
    out.write_text("\n".join(json.dumps(puzzle) for puzzle in puzzles) + "\n")
    code, summary = run(capsys, "puzzles", "check", str(out))
    assert code == 1
    assert json.loads(summary)["failures"][0]["id"] == puzzles[0]["id"]


def test_a_file_that_is_not_puzzles_is_bad_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"game": "tile-rummy"}\n')
    assert main(["puzzles", "check", str(bad)]) == 2
    assert "not a puzzle" in capsys.readouterr().err


def recorded_games(count: int) -> list[dict[str, object]]:
    """Hard-bot house games, recorded move by move as the site records them (seeded)."""
    import random

    from apps.engine.bots import get_bot
    from apps.engine.game import get_rules
    from apps.engine.records import start_record

    rules = get_rules("tile-rummy")
    records = []
    for game in range(count):
        state = rules.new_game(2, random.Random(f"records:{game}"))
        record = start_record("tile-rummy", state)
        bots, rng = [get_bot("tile-rummy", "hard")] * 2, random.Random(game)
        while (seat := rules.to_move(state)) is not None:
            move = bots[seat].next_move(rules.view_for(state, seat), rng)
            state = rules.apply(state, seat, move)
            record = record.add(seat, move, 0)
        records.append(record.to_dict())
    return records


def test_puzzles_come_from_finished_games_records_too(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = tmp_path / "records.jsonl"
    source.write_text("\n".join(json.dumps(record) for record in recorded_games(6)) + "\n")
    out = tmp_path / "puzzles.jsonl"
    code, summary = run(
        capsys, "puzzles", "generate", "--game", "tile-rummy", "--count", "50", "--from", str(source), "--out", str(out)
    )
    assert code == 0
    found = json.loads(summary)
    assert found["games"] == 6 and found["puzzles"] >= 1
    assert all(json.loads(line)["source"]["from"] == "record" for line in out.read_text().splitlines())
    assert run(capsys, "puzzles", "check", str(out))[0] == 0


def test_the_puzzles_example_of_the_engine_docs_prints_what_it_shows(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.engine.test_review_command import ROOT, holds, shown_commands

    monkeypatch.chdir(ROOT)
    examples = [
        (argv, shown)
        for argv, shown in shown_commands((ROOT / "docs" / "engine.md").read_text())
        if argv[0] == "puzzles"
    ]
    assert [argv[:2] for argv, _ in examples] == [["puzzles", "check"]]
    for argv, shown in examples:
        code, output = run(capsys, *argv)
        assert code == 0 and holds(json.loads(output), shown)
