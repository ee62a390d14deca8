"""Every install takes the locked versions: the lockfiles cover what pyproject.toml asks for, with hashes,
and the runtime and dev sets never pin a package differently (`make lock` regenerates both)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$")


def pins(path: Path) -> dict[str, list[tuple[str, str | None, int]]]:
    """Package -> [(version, marker, number of hashes)] of a uv/pip-compile lockfile."""
    found: dict[str, list[tuple[str, str | None, int]]] = {}
    current: list[object] | None = None
    for line in path.read_text().splitlines():
        match = PIN.match(line)
        if match:
            name, version, marker = match.groups()
            current = [version, marker, 0]
            found.setdefault(canonicalize_name(name), []).append(current)  # type: ignore[arg-type]
        elif current is not None and line.strip().startswith("--hash=sha256:"):
            current[2] += 1  # type: ignore[operator]
    return {name: [tuple(entry) for entry in entries] for name, entries in found.items()}  # type: ignore[misc]


def project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def assert_locked(requirements: list[str], locked: dict[str, list[tuple[str, str | None, int]]], lockfile: str) -> None:
    missing = []
    for text in requirements:
        requirement = Requirement(text)
        entries = locked.get(canonicalize_name(requirement.name), [])
        if not any(requirement.specifier.contains(version, prereleases=True) for version, _, _ in entries):
            missing.append(f"{text} (locked: {[version for version, _, _ in entries] or 'nothing'})")
    assert missing == [], f"pyproject.toml asks for what {lockfile} does not pin: run `make lock`: {missing}"


def test_the_runtime_lock_pins_every_runtime_dependency_with_hashes():
    locked = pins(ROOT / "requirements/runtime.txt")
    assert_locked(project()["dependencies"], locked, "requirements/runtime.txt")
    assert {"django", "channels", "daphne", "celery", "prometheus-client", "sentry-sdk", "pip", "setuptools"} <= set(locked)
    assert [name for name, entries in locked.items() if any(hashes == 0 for _, _, hashes in entries)] == []


def test_the_dev_lock_pins_every_runtime_and_dev_dependency_with_hashes():
    locked = pins(ROOT / "requirements/dev.txt")
    assert_locked(project()["dependencies"] + project()["optional-dependencies"]["dev"], locked, "requirements/dev.txt")
    assert [name for name, entries in locked.items() if any(hashes == 0 for _, _, hashes in entries)] == []


def test_the_dev_lock_pins_every_runtime_package_at_the_same_version():
    runtime, dev = pins(ROOT / "requirements/runtime.txt"), pins(ROOT / "requirements/dev.txt")
    different = {
        name: (sorted(v for v, _, _ in entries), sorted(v for v, _, _ in dev.get(name, [])))
        for name, entries in runtime.items()
        if sorted(v for v, _, _ in entries) != sorted(v for v, _, _ in dev.get(name, []))
    }
    assert different == {}


def test_the_build_backend_the_project_asks_for_is_the_locked_one():
    build = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    assert_locked(build, pins(ROOT / "requirements/runtime.txt"), "requirements/runtime.txt")


def test_the_project_is_licensed_under_the_agpl():
    assert project()["license"] == "AGPL-3.0-or-later"
    text = (ROOT / "LICENSE").read_text()
    assert text.lstrip().startswith("GNU AFFERO GENERAL PUBLIC LICENSE\n                       Version 3, 19 November 2007")
    assert "13. Remote Network Interaction; Use with the GNU General Public License." in text
    assert text.rstrip().endswith("<https://www.gnu.org/licenses/>.")
