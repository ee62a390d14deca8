"""Provably fair deals (SPEC 11): the commitment, the random stream, the unbiased draw and the shuffle.

Every game of a fairly dealt match is dealt from a stream of bytes that is a deterministic function of
the server's secret 32-byte seed, the players' seeds in seat order and the game's number:

    message(g) = b"tile-rummy-fair/1" 0x00 | u8 seats | (u8 length | seed) per seat | u32be g
    block(i)   = HMAC-SHA256(key = server seed, message(g) | u64be i)      for i = 0, 1, 2, ...
    stream     = block(0) | block(1) | ...

A draw below `n` reads the next 4 bytes as a big-endian u32 and rejects it (reading 4 more) while it is
at or past the largest multiple of `n` that fits in 2**32, so that every result is equally likely; a
shuffle is Fisher-Yates from the last position down. `FairStream` offers exactly the two calls the
games deal with (`randrange(n)` and `shuffle(list)`, the `Randomness` of `apps.engine.game`), so the
games' own deal code deals from it as it deals from a `random.Random` in simulations and tests.

docs/fair-deals.md specifies all of it byte for byte, with test vectors; docs/fair_check.py is an
independent checker written from that page alone.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from apps.engine.errors import InvalidMove

SCHEME = "tile-rummy-fair/1"
SERVER_SEED_BYTES = 32
PLAYER_SEED_BYTES = 16
DRAW_BYTES = 4
DRAW_RANGE = 1 << (8 * DRAW_BYTES)  # a draw reads a u32: 0 .. 2**32 - 1
_TAG = SCHEME.encode("ascii") + b"\x00"

ItemT = TypeVar("ItemT")


def commitment(server_seed: bytes) -> str:
    """The SHA-256 of the server seed, as 64 lowercase hex digits: shown before any player seed exists."""
    _check_server_seed(server_seed)
    return hashlib.sha256(server_seed).hexdigest()


def stream_message(player_seeds: Sequence[bytes], game_no: int) -> bytes:
    """The HMAC message of game `game_no` (before the block counter): the scheme's tag, the number of
    seats, each seat's seed with its length, and the game's number."""
    _check_player_seeds(player_seeds)
    if not 1 <= game_no < 1 << 32:
        raise InvalidMove(f"A game's number is 1 or more, not {game_no}", "fair_game_number", number=game_no)
    parts = [_TAG, bytes([len(player_seeds)])]
    for seed in player_seeds:
        parts.append(bytes([len(seed)]))
        parts.append(seed)
    parts.append(game_no.to_bytes(4, "big"))
    return b"".join(parts)


def draw_limit(n: int) -> int:
    """The first u32 a draw below `n` rejects: the largest multiple of `n` that is at most 2**32."""
    if not 1 <= n <= DRAW_RANGE:
        raise InvalidMove(f"A draw is below a number from 1 to 2**32, not {n}", "fair_draw_range", number=n)
    return DRAW_RANGE - DRAW_RANGE % n


class FairStream:
    """The random stream of one game: HMAC-SHA256 in counter mode, read front to back.

    `randrange(n)` and `shuffle(items)` are the deal's two calls (the `Randomness` protocol); `read`
    gives raw bytes (test vectors)."""

    __slots__ = ("_key", "_message", "_counter", "_buffer", "_at", "bytes_read")

    def __init__(self, server_seed: bytes, player_seeds: Sequence[bytes], game_no: int) -> None:
        _check_server_seed(server_seed)
        self._key = bytes(server_seed)
        self._message = stream_message(player_seeds, game_no)
        self._counter = 0
        self._buffer = b""
        self._at = 0
        self.bytes_read = 0

    def _block(self) -> bytes:
        block = hmac.new(self._key, self._message + self._counter.to_bytes(8, "big"), hashlib.sha256).digest()
        self._counter += 1
        return block

    def read(self, count: int) -> bytes:
        """The next `count` bytes of the stream."""
        if count < 0:
            raise InvalidMove(f"Cannot read {count} bytes", "fair_read_count", count=count)
        out = bytearray()
        while len(out) < count:
            if self._at == len(self._buffer):
                self._buffer, self._at = self._block(), 0
            take = min(count - len(out), len(self._buffer) - self._at)
            out += self._buffer[self._at : self._at + take]
            self._at += take
        self.bytes_read += count
        return bytes(out)

    def below(self, n: int) -> int:
        """An integer in [0, n), every one equally likely: u32s at or past `draw_limit(n)` are rejected."""
        limit = draw_limit(n)
        while True:
            value = int.from_bytes(self.read(DRAW_BYTES), "big")
            if value < limit:
                return value % n

    def randrange(self, stop: int, /) -> int:
        return self.below(stop)

    def shuffle(self, items: list[ItemT], /) -> None:
        """Fisher-Yates in place: for i from the last position down to 1, swap items[i] and items[below(i + 1)]."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


