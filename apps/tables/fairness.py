"""Provably fair deals at the site (SPEC 11; the function itself is `apps.engine.fair`, docs/fair-deals.md).

The life of a match's `FairDeal`:

1. `deal_open` when the match starts, before anything is dealt: the server seed is drawn from the
   operating system (`secrets`: the one place the site draws it) and only its commitment is shown.
2. `seed_accept` takes each human seat's 16-byte browser seed (a `seed` frame) while the window is open.
   Bots contribute an empty seed from the start.
3. `seal` when the window closes (every human seed is in, or `seeds_until` has passed): seeds still
   missing become empty and the seeds are fixed; the first game is dealt from them, and every later game
   from `seeds_of(match)`.
4. When the match is over, `public_view` and `game_proof` reveal the server seed, and `match_check`
   re-deals every game from the seeds to show the check passing on the match page.

These functions work on rows inside the caller's transaction (the services lock the table row and call
them); they never broadcast. `public_view` is the only thing a browser is sent: before the match is over
it holds the commitment and which seats' seeds are in, never the server seed.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from apps.engine.errors import EngineError
from apps.engine.fair import PLAYER_SEED_BYTES, SCHEME, SERVER_SEED_BYTES, FairProof, FairSeeds, commitment
from apps.engine.records import GameRecord, check_fair_deal
from apps.tables.engine_text import engine_text
from apps.tables.links import url
from apps.tables.models import FairDeal, Game, Match, Seat

#: The seconds a match waits for its human seats' seeds before the first deal (less when all are in).
DEFAULT_SEED_SECONDS = 5.0
_SEED_TEXT = re.compile(rf"[0-9a-f]{{{2 * PLAYER_SEED_BYTES}}}")


class SeedRefused(Exception):
    """A `seed` frame that cannot be taken (changes nothing). `code` is the error frame's code."""

    code = "seed_refused"


def seed_window() -> timedelta:
    return timedelta(seconds=float(getattr(settings, "TABLE_FAIR_SEED_SECONDS", DEFAULT_SEED_SECONDS)))


def deal_open(*, match: Match, seats: Sequence[Seat], now: datetime) -> FairDeal:
    """The match's fair deal, before any player seed exists: a fresh secret server seed and its
    commitment; every human seat's seed awaited until `now` + the window, every bot's empty."""
    server_seed = secrets.token_bytes(SERVER_SEED_BYTES)
    return FairDeal.objects.create(
        match=match,
        server_seed=server_seed.hex(),
        commitment=commitment(server_seed),
        seeds=[None if seat.user_id is not None else "" for seat in sorted(seats, key=lambda seat: seat.index)],
        seeds_until=now + seed_window(),
    )


def seed_accept(*, fair: FairDeal, seat: int, seed: Any) -> None:
    """`seat`'s browser seed: 16 bytes as 32 lowercase hex digits, once, before the seeds are sealed."""
    if fair.sealed_at is not None:
        raise SeedRefused(_("The deal has been made: seeds are no longer taken."))
    if not isinstance(seed, str) or not _SEED_TEXT.fullmatch(seed):
        raise SeedRefused(_("A seed is %(count)s random bytes written as %(digits)s lowercase hex digits.")
                          % {"count": PLAYER_SEED_BYTES, "digits": 2 * PLAYER_SEED_BYTES})
    if not 0 <= seat < len(fair.seeds) or fair.seeds[seat] is not None:
        raise SeedRefused(_("This seat's seed is already in."))
    fair.seeds = [seed if index == seat else value for index, value in enumerate(fair.seeds)]
    fair.save(update_fields=["seeds"])


def seeds_complete(fair: FairDeal) -> bool:
    """Every seat's seed is in (bots' are empty from the start): the deal need not wait."""
    return all(value is not None for value in fair.seeds)


def seeds_due(fair: FairDeal, now: datetime) -> bool:
    """The window is over: every seed is in, or its time has passed."""
    return seeds_complete(fair) or now >= fair.seeds_until


