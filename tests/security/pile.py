"""The draw pile's order never leaves the server: fast games of both games (the house game's pile, the
Rearrange game's pool) played by the Easy bot through the engine, and after every move what the site publishes (`snapshot.envelope`,
the same function the services use) and every viewer's `state` frame in it (`snapshot.frame_in`), checked:

- no key that holds hidden state (`racks`, `pile_order`, `deal`, `state`, `gone`); `pile` (`pool`) is
  a count;
- no run of PILE_WINDOW consecutive pile tiles, in order, anywhere in the frame: not as faces in a list
  or a text, not as the engine's tile ids;
- while the game runs, no face appears more often than the viewer may see it (own rack and drawn
  tile, melds, discards, indicator; in the Rearrange game, own rack and the table's sets): nothing of
  another rack or of the pile;
- the match's fair-deal server seed (SPEC 11) appears nowhere while the match goes on: not in hex (either
  case), base64, as a list of its byte values, nor the first bytes of the game's stream that it keys.
  The games are dealt from fair seeds as the site deals them, and the fair-deal part of the state
  (`fairness.public_view`, which the state frame carries as `table.match.fair`) is checked on its own
  too, so it is covered whether or not a frame includes it.

The rows are unsaved model instances: nothing touches the database, so thousands of games are cheap.
tests/security/test_pile_secrecy.py runs a few games; bench/pile_secrecy.py runs 10,000.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.utils import timezone

from apps.accounts.models import User
from apps.engine.bots import get_bot
from apps.engine.fair import FairSeeds
from apps.engine.game import get_rules
from apps.engine.match import start_match
from apps.engine.tiles import tile_of
from apps.tables import history
from apps.tables.fairness import public_view
from apps.tables.models import FairDeal, Game, Match, Seat, Table
from apps.tables.snapshot import envelope, frame_in, seating_of, unpack

HOUSE, REARRANGE = "tile-rummy", "tile-rummy-rearrange"


@dataclass(frozen=True)
class Hidden:
    """Where a game keeps its draw order, what the view calls its size, and what a seat may see."""

    order: Callable[[Any], Sequence[int]]
    count_key: str
    visible: Callable[[Any, int | None], Iterable[int]]


def _house_visible(state: Any, seat: int | None) -> Iterable[int]:
    if seat is not None:
        yield from state.racks[seat]  # the drawn tile is in it
    for meld in state.melds:
        yield from meld.tiles
    yield from state.discards
    yield state.indicator


def _rearrange_visible(state: Any, seat: int | None) -> Iterable[int]:
    if seat is not None:
        yield from state.racks[seat]
    for tiles in state.table:
        yield from tiles


HIDDEN = {
    HOUSE: Hidden(lambda state: state.pile, "pile", _house_visible),
    REARRANGE: Hidden(lambda state: state.pool, "pool", _rearrange_visible),
}
HIDDEN_KEYS = {"racks", "pile_order", "deal", "state", "gone"}
PILE_WINDOW = 6
SEED_WINDOW = 8  # this many consecutive bytes of the server seed, as numbers in a list, is a leak
FACE = re.compile(r"^(?:[rybk](?:1[0-3]|[1-9])|J)$")


@dataclass
class Tally:
    games: int = 0
    states: int = 0
    frames: int = 0
    bytes: int = 0
    fair_views: int = 0
    problems: list[str] = field(default_factory=list)


def keys_in(value: Any) -> set[str]:
    return walk(value).keys


@dataclass
class Walk:
    keys: set[str] = field(default_factory=set)
    sequences: list[list[Any]] = field(default_factory=list)  # lists of scalars, and texts split in words
    faces: Counter[str] = field(default_factory=Counter)  # faces outside the `skip` keys


def walk(value: Any, skip: frozenset[str] = frozenset()) -> Walk:
    """One pass over a frame: its keys, its lists of scalars (and its texts as words, where tiles could
    be spelled out), and how often each face appears outside the keys in `skip`."""
    found = Walk()
    stack: list[tuple[Any, bool]] = [(value, True)]
    while stack:
        item, counted = stack.pop()
        if isinstance(item, dict):
            found.keys.update(item)
            stack.extend((child, counted and key not in skip) for key, child in item.items())
        elif isinstance(item, list):
            if all(isinstance(child, (str, int)) for child in item):
                found.sequences.append(item)
            stack.extend((child, counted) for child in item)
        elif isinstance(item, str):
            if counted and FACE.match(item):
                found.faces[item] += 1
            elif " " in item:
                found.sequences.append(item.replace(",", " ").split())
    return found


def fair_seeds_for(seed: int, seats: int) -> FairSeeds:
    """The seeds a test match is dealt from: a server seed of its own, seat 0's browser seed, the rest empty."""
    server = hashlib.sha256(f"pile secrecy {seed}".encode()).digest()
    return FairSeeds(server, (hashlib.sha256(f"seat 0 of {seed}".encode()).digest()[:16], *(b"",) * (seats - 1)))


