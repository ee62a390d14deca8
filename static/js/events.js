// "What happened": the moves of the others, told in words, found by comparing the view before and
// after each frame (the protocol sends states, not moves). Display only.

import { h } from "./dom.js";
import { t, tn } from "./i18n.js";
import { tileName, tileNames } from "./tiles.js";
import { seatName } from "./names.js";

const KEEP = 40;

export class EventLog {
  constructor(root) {
    this.root = root;
    this.list = root ? root.querySelector("ol") : null;
    this.previous = null;
  }

  /** Compare with the last frame and add a line for each thing that happened. */
  update(frame) {
    const before = this.previous;
    this.previous = frame;
    if (!this.list || !before || !before.view || !frame.view) return;
    const lines = diff(before, frame);
    for (const line of lines) this.add(line);
  }

  add({ text, seat }) {
    const item = h("li", { class: `log__item${seat !== undefined && seat !== null ? ` seat-colour-${seat % 4}` : ""}` }, text);
    this.list.prepend(item);
    while (this.list.children.length > KEEP) this.list.lastElementChild.remove();
    this.root.hidden = false;
  }
}

function diff(before, after) {
  const lines = [];
  const names = after.table.seats.map(seatName);
  const a = before.view;
  const b = after.view;
  const gameBefore = before.table.current_game ? before.table.current_game.id : null;
  const gameAfter = after.table.current_game ? after.table.current_game.id : null;
  if (gameBefore !== gameAfter) {
    if (after.table.current_game) lines.push({ text: t("log_new_game", { n: after.table.current_game.number }) });
    return lines;
  }
  const mover = a.turn;
  const name = (seat) => names[seat] || "";
  if (b.table) rearrangeLines(a, b, mover, name, lines);
  else houseLines(a, b, mover, name, lines);
  (b.players || []).forEach((player, seat) => {
    const old = a.players ? a.players[seat] : null;
    if (!old) return;
    if (player.left && !old.left) lines.push({ seat, text: t("log_left", { name: name(seat) }) });
    else if (player.away && !old.away) lines.push({ seat, text: t("log_autopilot", { name: name(seat) }) });
    else if (!player.away && old.away) lines.push({ seat, text: t("log_back", { name: name(seat) }) });
  });
  if (b.over && !a.over) lines.push({ text: t("game_over") });
  return lines;
}

function rearrangeLines(a, b, mover, name, lines) {
  const before = a.players && a.players[mover];
  const after = b.players && b.players[mover];
  if (!before || !after) return;
  if (after.tiles < before.tiles) lines.push({ seat: mover, text: tn("log_played", before.tiles - after.tiles, { name: name(mover) }) });
  else if (after.tiles > before.tiles) lines.push({ seat: mover, text: tn("log_drew", after.tiles - before.tiles, { name: name(mover) }) });
  else if (after.passed && !before.passed) lines.push({ seat: mover, text: t("log_passed", { name: name(mover) }) });
}

function houseLines(a, b, mover, name, lines) {
  const took = b.discards && a.discards && b.discards.length < a.discards.length ? a.discards[a.discards.length - 1] : null;
  if (b.discards && a.discards && b.discards.length > a.discards.length) {
    lines.push({ seat: mover, text: t("log_discarded", { name: name(mover), tile: tileName(b.discards[b.discards.length - 1]) }) });
  }
  // Tiles laid: new melds (and an opening, or the last discard taken into one), tiles laid off, jokers taken.
  const opened = (b.players || []).filter((player, seat) => player.opened && a.players[seat] && !a.players[seat].opened);
  const newMelds = b.melds.slice(a.melds.length);
  if (newMelds.length) {
    const owner = newMelds[0].owner;
    const points = newMelds.reduce((sum, meld) => sum + meld.points, 0);
    const tiles = newMelds.map((meld) => tileNames(meld.tiles)).join(" | ");
    if (took) lines.push({ seat: owner, text: t("log_took_discard", { name: name(owner), tile: tileName(took), tiles }) });
    else if (opened.some((player) => player.seat === owner)) lines.push({ seat: owner, text: t("log_opened", { name: name(owner), points, tiles }) });
    else lines.push({ seat: owner, text: t("log_laid", { name: name(owner), tiles }) });
  }
  for (const meld of b.melds.slice(0, a.melds.length)) {
    const old = a.melds[meld.index];
    if (!old) continue;
    const jokersBefore = old.tiles.filter((face) => face === "J").length;
    const jokersAfter = meld.tiles.filter((face) => face === "J").length;
    if (jokersAfter < jokersBefore) {
      lines.push({ seat: mover, text: t("log_joker", { name: name(mover) }) });
    } else if (meld.tiles.length > old.tiles.length) {
      const added = [...meld.tiles];
      for (const face of old.tiles) added.splice(added.indexOf(face), 1);
      lines.push({ seat: mover, text: t("log_laid_off", { name: name(mover), tiles: tileNames(added) }) });
    }
  }
}
