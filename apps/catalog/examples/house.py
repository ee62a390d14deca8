"""Worked examples of the house game's rules page (`tile-rummy`), computed by the engine.

Melds go through `get_rules("tile-rummy").meld_check`, openings through `house.helpers.opening_of`,
jokers through `house.helpers.jokers_on_table`, and the whole scoring example is a finished position
scored by `house.scoring.score`, the function the tables use.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from apps.catalog.examples.common import (
    RUN,
    SET,
    Figure,
    MeldClaim,
    MeldExample,
    OpeningExample,
    ScoringExample,
    TileView,
    meld_examples,
    opening_examples,
    rack_rows,
    scoring_example,
    tile_views,
)
from apps.engine.house.helpers import jokers_on_table, opening_of
from apps.engine.house.melds import rack_penalty
from apps.engine.house.positions import position
from apps.engine.house.scoring import score
from apps.engine.house.state import HouseState, Phase, TableMeld
from apps.engine.tiles import JOKER_IDS, Tile, format_tiles, parse_tiles, twin_of

SLUG = "tile-rummy"

MELDS: list[tuple[str, MeldClaim, Promise]] = [
    ("r5 r6 r7", MeldClaim(True, RUN, 15), _("Three numbers in a row in one colour: a run. Each tile from 2 to 9 counts 5.")),
    ("r9 y9 k9", MeldClaim(True, SET, 15), _("One number in three different colours: a set.")),
    ("b1 b2 b3", MeldClaim(True, RUN, 15), _("A 1 may start a run. There it is a low tile and counts 5.")),
    ("k12 k13 k1", MeldClaim(True, RUN, 30), _("A 1 may also come after the 13. There it counts 10, like the 13 before it.")),
    ("y13 y1 y2", MeldClaim(False), _("A 1 can never sit inside a run: 13, 1, 2 is no run at all.")),
    ("r1 y1 b1 k1", MeldClaim(True, SET, 100), _("A set of 1s is the richest meld of the game: each 1 counts 25.")),
    ("r9 y9 J", MeldClaim(True, SET, 15), _("Two real tiles can carry one joker, which counts what it replaces (a 9 here).")),
    ("r5 J J", MeldClaim(False), _("One real tile cannot carry two jokers: a meld needs twice as many real tiles as jokers.")),
    ("r3 r4 J J r7 r8", MeldClaim(False), _("Enough real tiles this time, but two jokers may never sit side by side.")),
    ("y4 y4 b4", MeldClaim(False), _("A set takes each colour once: the two yellow 4s cannot go in the same set.")),
]

OPENINGS: list[tuple[str, int, bool, Promise]] = [
    ("r10 r11 r12 | b7 y7 k7", 45, True, _("A run of high tiles and a set of 7s: exactly 45, with a run. This opens.")),
    ("y12 y13 y1 | b4 b5 b6", 45, True, _("The 1 after the 13 counts 10, which lifts this pair of runs to 45.")),
    ("r9 J r11 r12 | k6 b6 y6", 50, True, _("The joker stands for the red 10 and counts 10.")),
    ("b2 b3 b4 b5 | r8 y8 k8", 35, False, _("Two good melds but only 35: ten points short, so these tiles stay on the rack.")),
    ("k1 r1 y1 | b13 k13 y13", 105, False, _("Over a hundred points, and still no opening: sets alone never open, a run is required.")),
]

JOKERS: list[tuple[str, str, Promise]] = [
    ("r4 J r6", "r5", _("In a run the joker's place says what it is: here the red 5, and only the red 5 takes it.")),
    ("k7 r7 y7 J", "b7", _("In a set of four the joker can only be the missing colour.")),
    ("y9 b9 J", "r9 k9", _("In a set of three you must lay both missing colours to take the joker; one of them alone is just laid off.")),
]

#: Names of the scoring example's three players (the example is a story, not real accounts).
PLAYERS = ("Ana", "Ben", "Cleo")
#: The example's claims: each player's total, then the same end as a double game, then Ana going out
#: by discarding a joker.
SCORING_TOTALS = [215, 35, -100]
DOUBLE_TOTALS = [430, -30, -200]
JOKER_OUT_TOTALS = [430, 35, -100]
#: What Cleo's rack would have cost had she opened (the text compares it with the -100).
UNOPENED_RACK_COST = 65

# Score lines by the engine's keys, in our words. "rack" and "unopened" share a row: a player has one or
# the other. A key missing here still shows, under the engine's own label.
ROW_OF = {"unopened": "rack"}
FACTOR_ROWS = frozenset({"joker_out", "double"})
ROW_LABELS: dict[str, Promise] = {
    "table": _("Tiles put on the table"),
    "jokers": _("Jokers played first (+50 each)"),
    "rack": _("Tiles left on the rack, or −100 if never opened"),
    "out": _("Went out (+100)"),
    "twin": _("Dealt the indicator's twin (+50)"),
    "joker_out": _("Went out by discarding a joker (×2)"),
    "double": _("Double game (×2)"),
}


@dataclass(frozen=True)
class JokerExample:
    notation: str
    caption: Promise
    claim: str
    meld: list[TileView]
    takes_with: list[TileView]
    computed: str

    @property
    def agrees(self) -> bool:
        return self.computed == self.claim


@dataclass(frozen=True)
class HouseExamples:
    melds: list[MeldExample]
    openings: list[OpeningExample]
    jokers: list[JokerExample]
    scoring: ScoringExample
    scoring_table: list[tuple[str, list[TileView]]]  # (player, a meld they laid) for the story
    scoring_racks: list[tuple[str, list[TileView]]]  # (player, what they still held at the end)
    unopened_rack_cost: Figure
    double: ScoringExample  # the same end with a 1 as the indicator
    joker_out: ScoringExample  # the same end, Ana's last discard a joker

    def all_examples(self) -> list[MeldExample | OpeningExample | JokerExample | ScoringExample | Figure]:
        return [
            *self.melds,
            *self.openings,
            *self.jokers,
            self.scoring,
            self.double,
            self.joker_out,
            self.unopened_rack_cost,
        ]


def opening_value(melds: list[list[Tile]]) -> tuple[int, bool]:
    """What a first lay-down is worth and whether it opens (45 with a run)."""
    check = opening_of(melds)
    return check.points, check.qualifies


def joker_examples() -> list[JokerExample]:
    examples = []
    for notation, claim, caption in JOKERS:
        state = position(["k2 k3"], melds=[(0, notation)])  # a table holding just this meld
        [take] = jokers_on_table(state)
        examples.append(
            JokerExample(notation, caption, claim, tile_views(parse_tiles(notation)), tile_views(take.tiles), format_tiles(take.tiles))
        )
    return examples


# The end of a three-player game. Ana went out, after laying a long red run (Ben laid off the red 9 on
# it), a set of 5s and a run with a joker she played first. Ben was dealt the indicator's twin (the other
# blue 6) and laid it in his run; he still holds a 1 and a 12. Cleo never opened.
FINAL_RACKS = ("", "k1 b12", "r3 y8 b8 J")
FINAL_MELDS = ((0, "r9 r10 r11 r12 r13"), (0, "b5 y5 k5"), (0, "k7 J k9"), (1, "b6 b7 b8"))
LAID_OFF = {(0, 0): 1}  # (meld, position) -> the seat that laid that tile off: Ben's red 9


def finished_game(indicator: str) -> HouseState:
    state = position(list(FINAL_RACKS), melds=FINAL_MELDS, indicator=indicator, opened=[0, 1], phase=Phase.OVER)
    melds = []
    for index, meld in enumerate(state.melds):
        placed = tuple(LAID_OFF.get((index, at), seat) for at, seat in enumerate(meld.placed_by))
        melds.append(TableMeld(meld.tiles, placed, meld.owner))
    joker_by: list[int | None] = [None, None]
    twin_seat = None
    twin = twin_of(state.indicator)
    for meld in melds:
        for tile, seat in zip(meld.tiles, meld.placed_by, strict=True):
            if tile in JOKER_IDS:
                joker_by[JOKER_IDS.index(tile)] = seat
            if tile == twin:
                twin_seat = seat
    return replace(
        state,
        melds=tuple(melds),
        joker_by=(joker_by[0], joker_by[1]),
        twin_seat=twin_seat if twin_seat is not None else state.twin_seat,
        out=0,
        end="out",
    )


def scored(state: HouseState, claim: list[int]) -> ScoringExample:
    return scoring_example(score(state), PLAYERS, claim, ROW_LABELS, row_of=ROW_OF, factor_keys=FACTOR_ROWS)


def house_examples() -> HouseExamples:
    state = finished_game("b6")
    return HouseExamples(
        melds=meld_examples(SLUG, MELDS),
        openings=opening_examples(OPENINGS, opening_value),
        jokers=joker_examples(),
        scoring=scored(state, SCORING_TOTALS),
        scoring_table=[(PLAYERS[seat], tile_views(parse_tiles(text))) for seat, text in FINAL_MELDS],
        scoring_racks=rack_rows(PLAYERS, FINAL_RACKS),
        unopened_rack_cost=Figure(sum(rack_penalty(tile) for tile in parse_tiles(FINAL_RACKS[2])), UNOPENED_RACK_COST),
        double=scored(finished_game("r1"), DOUBLE_TOTALS),
        joker_out=scored(replace(state, out_by_joker=True), JOKER_OUT_TOTALS),
    )