@dataclass(frozen=True, slots=True)
class FairSeeds:
    """Everything a fair match is dealt from: the server seed and one seed per seat (empty for a bot or a
    seat that sent none in time). A match deals game `g` from `stream(g)` (see `apps.engine.match`)."""

    server_seed: bytes
    player_seeds: tuple[bytes, ...]

    def __post_init__(self) -> None:
        _check_server_seed(self.server_seed)
        _check_player_seeds(self.player_seeds)

    @property
    def seats(self) -> int:
        return len(self.player_seeds)

    @property
    def commitment(self) -> str:
        return commitment(self.server_seed)

    def stream(self, game_no: int) -> FairStream:
        return FairStream(self.server_seed, self.player_seeds, game_no)

    def __repr__(self) -> str:  # the server seed is a secret until the match is over: never in a log line
        return f"FairSeeds(commitment={self.commitment!r}, seats={self.seats})"


@dataclass(frozen=True, slots=True)
class FairProof:
    """The fair-deal part of a game record: the commitment, the game's number and the players' seeds; the
    server seed once the match is over (None before: then the deal cannot be checked yet)."""

    commitment: str
    game_no: int
    player_seeds: tuple[bytes, ...]
    server_seed: bytes | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "scheme": SCHEME,
            "commitment": self.commitment,
            "game_no": self.game_no,
            "player_seeds": [seed.hex() for seed in self.player_seeds],
            "server_seed": None if self.server_seed is None else self.server_seed.hex(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FairProof:
        if not isinstance(data, Mapping) or data.get("scheme") != SCHEME:
            raise InvalidMove(f"A record's 'fair' part must have 'scheme': {SCHEME!r}", "fair_scheme", scheme=SCHEME)
        try:
            text = data["commitment"]
            if not isinstance(text, str) or len(text) != 64 or text != text.lower():
                raise ValueError("'commitment' must be 64 lowercase hex digits")
            bytes.fromhex(text)
            game_no = data["game_no"]
            if not isinstance(game_no, int) or isinstance(game_no, bool):
                raise ValueError("'game_no' must be a number")
            seeds = tuple(_hex_bytes(seed, "a player seed") for seed in data["player_seeds"])
            server = data.get("server_seed")
            proof = cls(text, game_no, seeds, None if server is None else _hex_bytes(server, "'server_seed'"))
        except (KeyError, TypeError, ValueError) as error:
            raise InvalidMove(f"Not a well-formed 'fair' part of a record: {error}", "fair_malformed", error=str(error)) from None
        _check_player_seeds(proof.player_seeds)
        if proof.server_seed is not None:
            _check_server_seed(proof.server_seed)
        return proof

    def seeds(self) -> FairSeeds:
        """The seeds to re-deal from; the server seed must be revealed and match the commitment."""
        if self.server_seed is None:
            raise InvalidMove(
                "The server seed is published when the match is over: this deal cannot be checked yet", "fair_seed_unpublished"
            )
        if commitment(self.server_seed) != self.commitment:
            raise InvalidMove(
                f"The server seed does not match the commitment: SHA-256 gives {commitment(self.server_seed)}, "
                f"the commitment shown before the deal was {self.commitment}",
                "fair_commitment_mismatch",
                commitment=self.commitment,
                found=commitment(self.server_seed),
            )
        return FairSeeds(self.server_seed, self.player_seeds)


def _hex_bytes(value: Any, what: str) -> bytes:
    if not isinstance(value, str) or value != value.lower():
        raise ValueError(f"{what} must be lowercase hex digits")
    return bytes.fromhex(value)


def _check_server_seed(seed: bytes) -> None:
    if not isinstance(seed, bytes) or len(seed) != SERVER_SEED_BYTES:
        raise InvalidMove(f"A server seed is {SERVER_SEED_BYTES} bytes", "fair_server_seed", bytes=SERVER_SEED_BYTES)


def _check_player_seeds(seeds: Sequence[bytes]) -> None:
    if not 2 <= len(seeds) <= 4:
        raise InvalidMove(
            f"A fair deal has one player seed per seat (2-4), not {len(seeds)}", "fair_seed_count", count=len(seeds)
        )
    for seat, seed in enumerate(seeds):
        if not isinstance(seed, bytes) or len(seed) not in (0, PLAYER_SEED_BYTES):
            raise InvalidMove(
                f"Seat {seat}'s seed must be {PLAYER_SEED_BYTES} bytes or empty", "fair_player_seed", seat=seat, bytes=PLAYER_SEED_BYTES
            )
