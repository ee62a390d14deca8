"""The shape of the code (CONVENTIONS 16-17), checked on its imports: the arrows run one way.

- No import circle anywhere in the project: the graph of module-level imports between the project's
  own modules is acyclic (an import inside a function, the old way of hiding a circle, is refused too,
  but for Django's `AppConfig.ready` and a module's lazy `__getattr__`).
- The tables app's layers: services never reach up to sockets, rooms, views or tasks; tasks are a leaf
  nobody imports; the live plumbing (apps/live) knows no app.
- Other apps read tables, matches and games only through `apps/tables/selectors.py`.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("apps", "rummysite")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            found[module_name(path)] = path
    return found


MODULES = project_modules()


def resolve(name: str) -> str | None:
    """The project module an import names (a name imported from a package may be a submodule)."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def imports_of(path: Path) -> tuple[set[str], list[str]]:
    """(project modules imported at module level, imports found inside functions)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    top: set[str] = set()
    nested: list[str] = []

    def names(node: ast.Import | ast.ImportFrom) -> list[str]:
        if isinstance(node, ast.Import):
            return [alias.name for alias in node.names]
        base = node.module or ""
        if node.level:  # relative: not used in this project, but resolve it anyway
            package = module_name(path).split(".")[: -node.level or None]
            base = ".".join([*package, base]) if base else ".".join(package)
        # `from package import module` names the module; `from module import name` the module.
        return [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]

    def visit(node: ast.AST, in_function: str | None, type_checking: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, child.name, type_checking)
            elif isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                visit(child, in_function, True)
            elif isinstance(child, (ast.Import, ast.ImportFrom)):
                found = {resolved for name in names(child) if (resolved := resolve(name)) is not None}
                if in_function is not None and found and in_function not in ("ready", "__getattr__"):
                    nested.append(f"{module_name(path)}:{child.lineno} in {in_function}(): {sorted(found)}")
                elif in_function is None and not type_checking:
                    top.update(found)
            else:
                visit(child, in_function, type_checking)

    visit(tree, None, False)
    top.discard(module_name(path))
    return top, nested


GRAPH = {name: imports_of(path)[0] for name, path in MODULES.items()}


def test_no_project_module_imports_another_inside_a_function():
    nested = [line for path in MODULES.values() for line in imports_of(path)[1]]
    assert nested == []


def test_the_project_has_no_import_circle():
    cycles = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def walk(name: str) -> None:
        state[name] = 1
        path.append(name)
        for target in sorted(GRAPH.get(name, ())):
            if state.get(target) == 1:
                cycles.append(" -> ".join([*path[path.index(target) :], target]))
            elif target not in state:
                walk(target)
        path.pop()
        state[name] = 2

    for name in sorted(GRAPH):
        if name not in state:
            walk(name)
    assert cycles == []


def reaches(start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for target in GRAPH.get(todo.pop(), ()):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def test_the_table_services_never_reach_up_to_sockets_rooms_views_or_tasks():
    above = {"apps.tables.consumers", "apps.tables.rooms", "apps.tables.views", "apps.tables.tasks",
             "apps.tables.routing", "apps.tables.admin", "apps.tables.urls"}
    for name in MODULES:
        if name.startswith("apps.tables.services"):
            assert reaches(name) & above == set(), name


def test_tasks_are_a_leaf_that_nothing_imports():
    importers = {name for name, targets in GRAPH.items() for target in targets if target.endswith(".tasks")}
    assert importers == set()


def test_the_live_plumbing_knows_no_app():
    for name in MODULES:
        if name.startswith("apps.live"):
            outside = {target for target in reaches(name) if not target.startswith("apps.live")}
            assert outside == set(), (name, outside)


def test_other_apps_read_tables_only_through_its_selectors():
    for name, targets in GRAPH.items():
        if name.startswith("apps.") and not name.startswith("apps.tables"):
            tables = {target for target in targets if target.startswith("apps.tables")}
            assert tables <= {"apps.tables.selectors"}, (name, tables)
