"""The page's reading of a meld being assembled (static/js/tiles.js with each game's meld rules from its
own module: the tray's running total, the red "not a set", the order a selection is laid in) agrees with
the engine on thousands of melds of both games. It never decides a move, and every meld on the table
comes read by the server, but a wrong hint would mislead a player."""

from __future__ import annotations

import json
import random
from itertools import permutations

from apps.engine.game import game_slugs, get_rules, is_available
from apps.engine.tiles import COLOURS, Tile, format_tiles
from tests.browser.conftest import play_now

GAMES = ("tile-rummy", "tile-rummy-rearrange")


def candidate_melds(rng: random.Random, count: int) -> list[list[str]]:
    """Mostly near-melds (runs and sets with jokers, 1s around 13), some random junk."""
    melds = []
    for _ in range(count):
        kind = rng.random()
        colour = rng.choice(COLOURS)
        if kind < 0.45:
            start = rng.randint(1, 13)
            length = rng.randint(2, 6)
            faces = [str(Tile(colour, (start + i - 1) % 13 + 1)) for i in range(length)]
        elif kind < 0.85:
            number = rng.randint(1, 13)
            faces = [str(Tile(c, number)) for c in rng.sample(COLOURS, rng.randint(2, 4))]
        else:
            faces = [str(Tile(rng.choice(COLOURS), rng.randint(1, 13))) for _ in range(rng.randint(3, 5))]
        for _ in range(rng.choice((0, 0, 1, 1, 2))):
            faces.insert(rng.randint(0, len(faces)), "J")
        if rng.random() < 0.3:
            rng.shuffle(faces)
        melds.append(faces)
    return melds


def test_the_pages_meld_reading_and_arranging_agree_with_the_engine(new_page):
    page = new_page()
    page.goto("/play/")
    rng = random.Random(7)
    cases = candidate_melds(rng, 1500)
    results = page.evaluate(
        """async (cases) => {
          const m = await import('/static/js/tiles.js');
          const games = {'tile-rummy': (await import('/static/js/house.js')).HOUSE_MELDS,
                         'tile-rummy-rearrange': (await import('/static/js/rearrange.js')).REARRANGE_MELDS};
          const out = {};
          for (const [slug, rules] of Object.entries(games)) {
            out[slug] = cases.map((faces) => {
              const read = m.readMeld(faces, rules);
              return {ok: read.ok, points: read.ok ? read.points : 0, kind: read.ok ? read.kind : null,
                      arranged: m.arrangeMeld(faces, rules)};
            });
          }
          return out;
        }""",
        cases,
    )
    for slug in GAMES:
        rules = get_rules(slug)
        for faces, got in zip(cases, results[slug], strict=True):
            tiles = [Tile.parse(face) for face in faces]
            check = rules.meld_check(tiles)
            where = f"{slug}: {format_tiles(tiles)!r}"
            assert got["ok"] == check.valid, where
            if check.valid:
                assert (got["kind"], got["points"]) == (check.kind, check.points), where
            # A selection that can be laid in some order is put in an order that is a meld.
            arranged = [Tile.parse(face) for face in got["arranged"]]
            assert sorted(face.key for face in arranged) == sorted(face.key for face in tiles), where
            arrangeable = check.valid or (
                len(tiles) <= 5 and any(rules.meld_check(order).valid for order in set(permutations(tiles)))
            )
            if arrangeable:
                assert rules.meld_check(arranged).valid, f"{where} arranged as {json.dumps(got['arranged'])}"


def test_every_game_has_its_module_in_the_pages_slug_map_with_words_for_how_a_game_ends(new_page):
    """static/js/games.js is the one place the page picks a game's module: each game the engine has gives
    a table class, whose reasons are strings the page has, and a way to show a hint."""
    page = new_page()
    play_now(page)  # a table's page: its strings are loaded
    found = page.evaluate(
        """async (slugs) => {
          const { gameTable } = await import('/static/js/games.js');
          const { has } = await import('/static/js/i18n.js');
          return slugs.map((slug) => {
            const Table = gameTable(slug);
            return [slug, ['out_you', 'out', 'pile'].filter((reason) => !has(Table.reasons[reason])), Table.hintShows];
          });
        }""",
        [slug for slug in game_slugs() if is_available(slug)],
    )
    assert found and all(missing == [] and shows in ("table", "steps") for _, missing, shows in found), found