def rows_for(game_slug: str, state: Any, engine_match: Any, version: int,
             seeds: FairSeeds | None = None, log: list[dict[str, Any]] | None = None) -> tuple[Table, Game, Match]:
    now = timezone.now()
    table = Table(id=1, game=game_slug, seat_count=state.seats, match_length=engine_match.length, turn_seconds=60,
                  status=Table.Status.PLAYING, version=version, host_id=1, due_action=Table.Due.TIMEOUT,
                  due_at=now + timedelta(seconds=60))
    users = [User(id=index + 1, username=f"player-{index}") for index in range(state.seats)]
    seats = [Seat(table=table, index=index, user=users[index], joined_at=now) for index in range(state.seats)]
    match = Match(id=1, table=table, number=1, game=game_slug, state=engine_match.to_dict())
    game = Game(id=1, match=match, number=1, state={}, deal={}, turn=1, deadline=now + timedelta(seconds=60),
                log=log or [])
    table.match, table.current_game = match, game
    table.seating = seating_of(seats)
    if seeds is not None:
        match.fair_deal = FairDeal(match=match, server_seed=seeds.server_seed.hex(), commitment=seeds.commitment,
                                   seeds=[seed.hex() for seed in seeds.player_seeds], seeds_until=now, sealed_at=now)
    return table, game, match


class SeedSecrets:
    """What must never show before the match is over: the server seed in any spelling, and its stream."""

    def __init__(self, seeds: FairSeeds) -> None:
        seed = seeds.server_seed
        self.texts = [
            seed.hex(), seed.hex().upper(),
            base64.b64encode(seed).decode(), base64.urlsafe_b64encode(seed).decode().rstrip("="),
            seeds.stream(1).read(16).hex(),
        ]
        self.byte_windows = {tuple(seed[at : at + SEED_WINDOW]) for at in range(len(seed) - SEED_WINDOW + 1)}

    def problems(self, value: Any, text: str | None = None) -> list[str]:
        text = json.dumps(value) if text is None else text
        found = [f"server seed in the text: {needle[:12]}..." for needle in self.texts if needle in text]
        for items in walk(value).sequences:
            numbers = [item for item in items if isinstance(item, int)]
            for at in range(len(numbers) - SEED_WINDOW + 1):
                if tuple(numbers[at : at + SEED_WINDOW]) in self.byte_windows:
                    found.append(f"server seed bytes in a list: {numbers[at : at + SEED_WINDOW]}")
                    break
        return found


class PileSecrets:
    """What must never show: every run of PILE_WINDOW consecutive pile tiles, as faces or as ids."""

    def __init__(self, state: Any, game_slug: str = HOUSE) -> None:
        self.hidden = HIDDEN[game_slug]
        ids = list(self.hidden.order(state))
        faces = [str(tile_of(tile)) for tile in ids]
        self.face_windows = {tuple(faces[at : at + PILE_WINDOW]) for at in range(len(faces) - PILE_WINDOW + 1)}
        self.id_windows = {tuple(ids[at : at + PILE_WINDOW]) for at in range(len(ids) - PILE_WINDOW + 1)}
        self.texts = []
        if len(ids) >= PILE_WINDOW:
            head_ids, head_faces = ids[:PILE_WINDOW], faces[:PILE_WINDOW]
            self.texts = [", ".join(map(str, head_ids)), ",".join(map(str, head_ids)), " ".join(head_faces),
                          '", "'.join(head_faces), '","'.join(head_faces)]


