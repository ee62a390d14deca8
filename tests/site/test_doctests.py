"""Executable documentation (CONVENTIONS 21, the python-chess way): every example in the code's
docstrings and in the documentation runs in the suite, so an example that goes stale fails a test
instead of misleading its reader.

- Every module of apps/ and rummysite/ whose docstrings hold an example (`>>> `) runs under `doctest`.
  The modules are found by reading the sources, so a module that gains its first example, or moves, is
  run without being listed here.
- Every page of docs/ with an example runs under `doctest`: a Python example in a page is a session (a
  ```pycon block of `>>> ` lines and what they print), and a page's sessions run in order, sharing their
  names, as `doctest.testfile` would run them (the text around them blanked, so the closing fence is
  not read as printed output and a failure names the page's own line). A listing that is not a session
  (a signature table, say) is marked ```text, not ```python, so no block that looks like Python goes
  unrun. Shell commands (```sh, ```console) are not Python; tests/docs and tests/engine run those.
"""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("apps", "rummysite")
DOCS = ROOT / "docs"
PROMPT = re.compile(r"^\s*>>> ", re.MULTILINE)
FENCE = re.compile(r"^\s*```(\S*)[^\n]*\n(.*?)^\s*```", re.MULTILINE | re.DOTALL)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules_with_examples() -> list[str]:
    return sorted(
        module_name(path)
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts and PROMPT.search(path.read_text(encoding="utf-8"))
    )


SESSION = re.compile(r"^```pycon[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)


def sessions_of(page: Path) -> str:
    """The page's ```pycon blocks at their own lines, every other line blank."""
    text = page.read_text(encoding="utf-8")
    kept = [""] * len(text.splitlines())
    for match in SESSION.finditer(text):
        first = text.count("\n", 0, match.start(1))
        for offset, line in enumerate(match.group(1).splitlines()):
            kept[first + offset] = line
    return "\n".join(kept) + "\n"


def pages_with_examples() -> list[Path]:
    return sorted(path for path in DOCS.glob("*.md") if PROMPT.search(sessions_of(path)))


def test_the_search_finds_the_examples_of_the_code_and_of_the_documentation() -> None:
    """The search below is not vacuous: the modules known to carry examples and the engine's page are found."""
    modules = modules_with_examples()
    assert {"apps.live.compact", "apps.tables.rated", "apps.catalog.ladder"} <= set(modules)
    assert DOCS / "engine.md" in pages_with_examples()


@pytest.mark.parametrize("name", modules_with_examples())
def test_a_modules_docstring_examples_run(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), report=True)
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} of {name}'s examples failed (printed above)"


@pytest.mark.parametrize("page", pages_with_examples(), ids=lambda page: page.name)
def test_a_pages_examples_run(page: Path) -> None:
    test = doctest.DocTestParser().get_doctest(sessions_of(page), {}, page.name, str(page), 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    result = runner.summarize()
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} of {page.name}'s examples failed (printed above)"


def test_every_python_block_of_the_documentation_is_a_session_that_runs() -> None:
    """A ```python block is refused, as the page tests would skip it: make it a session (```pycon, run
    above) or, if it is a listing rather than code, mark it ```text."""
    unrun = [
        f"{page.relative_to(ROOT)}: ```{language} block starting {body.strip().splitlines()[0]!r}"
        for page in [*sorted(DOCS.glob("*.md")), ROOT / "README.md"]
        for language, body in FENCE.findall(page.read_text(encoding="utf-8"))
        if language in {"python", "py", "python3"} or (language == "pycon" and not PROMPT.search(body))
    ]
    assert unrun == []
