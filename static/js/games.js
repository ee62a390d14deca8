// The games the table page knows, by slug: the one place the page picks a game's module (CONVENTIONS
// 27), never a branch on a game's name. Each game's module exports its table (a GameTable: the middle of
// the table, its melds, its intents) with what the shared parts of the page ask of a game as static
// fields: `reasons` (the words for how a game ended, results.js) and `hintShows` ("table": the table
// after the play; "steps": the moves one at a time, hints.js). A new game adds its module here, and
// nowhere else (docs/adding-a-game.md).

import { HouseTable } from "./house.js";
import { RearrangeTable } from "./rearrange.js";

const GAMES = {
  "tile-rummy": HouseTable,
  "tile-rummy-rearrange": RearrangeTable,
};

/** The table class of the game `slug`. */
export function gameTable(slug) {
  const Table = GAMES[slug];
  if (!Table) throw new Error(`The page has no module for the game ${slug}`);
  return Table;
}
