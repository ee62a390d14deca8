// "What happened": the log of the game, as the server keeps it (apps/tables/history.py: codes and
// parameters, newest last), worded here in the page's language. Every state frame carries the log, so
// a reload or a reconnect shows the same lines as before. Display only.

import { h } from "./dom.js";
import { t, tn } from "./i18n.js";
import { tileName, tileNames } from "./tiles.js";
import { seatName } from "./names.js";

export class EventLog {
  constructor(root) {
    this.root = root;
    this.list = root ? root.querySelector("ol") : null;
    this.shown = null; // the log last drawn, as text (a frame with the same log draws nothing)
  }

  /** Draw the frame's log, newest first. */
  update(frame) {
    if (!this.list) return;
    const game = frame.table.current_game;
    const entries = game && Array.isArray(game.log) ? game.log : [];
    const key = JSON.stringify([game ? game.id : null, entries, frame.table.seats.map((seat) => seat.name)]);
    if (key === this.shown) return;
    this.shown = key;
    const names = frame.table.seats.map(seatName);
    const items = entries.map((entry) => logLine(entry, names)).filter(Boolean).reverse()
      .map(({ text, seat }) => h("li", { class: `log__item${seat !== undefined && seat !== null ? ` seat-colour-${seat % 4}` : ""}` }, text));
    this.list.replaceChildren(...items);
    this.root.hidden = items.length === 0;
  }
}

/** One log entry's line: { text, seat }, or null for a code this page does not know. */
export function logLine(entry, names) {
  const name = names[entry.seat] || "";
  const melds = () => (entry.melds || []).map((tiles) => tileNames(tiles)).join(" | ");
  const seat = entry.seat;
  switch (entry.code) {
    case "new_game": return { text: t("log_new_game", { n: entry.n }) };
    case "discarded": return { seat, text: t("log_discarded", { name, tile: tileName(entry.tile) }) };
    case "took_discard": return { seat, text: t("log_took_discard", { name, tile: tileName(entry.tile), tiles: melds() }) };
    case "opened": return { seat, text: t("log_opened", { name, points: entry.points, tiles: melds() }) };
    case "laid": return { seat, text: t("log_laid", { name, tiles: melds() }) };
    case "joker": return { seat, text: t("log_joker", { name }) };
    case "laid_off": return { seat, text: t("log_laid_off", { name, tiles: tileNames(entry.tiles) }) };
    case "placed": {
      const tiles = tileNames(entry.tiles || []);
      const text = entry.rebuilt ? tn("log_placed_rebuilt", entry.rebuilt, { name, tiles }) : t("log_placed", { name, tiles });
      return { seat, text };
    }
    case "drew": return { seat, text: tn("log_drew", entry.count, { name }) };
    case "passed": return { seat, text: t("log_passed", { name }) };
    case "left": return { seat, text: t("log_left", { name }) };
    case "autopilot": return { seat, text: t("log_autopilot", { name }) };
    case "back": return { seat, text: t("log_back", { name }) };
    case "game_over": return { text: t("game_over") };
    default: return null;
  }
}
