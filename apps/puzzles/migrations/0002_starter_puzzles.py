"""The starter set that ships with the project (apps/engine/puzzles/starter/), loaded at install, so a fresh
`make run` serves puzzles and a daily puzzle. Loading is idempotent (by the puzzle's key); later sets
are loaded with `manage.py load_puzzles FILE...`."""

from typing import Any

from django.db import migrations


def load_starter(apps: Any, schema_editor: Any) -> None:
    from apps.puzzles.loading import load_files, starter_files  # migrations run before the app's code is needed

    result = load_files(starter_files(), model=apps.get_model("puzzles", "Puzzle"))
    if result.errors:
        raise RuntimeError("The starter puzzles do not load:\n" + "\n".join(result.errors))


class Migration(migrations.Migration):
    dependencies = [("puzzles", "0001_initial")]

    operations = [migrations.RunPython(load_starter, migrations.RunPython.noop)]
