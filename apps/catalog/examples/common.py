"""The shapes of worked examples shared by every game's rules page, and how tiles are drawn there.

Every example pairs what the engine computes when the page renders with `claim`: what our own text
around the example says. The page shows the computed value; tests/catalog fails when a claim and the
engine disagree, so the words are corrected instead of silently contradicting the tables.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from apps.engine.game import GameResult, MeldCheck, get_rules
from apps.engine.tiles import Colour, Tile, parse_melds, parse_tiles

#: The kinds of meld a claim names, as `MeldCheck.kind` reports them.
RUN, SET = "run", "set"

COLOUR_NAMES: dict[Colour, Promise] = {
    Colour.RED: _("red"),
    Colour.YELLOW: _("yellow"),
    Colour.BLUE: _("blue"),
    Colour.BLACK: _("black"),
}


@dataclass(frozen=True)
class TileView:
    """A tile as the page draws it: its ink, what is printed on it and what a screen reader says."""

    css: str
    face: str
    label: str


def tile_name(tile: Tile) -> str:
    """What a tile is called, in the active language: "red 5", "5 roșu", "joker"."""
    if tile.colour is None:
        return str(_("joker"))
    # Translators: a tile's name, e.g. "red 5" (the table's own string).
    return str(_("%(colour)s %(number)s") % {"colour": COLOUR_NAMES[tile.colour], "number": tile.number})


def tile_view(tile: Tile) -> TileView:
    if tile.colour is None:
        return TileView("joker", "☺", tile_name(tile))
    return TileView(tile.colour.value, str(tile.number), tile_name(tile))


def tile_views(tiles: Sequence[Tile]) -> list[TileView]:
    return [tile_view(tile) for tile in tiles]


def rack_rows(players: Sequence[str], racks: Sequence[str]) -> list[tuple[str, list[TileView]]]:
    """(player, the tiles still on their rack) for a scoring story; racks in notation."""
    return [(name, tile_views(parse_tiles(rack))) for name, rack in zip(players, racks, strict=True)]


@dataclass(frozen=True)
class MeldClaim:
    """What our text says about a meld: legal or not, which kind, and its value."""

    valid: bool
    kind: str | None = None
    points: int = 0


@dataclass(frozen=True)
class MeldExample:
    notation: str
    caption: Promise
    claim: MeldClaim
    tiles: list[TileView]
    check: MeldCheck

    @property
    def agrees(self) -> bool:
        return (self.check.valid, self.check.kind, self.check.points) == (
            self.claim.valid,
            self.claim.kind,
            self.claim.points if self.claim.valid else 0,
        )


def meld_examples(slug: str, cases: Sequence[tuple[str, MeldClaim, Promise]]) -> list[MeldExample]:
    """Each (notation, claim, caption) checked by the game's own `meld_check`."""
    rules = get_rules(slug)
    examples = []
    for notation, claim, caption in cases:
        tiles = parse_tiles(notation)
        examples.append(MeldExample(notation, caption, claim, tile_views(tiles), rules.meld_check(tiles)))
    return examples


@dataclass(frozen=True)
class OpeningExample:
    """A first lay-down of one or more melds: its total and whether it is enough to open."""

    notation: str
    caption: Promise
    claim_points: int
    claim_opens: bool
    melds: list[list[TileView]]
    points: int
    opens: bool

    @property
    def agrees(self) -> bool:
        return (self.points, self.opens) == (self.claim_points, self.claim_opens)


def opening_examples(
    cases: Sequence[tuple[str, int, bool, Promise]], measure: Callable[[list[list[Tile]]], tuple[int, bool]]
) -> list[OpeningExample]:
    """Each (notation, claimed points, claimed to open, caption) measured by the game: `measure(melds)` is
    what the melds are worth as an opening and whether they open."""
    examples = []
    for notation, points, opens, caption in cases:
        melds = parse_melds(notation)
        value, qualifies = measure(melds)
        examples.append(OpeningExample(notation, caption, points, opens, [tile_views(meld) for meld in melds], value, qualifies))
    return examples


@dataclass(frozen=True)
class Figure:
    """A single number our text quotes, computed by the engine."""

    value: int
    claim: int

    @property
    def agrees(self) -> bool:
        return self.value == self.claim


@dataclass(frozen=True)
class ScoreRow:
    label: str
    points: list[int]  # one per player
    factor_row: bool = False


def scoring_rows(
    result: GameResult,
    labels: dict[str, Promise],
    *,
    row_of: dict[str, str] | None = None,
    factor_keys: frozenset[str] = frozenset(),
) -> list[ScoreRow]:
    """The score lines of every seat as rows (one column per seat), in the engine's order. `labels` puts
    the engine's line keys in our words; `row_of` merges keys into one row (a player has one or the
    other); a key with no label still shows, under the engine's own label, so no line is ever hidden."""
    row_of = row_of or {}
    order: list[str] = []
    cells: dict[str, list[int]] = {}
    names: dict[str, str] = {}
    for seat in result.seats:
        for line in seat.lines:
            row = row_of.get(line.key, line.key)
            if row not in cells:
                order.append(row)
                cells[row] = [0] * len(result.seats)
                names[row] = str(labels.get(row, line.label))
            cells[row][seat.seat] += line.points
    return [ScoreRow(names[row], cells[row], row in factor_keys) for row in order]


@dataclass(frozen=True)
class ScoringExample:
    """A whole game's end, scored line by line by the engine. `rows` are the lines of the score, in the
    order of calculation, with one column per player."""

    players: list[str]
    rows: list[ScoreRow]
    totals: list[int]
    claim_totals: list[int]
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def agrees(self) -> bool:
        return self.totals == self.claim_totals


def scoring_example(
    result: GameResult,
    players: Sequence[str],
    claim: list[int],
    labels: dict[str, Promise],
    *,
    row_of: dict[str, str] | None = None,
    factor_keys: frozenset[str] = frozenset(),
) -> ScoringExample:
    """The engine's score of a finished game as the page's table, with the totals our text claims."""
    rows = scoring_rows(result, labels, row_of=row_of, factor_keys=factor_keys)
    return ScoringExample(list(players), rows, list(result.scores), claim)
