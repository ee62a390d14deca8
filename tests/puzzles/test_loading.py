"""Loading puzzles (apps/puzzles/loading.py, `manage.py load_puzzles`): the starter set loads with no
duplicates however often it is loaded, and a bad line is reported with its number and changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from apps.puzzles.loading import starter_files
from apps.puzzles.models import Puzzle


def starter_lines() -> list[str]:
    return [line for path in starter_files() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.mark.django_db
def test_the_starter_set_is_loaded_at_install() -> None:
    """The data migration loaded it: a fresh site serves puzzles (both games' files)."""
    keys = {json.loads(line)["id"] for line in starter_lines()}
    assert set(Puzzle.objects.values_list("key", flat=True)) >= keys
    assert {"tile-rummy", "tile-rummy-rearrange"} <= set(Puzzle.objects.values_list("game", flat=True))


@pytest.mark.django_db
def test_loading_the_same_file_twice_makes_no_duplicates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Puzzle.objects.all().delete()
    call_command("load_puzzles", "--starter")
    first = Puzzle.objects.count()
    assert first == len(starter_lines())
    call_command("load_puzzles", *[str(path) for path in starter_files()])
    assert Puzzle.objects.count() == first
    assert f"0 added, {first} already stored" in capsys.readouterr().out


@pytest.mark.django_db
def test_a_bad_line_is_reported_and_the_good_lines_load(tmp_path: Path) -> None:
    Puzzle.objects.all().delete()
    good = starter_lines()[:2]
    edited = json.loads(starter_lines()[2])
    edited["position"]["rack"] += " k13"  # the id no longer matches the position
    wrong_solution = json.loads(starter_lines()[3])
    wrong_solution["solution"]["table"] = wrong_solution["position"]["table"]  # places nothing
    del wrong_solution["id"]
    lines = [good[0], "{not json", json.dumps(edited), "", json.dumps(wrong_solution), good[1], '{"game": "chess"}']
    path = tmp_path / "puzzles.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(CommandError, match="4 line"):
        call_command("load_puzzles", str(path))
    assert set(Puzzle.objects.values_list("key", flat=True)) == {json.loads(line)["id"] for line in good}


@pytest.mark.django_db
def test_the_errors_name_the_file_the_line_and_what_is_wrong(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('\n{"game": "tile-rummy-rearrange"}\n', encoding="utf-8")
    with pytest.raises(CommandError):
        call_command("load_puzzles", str(path))
    assert f"{path}, line 2: the field 'target' is missing" in capsys.readouterr().err


def test_a_missing_file_is_refused_before_anything_loads(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="no such file"):
        call_command("load_puzzles", str(tmp_path / "nope.jsonl"))
