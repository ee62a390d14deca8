from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.puzzles.loading import load_files, starter_files
from apps.puzzles.models import Puzzle


class Command(BaseCommand):
    help = (
        "Load puzzles from JSON lines files (made by `python -m apps.engine puzzles generate`). A puzzle "
        "already stored is skipped; a bad line is reported and changes nothing. --starter loads the starter set."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="*", type=Path)
        parser.add_argument(
            "--starter", action="store_true", help="also load the starter set that ships with the project"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        paths: list[Path] = list(options["files"])
        if options["starter"]:
            paths += starter_files()
        if not paths:
            raise CommandError("Name one or more files of puzzles (JSON lines), or --starter.")
        for path in paths:
            if not path.is_file():
                raise CommandError(f"{path}: no such file")
        result = load_files(paths, model=Puzzle)
        self.stdout.write(f"Puzzles: {result.added} added, {result.present} already stored.")
        if result.errors:
            for error in result.errors:
                self.stderr.write(error)
            raise CommandError(f"{len(result.errors)} line(s) not loaded (see above); the other lines were loaded.")
