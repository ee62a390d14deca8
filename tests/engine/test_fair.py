"""Provably fair deals (SPEC 11, docs/fair-deals.md): the commitment, the HMAC-SHA256 stream, the unbiased
draw, the shuffle, both games' deals from the seeds, and `replay` checking a record's deal; the page's
test vectors and its independent checker (docs/fair_check.py) against the engine."""

from __future__ import annotations

import hashlib
import hmac
import importlib.util
import json
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from apps.engine.bots import get_bot
from apps.engine.cli import main as cli_main
from apps.engine.errors import InvalidMove
from apps.engine.fair import (
    DRAW_RANGE,
    FairProof,
    FairSeeds,
    FairStream,
    commitment,
    draw_limit,
    stream_message,
)
from apps.engine.game import get_rules
from apps.engine.match import fair_deal, start_match
from apps.engine.records import GameRecord, replay, start_record
from apps.engine.tiles import tile_of

ROOT = Path(__file__).resolve().parents[2]
HOUSE, REARRANGE = "tile-rummy", "tile-rummy-rearrange"
SERVER = bytes(range(32))
PLAYERS = (bytes(range(0xA0, 0xB0)), b"", bytes(range(0xF0, 0x100)))


def load_checker() -> ModuleType:
    """docs/fair_check.py, loaded from its file: it is not part of the site's packages."""
    spec = importlib.util.spec_from_file_location("fair_check", ROOT / "docs" / "fair_check.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CHECKER = load_checker()


def doc_vectors() -> list[dict[str, Any]]:
    text = (ROOT / "docs" / "fair-deals.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- test vectors: begin -->\n```json\n(.*?)```\n<!-- test vectors: end -->", text, re.S)
    assert found is not None, "docs/fair-deals.md has lost its test vectors block"
    vectors: list[dict[str, Any]] = json.loads(found.group(1))
    return vectors


def fair_record(game: str, seeds: FairSeeds, game_no: int, absent: tuple[int, ...] = (), *, revealed: bool = True) -> GameRecord:
    state = fair_deal(game, seeds, game_no, absent)
    proof = FairProof(seeds.commitment, game_no, seeds.player_seeds, seeds.server_seed if revealed else None)
    return start_record(game, state, info={"game_no": game_no}, fair=proof)


def play_out(game: str, state: Any, record: GameRecord | None = None, seed: int = 5) -> tuple[Any, GameRecord | None]:
    """The game played to its end by the Easy bot (each move added to `record`, if given)."""
    rules, bot, rng = get_rules(game), get_bot(game, "easy"), random.Random(seed)
    for ms in range(0, 10**7, 1000):
        if rules.is_over(state):
            return state, record
        seat = rules.to_move(state)
        assert seat is not None
        move = bot.next_move(rules.view_for(state, seat), rng)
        state = rules.apply(state, seat, move)
        record = None if record is None else record.add(seat, move, ms)
    raise AssertionError("the game did not end")


def played_fair_record(game: str, seeds: FairSeeds) -> GameRecord:
    """A whole game dealt from `seeds` and played by the Easy bot, with its result."""
    state, record = play_out(game, fair_deal(game, seeds, 1), fair_record(game, seeds, 1))
    result = get_rules(game).result(state)
    assert result is not None and record is not None
    return record.finish(result)


class CannedStream(FairStream):
    """A stream whose 4-byte reads are given u32 values (to reach the sampler's edges)."""

    def __init__(self, values: list[int]) -> None:
        super().__init__(SERVER, PLAYERS, 1)
        self.values = list(values)

    def read(self, count: int) -> bytes:
        assert count == 4
        return self.values.pop(0).to_bytes(4, "big")


# --- the commitment and the stream ---------------------------------------------------------------------------


def test_the_commitment_is_the_sha256_of_the_server_seed_in_lowercase_hex() -> None:
    assert commitment(SERVER) == hashlib.sha256(SERVER).hexdigest()
    assert commitment(SERVER) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"


def test_the_message_is_the_tag_the_seat_count_each_seed_after_its_length_and_the_game_number() -> None:
    message = stream_message(PLAYERS, 2)
    assert message == (
        b"tile-rummy-fair/1\x00" + b"\x03" + b"\x10" + PLAYERS[0] + b"\x00" + b"\x10" + PLAYERS[2] + b"\x00\x00\x00\x02"
    )


def test_an_empty_seed_and_a_missing_one_cannot_be_confused_with_a_shifted_seed() -> None:
    """Lengths go before seeds: moving bytes from one seat's seed to the next changes the message."""
    assert stream_message((b"", bytes(16)), 1) != stream_message((bytes(16), b""), 1)


def test_the_stream_is_hmac_sha256_of_the_message_and_a_big_endian_counter_block_after_block() -> None:
    message = stream_message(PLAYERS, 1)
    expected = b"".join(
        hmac.new(SERVER, message + counter.to_bytes(8, "big"), hashlib.sha256).digest() for counter in range(3)
    )
    assert FairStream(SERVER, PLAYERS, 1).read(96) == expected


def test_reads_of_any_sizes_cut_the_same_stream() -> None:
    whole = FairStream(SERVER, PLAYERS, 1).read(100)
    stream = FairStream(SERVER, PLAYERS, 1)
    pieces = b"".join(stream.read(size) for size in (1, 31, 0, 2, 33, 4, 29))
    assert pieces == whole and stream.bytes_read == 100


def test_every_game_has_its_own_stream() -> None:
    assert FairStream(SERVER, PLAYERS, 1).read(32) != FairStream(SERVER, PLAYERS, 2).read(32)


def test_seeds_of_the_wrong_size_are_refused() -> None:
    with pytest.raises(InvalidMove, match="server seed is 32 bytes"):
        FairSeeds(bytes(31), PLAYERS)
    with pytest.raises(InvalidMove, match="Seat 1's seed must be 16 bytes or empty"):
        FairSeeds(SERVER, (b"", bytes(15)))
    with pytest.raises(InvalidMove, match="one player seed per seat"):
        FairSeeds(SERVER, (b"",))


def test_the_seeds_never_show_the_server_seed_in_their_repr() -> None:
    text = repr(FairSeeds(SERVER, PLAYERS))
    assert SERVER.hex() not in text and "630dcd29" in text


# --- the unbiased draw and the shuffle -----------------------------------------------------------------------


@given(st.integers(min_value=1, max_value=DRAW_RANGE))
def test_the_draw_limit_is_the_largest_multiple_of_the_bound_within_two_to_the_32(n: int) -> None:
    """So every result below n comes from exactly limit / n accepted values: no modulo bias."""
    limit = draw_limit(n)
    assert limit % n == 0 and DRAW_RANGE - n < limit <= DRAW_RANGE


def test_a_draw_below_106_rejects_the_42_values_past_the_largest_multiple() -> None:
    limit = draw_limit(106)
    assert limit == 106 * (2**32 // 106) == 4294967254 == 2**32 - 42
    stream = CannedStream([limit, 2**32 - 1, limit + 17, limit - 1, 7])
    assert stream.below(106) == (limit - 1) % 106 == 105
    assert stream.values == [7]  # three rejected, one accepted, nothing more read


def test_a_draw_below_3_rejects_only_the_last_value_and_a_power_of_two_rejects_none() -> None:
    stream = CannedStream([2**32 - 1, 2**32 - 2, 2**32 - 1])
    assert stream.below(3) == (2**32 - 2) % 3
    assert stream.below(64) == 63  # the same last value, accepted for a power of two
    assert stream.values == []


def test_a_draw_refuses_bounds_out_of_range() -> None:
    for n in (0, -1, DRAW_RANGE + 1):
        with pytest.raises(InvalidMove):
            FairStream(SERVER, PLAYERS, 1).below(n)


def test_the_shuffle_is_fisher_yates_from_the_last_position_down() -> None:
    shuffled = list(range(106))
    FairStream(SERVER, PLAYERS, 1).shuffle(shuffled)
    draws = FairStream(SERVER, PLAYERS, 1)
    expected = list(range(106))
    for i in range(105, 0, -1):
        j = draws.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert shuffled == expected and sorted(shuffled) == list(range(106))


# --- the deals -----------------------------------------------------------------------------------------------


def test_a_match_deals_every_game_from_that_games_own_stream() -> None:
    """`start_match` and `deal_next` with the seeds deal what `fair_deal` says, game after game; a seat
    that left gets nothing and the start skips it."""
    seeds = FairSeeds(SERVER, PLAYERS)
    for game in (HOUSE, REARRANGE):
        rules = get_rules(game)
        match, state = start_match(game, 3, seeds, length=3)
        assert state == fair_deal(game, seeds, 1)
        match = match.finish_game(play_out(game, rules.leave(state, 1))[0])
        following = match.deal_next(seeds)
        assert following == fair_deal(game, seeds, 2, absent=(1,))
        assert following.racks[1] == () and following.starter != 1


def test_the_house_games_first_draw_picks_the_starter_then_one_shuffle_is_cut_seat_by_seat() -> None:
    seeds = FairSeeds(SERVER, PLAYERS)
    stream = seeds.stream(1)
    starter = stream.below(3)
    tiles = list(range(106))
    stream.shuffle(tiles)
    state = fair_deal(HOUSE, seeds, 1)
    sizes = [15 if seat == starter else 14 for seat in range(3)]
    cuts = [sum(sizes[:seat]) for seat in range(4)]
    assert state.starter == starter
    assert [tuple(sorted(tiles[cuts[seat] : cuts[seat + 1]])) for seat in range(3)] == list(state.racks)
    assert state.indicator == tiles[43] and list(state.pile) == tiles[44:]


def test_the_rearrange_games_ceremony_draws_from_one_shuffle_and_the_deal_from_a_second() -> None:
    vector = doc_vectors()[1]  # a ceremony with a joker and a tie
    seeds = FairSeeds(bytes.fromhex(vector["server_seed"]), tuple(bytes.fromhex(seed) for seed in vector["player_seeds"]))
    stream = seeds.stream(1)
    ceremony_tiles = list(range(106))
    stream.shuffle(ceremony_tiles)
    deal_tiles = list(range(106))
    stream.shuffle(deal_tiles)
    state = fair_deal(REARRANGE, seeds, 1)
    drawn = [tile for draws in state.ceremony for _, tile in draws]
    assert drawn == ceremony_tiles[: len(drawn)]
    assert any(tile_of(tile).is_joker for tile in drawn) and len(state.ceremony) == 2
    assert [tuple(sorted(deal_tiles[14 * seat : 14 * seat + 14])) for seat in range(4)] == list(state.racks)
    assert list(state.pool) == deal_tiles[56:]


def test_a_later_games_starter_rotates_clockwise_from_the_first_and_skips_seats_that_left() -> None:
    seeds = FairSeeds(SERVER, PLAYERS)
    for game in (HOUSE, REARRANGE):
        first = fair_deal(game, seeds, 1).starter
        assert fair_deal(game, seeds, 2).starter == (first + 1) % 3
        expected = (first + 2) % 3 if (first + 2) % 3 != 1 else 2
        assert fair_deal(game, seeds, 3, absent=(1,)).starter == expected
    assert fair_deal(REARRANGE, seeds, 2).ceremony == ()  # no draw for the start in a later game


def test_a_first_game_has_no_absent_seats() -> None:
    with pytest.raises(InvalidMove, match="Nobody has left"):
        fair_deal(HOUSE, FairSeeds(SERVER, PLAYERS), 1, absent=(1,))


# --- the page's test vectors and its checker -----------------------------------------------------------------


@pytest.mark.parametrize("index", [0, 1])
def test_the_engine_gives_the_test_vectors_of_the_page(index: int) -> None:
    vector = doc_vectors()[index]
    server = bytes.fromhex(vector["server_seed"])
    players = tuple(bytes.fromhex(seed) for seed in vector["player_seeds"])
    seeds = FairSeeds(server, players)
    assert seeds.commitment == vector["commitment"]
    assert stream_message(players, 1).hex() == vector["message_game_1"]
    assert seeds.stream(1).read(64).hex() == vector["stream_game_1_first_64_bytes"]
    draws = seeds.stream(1)
    assert [draws.below(106) for _ in range(5)] == vector["stream_game_1_first_draws_below_106"]
    assert vector["deals"]
    for entry in vector["deals"]:
        absent = tuple(entry["deal"]["absent"])
        rules = get_rules(entry["game"])
        assert rules.deal_of(fair_deal(entry["game"], seeds, entry["game_no"], absent)) == entry["deal"]


@pytest.mark.parametrize("index", [0, 1])
def test_the_independent_checker_gives_the_test_vectors_of_the_page(index: int) -> None:
    vector = doc_vectors()[index]
    server = bytes.fromhex(vector["server_seed"])
    players = [bytes.fromhex(seed) for seed in vector["player_seeds"]]
    stream = CHECKER.Stream(server, players, 1)
    assert stream.read(64).hex() == vector["stream_game_1_first_64_bytes"]
    for entry in vector["deals"]:
        assert CHECKER.deal(entry["game"], server, players, entry["game_no"], entry["deal"]["absent"]) == entry["deal"]


def test_the_page_shows_the_first_vectors_racks_in_faces() -> None:
    text = (ROOT / "docs" / "fair-deals.md").read_text(encoding="utf-8")
    deal = doc_vectors()[0]["deals"][0]["deal"]
    for seat, rack in enumerate(deal["racks"]):
        assert f"seat {seat}: {' '.join(str(tile_of(tile)) for tile in rack)}\n" in text


def test_the_checker_imports_nothing_of_the_site() -> None:
    text = (ROOT / "docs" / "fair_check.py").read_text(encoding="utf-8")
    imports = re.findall(r"^\s*(?:from|import)\s+([\w.]+)", text, re.M)
    assert imports and all(name in {"__future__", "hashlib", "hmac", "json", "sys"} for name in imports), imports


@pytest.mark.parametrize("game", [HOUSE, REARRANGE])
def test_the_checker_script_verifies_a_whole_played_record_and_refuses_a_tampered_one(game: str, tmp_path: Path) -> None:
    record = played_fair_record(game, FairSeeds(SERVER, PLAYERS)).to_dict()
    honest = tmp_path / "honest.json"
    honest.write_text(json.dumps(record))
    racks = record["deal"]["racks"]
    racks[0][0], racks[1][0] = racks[1][0], racks[0][0]  # a valid deal, but not the seeds' deal
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(record))
    ran = subprocess.run([sys.executable, str(ROOT / "docs" / "fair_check.py"), str(honest)], capture_output=True, text=True, check=False)
    assert ran.returncode == 0 and ran.stdout.strip().endswith("game 1: verified"), ran.stdout + ran.stderr
    ran = subprocess.run([sys.executable, str(ROOT / "docs" / "fair_check.py"), str(tampered)], capture_output=True, text=True, check=False)
    assert ran.returncode == 1 and "NOT VERIFIED" in ran.stdout and "racks" in ran.stdout


# --- replay --------------------------------------------------------------------------------------------------


player_seed = st.one_of(st.just(b""), st.binary(min_size=16, max_size=16))


@st.composite
def fair_games(draw: st.DrawFn) -> tuple[str, FairSeeds, int, tuple[int, ...]]:
    seats = draw(st.integers(min_value=2, max_value=4))
    seeds = FairSeeds(draw(st.binary(min_size=32, max_size=32)), tuple(draw(player_seed) for _ in range(seats)))
    game_no = draw(st.integers(min_value=1, max_value=5))
    absent: tuple[int, ...] = ()
    if game_no > 1:
        absent = tuple(sorted(draw(st.sets(st.integers(min_value=0, max_value=seats - 1), max_size=seats - 2))))
    return draw(st.sampled_from([HOUSE, REARRANGE])), seeds, game_no, absent


def int_paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Where the numbers of a deal are (every tile id, seat, count)."""
    if isinstance(value, dict):
        for key, child in value.items():
            yield from int_paths(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from int_paths(child, (*path, index))
    elif isinstance(value, int) and not isinstance(value, bool):
        yield path


def flipped(data: Any, path: tuple[Any, ...], bit: int) -> Any:
    copy = json.loads(json.dumps(data))
    holder = copy
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] ^= 1 << bit
    return copy


def flip_bit(seed: bytes, bit: int) -> bytes:
    changed = bytearray(seed)
    changed[bit // 8] ^= 1 << (bit % 8)
    return bytes(changed)


@settings(max_examples=60, deadline=None)
@given(fair_games())
def test_a_fair_record_replays_verified_and_the_checker_agrees(game: tuple[str, FairSeeds, int, tuple[int, ...]]) -> None:
    slug, seeds, game_no, absent = game
    record = GameRecord.from_dict(json.loads(json.dumps(fair_record(slug, seeds, game_no, absent).to_dict())))
    replayed = replay(record)
    assert replayed.fair is not None and replayed.fair.verified and replayed.fair.commitment == seeds.commitment
    assert record.fair is not None and record.fair.seeds().commitment == record.fair.commitment
    assert CHECKER.check(record.to_dict()) == ""


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fair_games(), st.data())
def test_one_flipped_bit_in_the_server_seed_a_player_seed_or_the_deal_makes_replay_fail(
    game: tuple[str, FairSeeds, int, tuple[int, ...]], data: st.DataObject
) -> None:
    slug, seeds, game_no, absent = game
    record = fair_record(slug, seeds, game_no, absent).to_dict()
    where = data.draw(st.sampled_from(["server seed", "player seed", "deal"]))
    if where == "server seed":
        bit = data.draw(st.integers(min_value=0, max_value=255))
        record["fair"]["server_seed"] = flip_bit(seeds.server_seed, bit).hex()
        problem = "does not match the commitment"
    elif where == "player seed":
        sent = [seat for seat, seed in enumerate(seeds.player_seeds) if seed]
        assume(sent)
        seat = data.draw(st.sampled_from(sent))
        bit = data.draw(st.integers(min_value=0, max_value=127))
        record["fair"]["player_seeds"][seat] = flip_bit(seeds.player_seeds[seat], bit).hex()
        problem = "not the fair deal"
    else:
        path = data.draw(st.sampled_from(list(int_paths(record["deal"]))))
        bit = data.draw(st.integers(min_value=0, max_value=6))
        record["deal"] = flipped(record["deal"], path, bit)
        problem = None  # a broken deal (a tile twice, a wrong rack size) or one that is not the fair deal
    with pytest.raises(InvalidMove, match=problem):
        replay(GameRecord.from_dict(record))
    assert CHECKER.check(record) != ""


@settings(max_examples=30, deadline=None)
@given(fair_games(), st.data())
def test_a_valid_deal_that_is_not_the_seeds_deal_is_refused_by_replay_and_the_checker(
    game: tuple[str, FairSeeds, int, tuple[int, ...]], data: st.DataObject
) -> None:
    """Two tiles swapped between two racks (or a rack and the pile): every tile still once, the sizes
    right, so only the fair check can tell."""
    slug, seeds, game_no, absent = game
    record = fair_record(slug, seeds, game_no, absent).to_dict()
    deal = record["deal"]
    playing = [seat for seat in range(seeds.seats) if seat not in absent]
    seat = data.draw(st.sampled_from(playing))
    rest = "pile" if slug == HOUSE else "pool"
    at, other = data.draw(st.integers(0, 13)), data.draw(st.integers(0, 40))
    deal["racks"][seat][at], deal[rest][other] = deal[rest][other], deal["racks"][seat][at]
    with pytest.raises(InvalidMove, match="not the fair deal"):
        replay(GameRecord.from_dict(record))
    assert "racks" in CHECKER.check(record)


def test_a_changed_game_number_is_another_games_deal() -> None:
    record = fair_record(HOUSE, FairSeeds(SERVER, PLAYERS), 1).to_dict()
    record["fair"]["game_no"] = 2
    with pytest.raises(InvalidMove, match="not the fair deal of game 2"):
        replay(GameRecord.from_dict(record))


def test_a_record_before_the_match_is_over_cannot_be_checked_yet_and_says_so() -> None:
    record = fair_record(REARRANGE, FairSeeds(SERVER, PLAYERS), 1, revealed=False)
    assert record.to_dict()["fair"]["server_seed"] is None
    replayed = replay(GameRecord.from_dict(record.to_dict()))
    assert replayed.fair is not None and not replayed.fair.verified
    assert "published when the match is over" in replayed.fair.reason


def test_a_malformed_fair_part_is_refused_with_a_clear_message() -> None:
    record = fair_record(HOUSE, FairSeeds(SERVER, PLAYERS), 1).to_dict()
    changes: list[tuple[dict[str, Any], str]] = [
        ({"scheme": "other"}, "'scheme'"),
        ({"commitment": "ab"}, "64 lowercase hex"),
        ({"server_seed": SERVER.hex().upper()}, "lowercase hex"),
        ({"player_seeds": ["00" * 15, "", ""]}, "Seat 0's seed"),
        ({"game_no": "1"}, "'game_no'"),
    ]
    for change, message in changes:
        with pytest.raises(InvalidMove, match=message):
            GameRecord.from_dict({**record, "fair": {**record["fair"], **change}})


def test_the_cli_replay_prints_that_a_fair_record_verified(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(played_fair_record(HOUSE, FairSeeds(SERVER, PLAYERS)).to_dict()))
    assert cli_main(["replay", str(path)]) == 0
    output = json.loads(capsys.readouterr().out)
    assert output["over"] and output["fair"] == {"verified": True, "commitment": commitment(SERVER)}


def test_the_cli_replay_fails_a_record_whose_server_seed_was_changed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = played_fair_record(REARRANGE, FairSeeds(SERVER, PLAYERS)).to_dict()
    record["fair"]["server_seed"] = flip_bit(SERVER, 77).hex()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    assert cli_main(["replay", str(path)]) == 1
    assert "does not match the commitment" in capsys.readouterr().err


# --- records of matches played before fair deals -----------------------------------------------------------


@pytest.mark.parametrize("name", ["tile-rummy-before-fair.json", "tile-rummy-rearrange-before-fair.json"])
def test_records_of_matches_played_before_fair_deals_still_replay_exactly(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Records written by the engine before this change (tests/engine/records/: no `fair` part)."""
    path = ROOT / "tests" / "engine" / "records" / name
    data = json.loads(path.read_text())
    assert "fair" not in data and data["moves"]
    record = GameRecord.from_dict(data)
    replayed = replay(record)
    assert replayed.fair is None and replayed.result is not None
    assert list(replayed.result.scores) == data["result"]["scores"]
    assert record.to_dict() == data  # read and written back unchanged
    assert cli_main(["replay", str(path)]) == 0
    output = json.loads(capsys.readouterr().out)
    assert output["fair"] is None and output["scores"] == data["result"]["scores"]


def test_a_seeded_generator_still_deals_as_it_did_for_simulations_and_tests() -> None:
    """The old records' deals come from random.Random: dealing the same seed again gives the same deal."""
    data = json.loads((ROOT / "tests" / "engine" / "records" / "tile-rummy-before-fair.json").read_text())
    rules = get_rules(HOUSE)
    assert rules.deal_of(rules.new_game(3, random.Random(151))) == data["deal"]