def check_frame(frame: dict[str, Any], state: Any, seat: int | None, secrets: PileSecrets,
                text: str | None = None, seed: SeedSecrets | None = None) -> list[str]:
    problems = []
    text = json.dumps(frame) if text is None else text
    if seed is not None:
        problems += seed.problems(frame, text)
    view = frame["view"]
    # Skipped: the jokers' stand-ins, the scored end, the drawn tile (it is in the rack), the
    # seating draw (fewer tiles than a window, put back before the deal) and the log (it names tiles
    # seen on the table again: checked on its own below).
    found = walk(frame, skip=frozenset({"jokers", "result", "drawn", "ceremony", "log"}))
    hidden = found.keys & HIDDEN_KEYS
    if hidden:
        problems.append(f"hidden keys {sorted(hidden)}")
    count_key = secrets.hidden.count_key
    if not isinstance(view.get(count_key), int):
        problems.append(f"{count_key} is {view.get(count_key)!r}, not a count")
    for items in found.sequences:
        for at in range(len(items) - PILE_WINDOW + 1):
            window = tuple(items[at : at + PILE_WINDOW])
            if window in secrets.face_windows or window in secrets.id_windows:
                problems.append(f"pile order in a list: {list(window)}")
                break
    for needle in secrets.texts:
        if needle in text:
            problems.append(f"pile order in the text: {needle!r}")
    if not view["over"]:
        allowed = Counter(str(tile_of(tile)) for tile in secrets.hidden.visible(state, seat))
        extra = found.faces - allowed
        if extra:
            problems.append(f"faces seat {seat} may not see: {dict(extra)}")
    # The log (apps/tables/history.py) names only tiles every viewer sees, on the table or discarded.
    game = (frame.get("table") or {}).get("current_game") or {}
    public = Counter(str(tile_of(tile)) for tile in secrets.hidden.visible(state, None))
    logged = walk(game.get("log", [])).faces
    unseen = {face for face in logged if face not in public}
    if unseen:
        problems.append(f"the log names tiles nobody may see: {sorted(unseen)}")
    return problems


def play_and_check(seed: int, seats: int, tally: Tally, *, game_slug: str = HOUSE, max_moves: int = 2000) -> None:
    """One whole game of a fairly dealt match: after every move, every viewer's frame is checked, and
    the match's fair-deal part (the match goes on: its server seed stays secret)."""
    rng = random.Random(seed)
    rules = get_rules(game_slug)
    brain = get_bot(game_slug, "easy")
    seeds = fair_seeds_for(seed, seats)
    seed_secrets = SeedSecrets(seeds)
    engine_match, state = start_match(game_slug, seats, seeds, 1)
    version = 1
    log = history.new_game(1)
    for _ in range(max_moves):
        tally.states += 1
        secrets = PileSecrets(state, game_slug)
        rows = rows_for(game_slug, state, engine_match, version, seeds, log)
        decoded = unpack(envelope(*rows, state))
        fair = public_view(rows[2])
        tally.fair_views += 1
        for problem in seed_secrets.problems(fair) if fair is not None else ["the match has no fair-deal part"]:
            tally.problems.append(f"seed {seed}, fair-deal part, version {version}: {problem}")
        for seat, user_id in [(None, None), *[(index, index + 1) for index in range(seats)]]:
            text = frame_in(decoded, user_id)  # what goes over the wire
            frame = json.loads(text)
            tally.frames += 1
            tally.bytes += len(text)
            for problem in check_frame(frame, state, seat, secrets, text, seed_secrets):
                tally.problems.append(f"seed {seed}, seat {seat}, version {version}: {problem}")
        if rules.is_over(state):
            break
        mover = rules.to_move(state)
        after = rules.apply(state, mover, brain.next_move(rules.view_for(state, mover), rng))
        log = history.kept(log, history.entries(rules.view_for(state, None), rules.view_for(after, None)))
        state = after
        version += 1
    tally.games += 1
