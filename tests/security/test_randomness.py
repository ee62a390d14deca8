"""Every deal the site makes comes from its match's provably fair seeds (SPEC 11), whose server seed is
drawn from the operating system's generator (`secrets`), never from the predictable global `random` or a
guessable seed. The engine takes its generator as an argument (its seeded simulations and tests pass
their own); the site is the one that chooses it."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from apps.engine.fair import FairSeeds, FairStream
from apps.engine.game import get_rules
from apps.engine.match import fair_deal
from apps.tables import services
from apps.tables.models import FairDeal, Game, Table
from tests.tables.helpers import human_move, make_user, run_due

ROOT = Path(__file__).resolve().parents[2]
#: What the global generator offers: calling any of these reads (or reseeds) shared, predictable state.
GLOBAL_RANDOM = {
    "random", "randint", "randrange", "choice", "choices", "shuffle", "sample", "uniform", "seed",
    "getrandbits", "randbytes", "gauss", "triangular", "betavariate", "expovariate", "normalvariate",
}


def python_files(*directories: str) -> list[Path]:
    return [path for directory in directories for path in sorted((ROOT / directory).rglob("*.py"))
            if "migrations" not in path.parts]


def random_calls(path: Path) -> list[tuple[int, str, ast.Call]]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            if isinstance(owner, ast.Name) and owner.id == "random":
                found.append((node.lineno, node.func.attr, node))
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            names = {alias.name for alias in node.names} & GLOBAL_RANDOM
            if names:
                found.append((node.lineno, f"from random import {', '.join(sorted(names))}", node))  # type: ignore[arg-type]
    return found


def test_no_code_of_the_site_or_the_engine_uses_the_global_random_generator():
    problems = [
        f"{path.relative_to(ROOT)}:{line}: random.{name}()"
        for path in python_files("apps", "rummysite")
        for line, name, _ in random_calls(path)
        if name in GLOBAL_RANDOM or name.startswith("from random")
    ]
    assert problems == []


def test_outside_the_engine_a_generator_is_systemrandom_or_seeded_from_secrets():
    """The engine's own `random.Random(seed)` serve seeded simulations and tests; the site's code may
    only make a SystemRandom, or a Random seeded from `secrets` (a bot's choices)."""
    problems = []
    for path in python_files("apps", "rummysite"):
        if path.is_relative_to(ROOT / "apps" / "engine"):
            continue
        for line, name, call in random_calls(path):
            if name == "SystemRandom":
                continue
            seeded_from_secrets = (
                name == "Random"
                and len(call.args) == 1
                and isinstance(call.args[0], ast.Call)
                and isinstance(call.args[0].func, ast.Attribute)
                and isinstance(call.args[0].func.value, ast.Name)
                and call.args[0].func.value.id == "secrets"
            )
            if not seeded_from_secrets:
                problems.append(f"{path.relative_to(ROOT)}:{line}: random.{name}(...)")
    assert problems == []


@pytest.mark.django_db
def test_every_deal_of_a_match_comes_from_its_fair_seeds(monkeypatch):
    """Watched where every deal ends up: the game's `new_game(seats, rng, ...)`, which shuffles. Each
    game is dealt from its own fair stream, and is exactly what the match's sealed seeds deal."""
    seen: list[type] = []
    rules_class = type(get_rules("tile-rummy"))
    real_new_game = rules_class.new_game

    def new_game(self, seats, rng, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(type(rng))
        return real_new_game(self, seats, rng, *args, **kwargs)

    monkeypatch.setattr(rules_class, "new_game", new_game)
    alice = make_user("alice")
    table = services.table_open(by=alice, game="tile-rummy", seat_count=2, match_length=3, bots=["easy"])
    services.table_start(table_id=table.pk, by=alice)
    rng = random.Random(3)  # the test's own player; only the site's deals must be fair
    for _ in range(3000):  # play until the second game of the match is dealt
        table.refresh_from_db()
        if Game.objects.filter(match__table=table).count() >= 2:
            break
        if table.due_action in (Table.Due.BOT, Table.Due.NEXT_GAME, Table.Due.AUTOPILOT):
            run_due(table.pk)
        else:
            services.game_move(table_id=table.pk, by=alice, move=human_move(table.pk, 0, rng))
    games = list(Game.objects.filter(match__table=table).order_by("number"))
    assert len(games) >= 2 and len(seen) >= 2
    assert all(kind is FairStream for kind in seen), seen
    fair = FairDeal.objects.get(match__table=table)
    seeds = FairSeeds(bytes.fromhex(fair.server_seed), tuple(bytes.fromhex(seed) for seed in fair.seeds))
    for game in games:
        assert game.deal == get_rules("tile-rummy").deal_of(fair_deal("tile-rummy", seeds, game.number, game.deal["absent"]))
