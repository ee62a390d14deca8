"""The engine's messages in the player's language (apps/tables/engine_text.py, SPEC 12): every message the
engine can give carries a code, every code has a sentence of the site's, and the sentence is the
player's language while the engine's own text stays English for the command line."""

from __future__ import annotations

import ast
import random
import re
from collections import defaultdict
from pathlib import Path

import pytest
from django.utils import translation

from apps.engine.errors import EngineError, IllegalMove, InvalidMove
from apps.engine.fair import FairProof
from apps.engine.game import get_rules
from apps.tables.engine_text import MESSAGES, engine_text, tile_names

ENGINE = Path(__file__).resolve().parents[2] / "apps" / "engine"
RAISES = {"IllegalMove", "InvalidMove", "EngineError", "Phrase"}


def engine_calls() -> list[tuple[str, ast.Call]]:
    calls = []
    for path in sorted(ENGINE.rglob("*.py")):
        if path.name == "errors.py":  # where the classes are made, not where messages are given
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in RAISES | {"MeldReader"}:
                calls.append((f"{path.relative_to(ENGINE)}:{node.lineno}", node))
    return calls


def codes_the_engine_can_give() -> dict[str, list[set[str]]]:
    """code -> the parameter names of each place that gives it (a meld reader's: the tiles and the rule)."""
    codes: dict[str, list[set[str]]] = defaultdict(list)
    for _where, call in engine_calls():
        if call.func.id == "MeldReader":  # type: ignore[attr-defined]
            codes[call.args[2].value].append({"tiles", "rule"})  # type: ignore[attr-defined]
        elif len(call.args) >= 2 and isinstance(call.args[1], ast.Constant):
            given = {keyword.arg for keyword in call.keywords if keyword.arg}
            if call.func.id == "Phrase":  # type: ignore[attr-defined]
                given.add("rule")  # a phrase may be a meld reader's context, which adds the broken rule
            codes[call.args[1].value].append(given)
    return codes


def test_every_message_the_engine_gives_carries_a_code():
    uncoded = []
    for where, call in engine_calls():
        if call.func.id == "MeldReader":  # type: ignore[attr-defined]
            ok = len(call.args) == 3 and isinstance(call.args[2], ast.Constant)
        else:
            code = call.args[1] if len(call.args) >= 2 else None
            # A constant, or the code of a phrase handed on (`problem.message_code`).
            ok = isinstance(code, ast.Constant) and isinstance(code.value, str) or (
                isinstance(code, ast.Attribute) and code.attr.endswith("message_code")
            )
        if not ok:
            uncoded.append(where)
    assert not uncoded, f"an engine message without a code (SPEC 12): {uncoded}"
    assert len(codes_the_engine_can_give()) > 100


def test_every_code_the_engine_can_give_has_a_sentence_and_every_sentence_a_code():
    codes = codes_the_engine_can_give()
    assert sorted(set(codes) - set(MESSAGES)) == []
    assert sorted(set(MESSAGES) - set(codes)) == []  # no sentence left for a message the engine dropped


def test_every_sentence_uses_only_values_every_place_giving_its_code_passes():
    for code, places in codes_the_engine_can_give().items():
        wanted = set(re.findall(r"%\((\w+)\)s", str(MESSAGES[code])))
        for given in places:
            assert wanted <= given, (code, wanted - given)


def test_every_sentence_is_translated_into_romanian():
    with translation.override("en"):
        english = {code: str(text) for code, text in MESSAGES.items()}
    with translation.override("ro"):
        untranslated = [code for code, text in MESSAGES.items() if str(text) == english[code]]
    assert untranslated == []


def refused(game: str, move: str, seat_moves: int = 0) -> EngineError:
    rules = get_rules(game)
    state = rules.new_game(2, random.Random(7), 0)
    with pytest.raises(EngineError) as caught:
        rules.apply(state, rules.to_move(state), rules.parse_move(move))
    return caught.value


def test_a_refused_move_is_told_in_romanian_and_stays_english_for_the_command_line():
    error = refused("tile-rummy", "lay r1 k1 k1")  # the starter's first turn: no draw, and this is no meld
    assert isinstance(error, IllegalMove)
    assert str(error) == "'r1 k1 k1' is not a meld: a set needs tiles of different colours"
    with translation.override("ro"):
        assert engine_text(error) == "Piesele 1 roșu, 1 negru, 1 negru nu fac o formație: o terță are piese de culori diferite."
    with translation.override("en"):
        assert engine_text(error) == "red 1, black 1, black 1 are not a meld: a set needs tiles of different colours."


def test_a_move_out_of_turn_and_a_move_that_does_not_read_are_told_in_romanian():
    rules = get_rules("tile-rummy")
    state = rules.new_game(2, random.Random(7), 0)
    with pytest.raises(IllegalMove) as out_of_turn:
        rules.apply(state, 1, rules.parse_move("draw"))
    with pytest.raises(InvalidMove) as unreadable:
        rules.parse_move("discard q9")
    with translation.override("ro"):
        assert engine_text(out_of_turn.value) == "Nu e rândul tău."
        assert engine_text(unreadable.value).startswith("q9 nu e o piesă: scrie litera culorii")


def test_the_rearrange_games_refusals_are_told_in_romanian():
    error = refused("tile-rummy-rearrange", "play r1 r2")
    with translation.override("ro"):
        assert engine_text(error) == "Piesele 1 roșu, 2 roșu nu sunt o formație: o formație are cel puțin 3 piese."


def test_an_error_the_site_wrote_itself_is_said_as_it_is():
    assert engine_text(InvalidMove("Spus de site.")) == "Spus de site."
    assert engine_text(ValueError("x")) == "x"


def test_tiles_are_named_as_the_table_names_them():
    with translation.override("ro"):
        assert tile_names("r5 J | k13") == "5 roșu, joker; 13 negru"
        assert tile_names("not tiles") == "not tiles"
    with translation.override("en"):
        assert tile_names("y1 b2") == "yellow 1, blue 2"


def test_a_meld_or_table_naming_more_copies_than_the_game_has_is_refused_in_romanian():
    # Both games: three jokers in one meld (there are two), and a whole table with three red 5s.
    with translation.override("ro"):
        assert engine_text(refused("tile-rummy", "lay r5 r6 J J J")) == (
            "Piesele 5 roșu, 6 roșu, joker, joker, joker nu fac o formație: în joc sunt doar doi jokeri, nu 3."
        )
        assert engine_text(refused("tile-rummy-rearrange", "play r5 J J J")) == (
            "Piesele 5 roșu, joker, joker, joker nu sunt o formație: în joc sunt doar doi jokeri, nu 3."
        )
        assert engine_text(refused("tile-rummy-rearrange", "play r5 r6 r7 | r5 r6 r7 | r5 r6 r7")) == (
            "Masa aceasta nu e posibilă: fiecare piesă e în joc doar de două ori, nu 3 × 5 roșu."
        )


def test_a_fair_deal_that_does_not_check_is_told_in_romanian():
    proof = FairProof("0" * 64, 1, (b"\x01" * 16, b""), b"\x02" * 32)
    with pytest.raises(InvalidMove) as caught:
        proof.seeds()
    assert str(caught.value).startswith("The server seed does not match the commitment")
    with translation.override("ro"):
        assert engine_text(caught.value) == (
            f"Sămânța serverului nu se potrivește cu amprenta arătată înainte de împărțire ({'0' * 64})."
        )
