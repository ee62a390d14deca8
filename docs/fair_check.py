#!/usr/bin/env python3
"""An independent checker of Tile Rummy's provably fair deals, written from docs/fair-deals.md alone.

    python3 docs/fair_check.py RECORD.json [RECORD.json ...]

For each game record (downloaded from a finished match's page) it checks that the server seed matches
the commitment shown before the deal, re-deals the game from the seeds and its number, and compares the
result with the record's deal. It prints one line per record and exits with status 0 only if every
record verifies. It uses the Python standard library only and imports nothing of the site: copy it
anywhere, or rewrite it in another language from the page.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sys

SCHEME = "tile-rummy-fair/1"
HOUSE, REARRANGE = "tile-rummy", "tile-rummy-rearrange"


class Stream:
    """HMAC-SHA256(server seed, message || u64be counter), counter = 0, 1, 2, ... read front to back."""

    def __init__(self, server_seed: bytes, player_seeds: list[bytes], game_no: int) -> None:
        message = bytearray(SCHEME.encode("ascii") + b"\x00")
        message.append(len(player_seeds))
        for seed in player_seeds:
            message.append(len(seed))
            message += seed
        message += game_no.to_bytes(4, "big")
        self.key, self.message, self.counter, self.pending = server_seed, bytes(message), 0, b""

    def read(self, count: int) -> bytes:
        while len(self.pending) < count:
            block = self.message + self.counter.to_bytes(8, "big")
            self.pending += hmac.new(self.key, block, hashlib.sha256).digest()
            self.counter += 1
        out, self.pending = self.pending[:count], self.pending[count:]
        return out

    def below(self, n: int) -> int:
        limit = 2**32 - (2**32 % n)  # the largest multiple of n that fits: values from it on are rejected
        while True:
            value = int.from_bytes(self.read(4), "big")
            if value < limit:
                return value % n

    def shuffled_tiles(self) -> list[int]:
        tiles = list(range(106))
        for i in range(105, 0, -1):
            j = self.below(i + 1)
            tiles[i], tiles[j] = tiles[j], tiles[i]
        return tiles


def number_of(tile: int) -> int | None:
    """The number on a physical tile (None for the jokers 104 and 105)."""
    return None if tile >= 104 else (tile % 26) // 2 + 1


def ceremony(stream: Stream, playing: list[int]) -> tuple[list[list[list[int]]], int]:
    """The Rearrange game's draw for the start: the rounds of [seat, tile] draws and the starter."""
    tiles, at, rounds, contenders = stream.shuffled_tiles(), 0, [], list(playing)
    while True:
        draws, drawn = [], {}
        for seat in contenders:
            while seat not in drawn:
                if at == len(tiles):
                    tiles, at = stream.shuffled_tiles(), 0
                tile, at = tiles[at], at + 1
                draws.append([seat, tile])
                if number_of(tile) is not None:
                    drawn[seat] = number_of(tile)
        rounds.append(draws)
        highest = max(drawn.values())
        contenders = [seat for seat in contenders if drawn[seat] == highest]
        if len(contenders) == 1:
            return rounds, contenders[0]


def deal(game: str, server_seed: bytes, player_seeds: list[bytes], game_no: int, absent: list[int]) -> dict:
    """The deal of game `game_no`, as a record writes it."""
    seats = len(player_seeds)
    playing = [seat for seat in range(seats) if seat not in absent]
    stream = Stream(server_seed, player_seeds, game_no)
    rounds: list[list[list[int]]] = []
    if game_no == 1:
        if game == HOUSE:
            starter = playing[stream.below(len(playing))]
        else:
            rounds, starter = ceremony(stream, playing)
    else:
        first = deal(game, server_seed, player_seeds, 1, [])["starter"]
        starter = (first + game_no - 1) % seats
        while starter in absent:
            starter = (starter + 1) % seats
    tiles = stream.shuffled_tiles()
    racks, at = [], 0
    for seat in range(seats):
        size = 0 if seat in absent else 15 if game == HOUSE and seat == starter else 14
        racks.append(sorted(tiles[at : at + size]))
        at += size
    result = {"seats": seats, "starter": starter, "racks": racks, "absent": sorted(absent)}
    if game == HOUSE:
        result.update(indicator=tiles[at], pile=tiles[at + 1 :])
    else:
        result.update(ceremony=rounds, pool=tiles[at:])
    return result


def check(record: dict) -> str:
    """'' if the record's deal verifies, else what is wrong."""
    try:
        return check_fields(record)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
        return f"the record is not well-formed ({error!r})"


def check_fields(record: dict) -> str:
    fair = record.get("fair")
    if not isinstance(fair, dict) or fair.get("scheme") != SCHEME:
        return "the record has no fair-deal part"
    if fair.get("server_seed") is None:
        return "the server seed is not published yet (it is, once the match is over)"
    server_seed = bytes.fromhex(fair["server_seed"])
    if len(server_seed) != 32 or hashlib.sha256(server_seed).hexdigest() != fair["commitment"]:
        return "the server seed does not match the commitment"
    player_seeds = [bytes.fromhex(seed) for seed in fair["player_seeds"]]
    recorded = record["deal"]
    if record["game"] not in (HOUSE, REARRANGE) or recorded["seats"] != len(player_seeds):
        return "the record's game or seat count is not one this checker knows"
    absent = sorted(set(recorded.get("absent", [])))
    if not 1 <= fair["game_no"] <= 5 or (absent and fair["game_no"] == 1) or len(player_seeds) - len(absent) < 2:
        return "the record's game number or absent seats cannot be"
    expected = deal(record["game"], server_seed, player_seeds, fair["game_no"], absent)
    actual = {**recorded, "racks": [sorted(rack) for rack in recorded["racks"]]}
    actual.setdefault("absent", [])
    actual.setdefault("ceremony", [])
    differing = [key for key in expected if expected[key] != actual.get(key)]
    return f"the deal differs from the seeds' deal in: {', '.join(differing)}" if differing else ""


def main(paths: list[str]) -> int:
    if not paths:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    failures = 0
    for path in paths:
        with open(path, encoding="utf-8") as file:
            record = json.load(file)
        problem = check(record)
        failures += bool(problem)
        game_no = (record.get("fair") or {}).get("game_no")
        print(f"{path}: game {game_no}: " + (f"NOT VERIFIED: {problem}" if problem else "verified"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
