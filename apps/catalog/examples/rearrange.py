"""Worked examples of the Rearrange game's rules page (`tile-rummy-rearrange`), computed by the engine.

Sets go through `get_rules("tile-rummy-rearrange").meld_check`; openings and rebuilt tables through
`rearrange.validate.check_play`, the very check the server makes when a player presses End turn; the
two scored ends of a game through `rearrange.scoring.score`, the function the tables use.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from apps.catalog.examples.common import (
    RUN,
    SET,
    MeldClaim,
    MeldExample,
    OpeningExample,
    ScoringExample,
    TileView,
    meld_examples,
    opening_examples,
    rack_rows,
    scoring_example,
    tile_view,
    tile_views,
)
from apps.engine.errors import EngineError
from apps.engine.game import get_rules
from apps.engine.rearrange.positions import position
from apps.engine.rearrange.scoring import score
from apps.engine.rearrange.state import RearrangeState
from apps.engine.rearrange.validate import check_play
from apps.engine.tiles import Tile, parse_melds, parse_tiles

SLUG = "tile-rummy-rearrange"

MELDS: list[tuple[str, MeldClaim, Promise]] = [
    ("b4 b5 b6", MeldClaim(True, RUN, 15), _("A run: three or more numbers in a row, one colour. Tiles count their face value.")),
    ("r11 y11 k11 b11", MeldClaim(True, SET, 44), _("A group: one number in three or four different colours.")),
    ("r1 r2 r3", MeldClaim(True, RUN, 6), _("The 1 is always the lowest tile, and counts 1.")),
    ("r12 r13 r1", MeldClaim(False), _("So nothing comes after the 13: 12, 13, 1 is not a run.")),
    ("r5 J J", MeldClaim(True, RUN, 18), _("Two jokers may share a set. Read as a run, this is 5, 6, 7.")),
    ("J k12 k13", MeldClaim(True, RUN, 36), _("A joker counts as the tile it replaces: the black 11 here.")),
    ("k12 k13 J", MeldClaim(False), _("A joker cannot carry a run past 13.")),
    ("y7 y7 b7", MeldClaim(False), _("A group never repeats a colour.")),
]

OPENINGS: list[tuple[str, int, bool, Promise]] = [
    ("r11 r12 r13", 36, True, _("One high run is enough on its own.")),
    ("J b11 y11", 33, True, _("A joker with two 11s counts as a third 11.")),
    ("k3 k4 k5 | r6 b6 y6", 30, True, _("Two small sets together reach exactly 30.")),
    ("b8 b9 b10", 27, False, _("Three short: these tiles wait on the rack.")),
]


@dataclass(frozen=True)
class MarkedTile:
    """A tile of the proposed table, marked when it came from the rack (drawn with an outline)."""

    view: TileView
    from_rack: bool

    @property
    def css(self) -> str:
        return self.view.css + (" tile--placed" if self.from_rack else "")

    @property
    def face(self) -> str:
        return self.view.face

    @property
    def label(self) -> str:
        return str(_("%(tile)s, from the rack") % {"tile": self.view.label}) if self.from_rack else self.view.label


@dataclass(frozen=True)
class PlayExample:
    """A turn after the opening: the table before, the rack, the table the player proposes, and whether
    the server accepts it (the engine's own End-turn check)."""

    caption: Promise
    claim_legal: bool
    before: list[list[TileView]]
    rack: list[TileView]
    after: list[list[MarkedTile]]
    legal: bool

    @property
    def agrees(self) -> bool:
        return self.legal == self.claim_legal


PLAYS: list[tuple[str, str, str, bool, Promise]] = [
    ("r5 r6 r7", "r4 r8 b1", "r4 r5 r6 r7 r8", True, _("Add tiles at both ends of a run.")),
    (
        "b7 r7 y7 k7",
        "b5 b6 k1",
        "r7 y7 k7 | b5 b6 b7",
        True,
        _("Borrow the fourth tile of a group to finish a run of your own: both sets are still legal."),
    ),
    ("k4 k5 k6 k7 k8", "k6 b1", "k4 k5 k6 | k6 k7 k8", True, _("Split a long run in two around a tile you add.")),
    (
        "r9 J r11",
        "r10 k5 b5 y1",
        "r9 r10 r11 | k5 b5 J",
        True,
        _("Free a joker with the tile it stands for, and play it at once in a new set with two of your tiles."),
    ),
    ("r5 r6 r7", "b9 k1", "r5 r6 | r7 b9", False, _("Every set must be legal when the turn ends: two tiles are not a set.")),
    ("r5 r6 r7 r8", "k1", "r5 r6 r7", False, _("Table tiles never go back to a rack.")),
]


def opening_value(melds: list[list[Tile]]) -> tuple[int, bool]:
    """What a first play of these sets is worth and whether the server accepts it as an opening."""
    rack = [tile for meld in melds for tile in meld] + parse_tiles("k2")  # a tile kept back
    try:
        return check_play([], rack, melds, opened=False).opening_points or 0, True
    except EngineError:  # short of 30: show what the sets are worth
        return sum(get_rules(SLUG).meld_check(meld).points for meld in melds), False


def _marked(table: list[list[Tile]], start: Sequence[Sequence[Tile]]) -> list[list[MarkedTile]]:
    """The proposed table with the tiles that were not on the table before marked as coming from the rack."""
    new = Counter(tile for meld in table for tile in meld) - Counter(tile for meld in start for tile in meld)
    marked: list[list[MarkedTile]] = []
    for meld in table:
        row: list[MarkedTile] = []
        for tile in meld:
            placed = new[tile] > 0
            if placed:
                new[tile] -= 1
            row.append(MarkedTile(tile_view(tile), placed))
        marked.append(row)
    return marked


def play_examples() -> list[PlayExample]:
    examples = []
    for before, rack_text, after, legal, caption in PLAYS:
        start, rack, table = parse_melds(before), parse_tiles(rack_text), parse_melds(after)
        try:
            check_play(start, rack, table, opened=True)
            accepted = True
        except EngineError:
            accepted = False
        examples.append(
            PlayExample(
                caption,
                legal,
                [tile_views(meld) for meld in start],
                tile_views(rack),
                _marked(table, start),
                accepted,
            )
        )
    return examples


# Two ends of a game, scored by the engine. Names are a story, not accounts.
PLAYERS = ("Ana", "Ben", "Cleo", "Dan")
# Dan empties his rack; the others still hold these tiles (Cleo a joker, worth 30).
RUMMY_RACKS = ("r3 r4", "y12 k1", "b9 J", "")
RUMMY_TOTALS = [-7, -13, -39, 59]
# The pool ran out and all three passed in a row: Ana's rack is the lowest.
POOL_RACKS = ("k2 b3", "r6 y1 b1", "k10 r11")
POOL_TOTALS = [19, -3, -16]
# The pool ran out again: Ana and Cleo tie on 5 in two tiles. Ben pays 8 - 5 = 3, which does not split in
# two: Ana, in the earlier seat, gets the point left over.
SHARED_RACKS = ("k2 b3", "r6 y1 b1", "y4 r1")
SHARED_TOTALS = [2, -3, 1]

SCORE_LABELS: dict[str, Promise] = {
    "rack": _("Tiles left on the rack"),
    "won": _("Winner: what the others lost"),
}
POOL_SCORE_LABELS: dict[str, Promise] = {
    "rack": _("Rack minus the winner's rack"),
    "won": _("Winner: what the others lost"),
    "shared": _("Shared win: split equally, points left over one each to the earlier seats"),
}


@dataclass(frozen=True)
class ScoredEnd:
    example: ScoringExample
    racks: list[tuple[str, list[TileView]]]


def finished_game(racks: Sequence[str], end: str, out: int | None) -> RearrangeState:
    """A game that has just ended with these racks and an empty pool, everyone opened."""
    seats = range(len(racks))
    state = position(list(racks), pool_size=0, opened=seats, passed=seats if end == "pile" else ())
    return replace(state, out=out, end=end)


def scored_end(racks: Sequence[str], end: str, out: int | None, labels: dict[str, Promise], claim: list[int]) -> ScoredEnd:
    names = PLAYERS[: len(racks)]
    return ScoredEnd(scoring_example(score(finished_game(racks, end, out)), names, claim, labels), rack_rows(names, racks))


@dataclass(frozen=True)
class RearrangeExamples:
    melds: list[MeldExample]
    openings: list[OpeningExample]
    plays: list[PlayExample]
    rummy: ScoredEnd
    pool_out: ScoredEnd
    pool_shared: ScoredEnd

    def all_examples(self) -> list[MeldExample | OpeningExample | PlayExample | ScoringExample]:
        ends = [self.rummy.example, self.pool_out.example, self.pool_shared.example]
        return [*self.melds, *self.openings, *self.plays, *ends]


def rearrange_examples() -> RearrangeExamples:
    return RearrangeExamples(
        melds=meld_examples(SLUG, MELDS),
        openings=opening_examples(OPENINGS, opening_value),
        plays=play_examples(),
        rummy=scored_end(RUMMY_RACKS, "out", 3, SCORE_LABELS, RUMMY_TOTALS),
        pool_out=scored_end(POOL_RACKS, "pile", None, POOL_SCORE_LABELS, POOL_TOTALS),
        pool_shared=scored_end(SHARED_RACKS, "pile", None, POOL_SCORE_LABELS, SHARED_TOTALS),
    )
