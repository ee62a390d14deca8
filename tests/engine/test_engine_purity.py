"""The engine is a pure library (CONVENTIONS 1, 3): standard library only, no Django, Channels or Celery,
no clock, no global random generator, and `mypy --strict` clean."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "apps" / "engine"
FORBIDDEN_PACKAGES = {"django", "channels", "celery", "daphne", "redis", "psycopg", "allauth"}
CLOCK_MODULES = {"time", "datetime"}
SEEDABLE = {"Random", "SystemRandom"}
# The simulator measures seconds per game and move times (SPEC 9): a measuring tool, not rules.
CLOCK_ALLOWED = {"apps/engine/bots/simulate.py"}


def engine_files() -> list[Path]:
    return sorted(ENGINE.rglob("*.py"))


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_nothing_in_the_engine_imports_django_channels_or_celery() -> None:
    offenders = {
        str(path.relative_to(ROOT)): sorted(name for name in imported_modules(path) if name.split(".")[0] in FORBIDDEN_PACKAGES)
        for path in engine_files()
    }
    assert {path: names for path, names in offenders.items() if names} == {}


def test_importing_every_engine_module_loads_no_web_framework() -> None:
    modules = [".".join(path.relative_to(ROOT).with_suffix("").parts) for path in engine_files() if path.name != "__main__.py"]
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name.removesuffix('.__init__'))\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {sorted(FORBIDDEN_PACKAGES)!r}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_the_engine_never_reads_the_clock_or_the_global_random_generator() -> None:
    offenders: list[str] = []
    for path in engine_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for name in imported_modules(path):
            if name.split(".")[0] in CLOCK_MODULES and path.relative_to(ROOT).as_posix() not in CLOCK_ALLOWED:
                offenders.append(f"{path.name} imports {name}")
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                offenders.extend(f"{path.name} imports random.{a.name}" for a in node.names if a.name not in SEEDABLE)
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
                and node.attr not in SEEDABLE
            ):
                offenders.append(f"{path.name} uses random.{node.attr}")
    assert offenders == []


def test_mypy_strict_is_clean_on_the_engine() -> None:
    pytest.importorskip("mypy", reason="mypy is not installed")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "apps/engine"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