def seal(fair: FairDeal, now: datetime) -> FairSeeds:
    """Fix the seeds (a seat still awaited contributes an empty seed) and return them to deal from.
    Sealing again returns the same seeds."""
    if fair.sealed_at is None:
        fair.seeds = ["" if value is None else value for value in fair.seeds]
        fair.sealed_at = now
        fair.save(update_fields=["seeds", "sealed_at"])
    return _seeds(fair)


def seeds_of(match: Match) -> FairSeeds | None:
    """What the match's later games are dealt from; None for a match started before fair deals (it
    keeps being dealt by the system's generator)."""
    fair = FairDeal.objects.filter(match=match).first()
    if fair is None:
        return None
    if fair.sealed_at is None:
        raise RuntimeError(f"The seeds of match {match.pk} are not sealed: its first game is not dealt yet")
    return _seeds(fair)


def _seeds(fair: FairDeal) -> FairSeeds:
    return FairSeeds(bytes.fromhex(fair.server_seed), tuple(bytes.fromhex(value or "") for value in fair.seeds))


def _fair_of(match: Match) -> FairDeal | None:
    try:
        return match.fair_deal
    except FairDeal.DoesNotExist:
        return None


def public_view(match: Match, fair: FairDeal | None = None) -> dict[str, Any] | None:
    """The fair-deal part of a table's state, the same for every viewer: the commitment, whether the
    seeds are still being taken and whose are in; once the match is over, every seed. None for a match
    without a fair deal."""
    fair = fair if fair is not None else _fair_of(match)
    if fair is None:
        return None
    seeding = fair.sealed_at is None and match.finished_at is None
    view: dict[str, Any] = {
        "scheme": SCHEME,
        "commitment": fair.commitment,
        "seeding": seeding,
        "seeds_until": fair.seeds_until.isoformat() if seeding else None,
        "sent": [value is not None for value in fair.seeds],
        "revealed": match.finished_at is not None,
        "explained_url": url("tables:fair_deals"),
    }
    if match.finished_at is not None:
        view["server_seed"] = fair.server_seed
        view["player_seeds"] = ["" if value is None else value for value in fair.seeds]
        view["check_url"] = url("tables:match", match.pk)
    return view


def game_proof(game: Game) -> FairProof | None:
    """The `fair` part of a game's record: the server seed only once the match is over."""
    match = game.match
    fair = _fair_of(match)
    if fair is None or fair.sealed_at is None:
        return None
    seeds = tuple(bytes.fromhex(value or "") for value in fair.seeds)
    server_seed = bytes.fromhex(fair.server_seed) if match.finished_at is not None else None
    return FairProof(fair.commitment, game.number, seeds, server_seed)


@dataclass(frozen=True)
class GameCheck:
    number: int
    verified: bool
    problem: str = ""


@dataclass(frozen=True)
class MatchCheck:
    """What the match page shows of the fair deal: the commitment, and once the match is over the seeds
    and, per game dealt, whether the seeds give exactly its recorded deal."""

    commitment: str
    revealed: bool
    server_seed: str = ""
    player_seeds: tuple[str, ...] = ()
    games: tuple[GameCheck, ...] = ()

    @property
    def verified(self) -> bool:
        return self.revealed and bool(self.games) and all(game.verified for game in self.games)


def match_check(match: Match) -> MatchCheck | None:
    """Re-deal every game of a finished match from its seeds and compare with the recorded deals (the
    same check as `python -m apps.engine replay`). None for a match without a fair deal."""
    fair = _fair_of(match)
    if fair is None:
        return None
    if match.finished_at is None:
        return MatchCheck(fair.commitment, revealed=False)
    checks = []
    for game in match.games.order_by("number") if fair.sealed_at is not None else ():
        proof = game_proof(game)
        assert proof is not None  # the match is over and its seeds sealed
        try:
            outcome = check_fair_deal(GameRecord(match.game, dict(game.deal), fair=proof))
            checks.append(GameCheck(game.number, outcome is not None and outcome.verified))
        except EngineError as error:
            checks.append(GameCheck(game.number, False, engine_text(error)))  # read on the page, in its language
    return MatchCheck(
        fair.commitment,
        revealed=True,
        server_seed=fair.server_seed,
        player_seeds=tuple(value or "" for value in fair.seeds),  # a match closed in the window: all empty
        games=tuple(checks),
    )
