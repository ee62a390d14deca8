"""The shape of the code (CONVENTIONS 16-17, 26), checked on its imports: the arrows run one way.

- The top-level packages stand on floors (FLOORS, the map in docs/architecture.md): each imports only
  packages on lower floors, so there is no circle between packages either.
- No import circle anywhere in the project: the graph of module-level imports between the project's
  own modules is acyclic (an import inside a function, the old way of hiding a circle, is refused too,
  but for Django's `AppConfig.ready` and a module's lazy `__getattr__`).
- The tables app's layers: services never reach up to sockets, rooms, views or tasks; tasks are a leaf
  nobody imports; the live plumbing (apps/live) knows no app.
- Other apps read tables, matches and games only through `apps/tables/selectors.py` (and otherwise use
  only the tables' other faces: TABLES_FACES).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("apps", "rummysite")

#: The floors of the top-level packages (docs/architecture.md): a package may import only packages on
#: lower floors, never one on its own floor or above (there is no exception). `rummysite` is the
#: composition root, on top.
FLOORS: dict[str, int] = {
    # 0, the ground: plumbing every app may use, and the rules as a pure library
    "apps.lib": 0,
    "apps.engine": 0,
    "apps.live": 0,
    # 1: identity (user, guests, bans, limits, signals, language) and the catalog of games
    "apps.accounts": 1,
    "apps.catalog": 1,
    # 2: bot accounts and their tokens; follows, friends and blocks; puzzles and their ratings
    "apps.bots": 2,
    "apps.social": 2,
    "apps.puzzles": 2,
    # 3: tables, seats, matches, the one write path
    "apps.tables": 3,
    # 4: what is built on the tables: the chat, the reviews and hints, the ratings
    "apps.chat": 4,
    "apps.review": 4,
    "apps.leaderboards": 4,
    # 5: the moderators' tools, over all of the above; quick pairing and arenas, which open tables
    "apps.moderation": 5,
    "apps.pairing": 5,
    "apps.tournaments": 5,
    # 6: the composed pages of a player (the profile, the bot API's account); notifications, which hear
    # of the events of every app below
    "apps.players": 6,
    "apps.notifications": 6,
    # 7: the composition root: settings, urls, asgi, routing, the site's views and checks
    "rummysite": 7,
}

#: What the other apps may import of the tables app, each for its reason.
TABLES_FACES = {
    "apps.tables.selectors": "reads of tables, matches and games (CONVENTIONS 17)",
    "apps.tables.parts": "where the apps above add their parts to a table's socket and page",
    "apps.tables.events": "the typed events a table publishes, for the apps that subscribe to them",
    "apps.tables.services": "the one write path: quick pairing, challenges and arenas open and start tables",
}


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
    top, nested, _anywhere = read_imports(path)
    return top, nested


def read_imports(path: Path) -> tuple[set[str], list[str], set[str]]:
    """(project modules imported at module level, imports found inside functions, project modules
    imported anywhere: at module level, in any function, under TYPE_CHECKING)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    top: set[str] = set()
    nested: list[str] = []
    anywhere: set[str] = set()

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
                anywhere.update(found)
                if in_function is not None and found and in_function not in ("ready", "__getattr__"):
                    nested.append(f"{module_name(path)}:{child.lineno} in {in_function}(): {sorted(found)}")
                elif in_function is None and not type_checking:
                    top.update(found)
            else:
                visit(child, in_function, type_checking)

    visit(tree, None, False)
    top.discard(module_name(path))
    anywhere.discard(module_name(path))
    return top, nested, anywhere


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
            assert tables <= set(TABLES_FACES), (name, tables)


# --- Packages: floors, and no circle between them ---------------------------------------------------------


def package_of(module: str) -> str:
    """The top-level package a module belongs to: `rummysite`, or `apps.<app>`."""
    parts = module.split(".")
    return parts[0] if parts[0] != "apps" or len(parts) == 1 else ".".join(parts[:2])


#: module -> project modules it imports anywhere (a nested or TYPE_CHECKING import is an arrow all the
#: same: AppConfig.ready()'s registrations too must point down).
ALL_IMPORTS = {name: read_imports(path)[2] for name, path in MODULES.items()}

#: (importing package, imported package) -> the module arrows that make it.
PACKAGE_ARROWS: dict[tuple[str, str], list[str]] = {}
for _module, _targets in sorted(ALL_IMPORTS.items()):
    for _target in sorted(_targets):
        if package_of(_module) != package_of(_target):
            PACKAGE_ARROWS.setdefault((package_of(_module), package_of(_target)), []).append(f"{_module} -> {_target}")


def test_every_top_level_package_stands_on_a_declared_floor():
    packages = {package_of(name) for name in MODULES} - {"apps"}
    assert packages == set(FLOORS)


def test_there_is_no_import_circle_between_top_level_packages():
    graph: dict[str, set[str]] = {}
    for importer, imported in PACKAGE_ARROWS:
        graph.setdefault(importer, set()).add(imported)
    cycles = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def walk(package: str) -> None:
        state[package] = 1
        path.append(package)
        for target in sorted(graph.get(package, ())):
            if state.get(target) == 1:
                cycles.append(" -> ".join([*path[path.index(target) :], target]))
            elif target not in state:
                walk(target)
        path.pop()
        state[package] = 2

    for package in sorted(graph):
        if package not in state:
            walk(package)
    assert cycles == []


def test_each_package_imports_only_packages_on_lower_floors():
    upward = [
        f"{arrow} (floor {FLOORS[importer]} -> {FLOORS[imported]})"
        for (importer, imported), arrows in sorted(PACKAGE_ARROWS.items())
        if FLOORS.get(imported, -1) >= FLOORS.get(importer, -1)
        for arrow in arrows
    ]
    assert upward == []

