// The rearrange game's table (tile-rummy-rearrange). During your turn the table is a scratchpad:
// move tiles between sets, split a run, start a new set, add tiles from your rack. Sets that are not
// legal yet show in red ("not a set"); the line under the table says why End turn is off. Take back
// undoes one tile, Undo turn everything. Each change is sent as a `draft`, so a legal table stands if
// the clock runs out. The checks here only light the buttons: the server checks the play.
// Tiles placed or moved since your last turn are marked (changes.js) until you send your play; the
// opening's counter sits at the top of the table until you have opened.

import { TableChanges } from "./changes.js";
import { enableDrag } from "./drag.js";
import { focusedKey, h } from "./dom.js";
import { GameTable, actionButton, openingMeter, pileSpot } from "./game-table.js";
import { t, tn } from "./i18n.js";
import { restoreRoving, rovingGroup } from "./roving.js";
import { arrangeMeld, readMeld, tileElement, tileName, tileNames } from "./tiles.js";
import { seatName } from "./names.js";

const DRAFT_DELAY_MS = 600;

/** The Rearrange game's meld rules, for reading a set changed on the scratchpad (tiles.js): 1 is lowest
 * and 13 highest, two jokers may share a set, a tile is worth its number. */
export const REARRANGE_MELDS = {
  wrap: false,
  jokerLimits: false,
  maxRank: 13,
  runValue: (rank) => rank,
  setValue: (number) => number,
};

export class RearrangeTable extends GameTable {
  /** How a game ended, in the player's words (results.js), and a hint shown as the table after it (hints.js). */
  static reasons = { out_you: "reason_out_rr_you", out: "reason_out_rr", pile: "reason_pile_rr" };
  static hintShows = "table";

  constructor(page) {
    super(page);
    this.turnKey = null; // the turn the scratchpad belongs to
    this.work = null; // the scratchpad: [{key, tiles: [{id, face, from: "table" | "rack"}]}]
    this.startWork = null;
    this.history = []; // snapshots, one per tile moved (Take back)
    this.picked = new Set(); // selected tiles on the table (ids)
    this.nextKey = 1;
    this.draftTimer = null;
    this.lastDraft = null;
    this.changes = new TableChanges();
    this.els.melds.addEventListener("click", (event) => this.onTableClick(event));
    rovingGroup(this.els.melds, ".meld .tile, .meld__add, .new-set");
    enableDrag(this.els.melds, {
      item: ".tile",
      payload: (element) => this.tablePayload(element),
      drop: (data, target) => this.dropOn(data, target),
    });
  }

  selectionChanged() {
    this.renderControls();
  }

  /** Your turn, with a play allowed: the table is your scratchpad. */
  myTurn() {
    return this.turnIsMine() && this.view.actions.includes("play");
  }

  // -------------------------------------------------------------------------------------------------
  // Frames

  takeFrame(frame) {
    const view = frame.view;
    const game = frame.table.current_game;
    this.changes.update(frame);
    if (view && view.rack) this.rack.setFaces(view.rack, null, this.rackKey(frame));
    const turnKey = view && game ? `${game.id}:${game.turn}` : null;
    if (this.myTurn()) {
      if (this.turnKey !== turnKey || !this.work || !this.workMatchesRack()) this.beginTurn();
      this.turnKey = turnKey;
    } else if (this.work) {
      this.work = null;
      this.startWork = null;
      this.history = [];
      this.picked.clear();
      this.rack.unhideAll();
      this.turnKey = null;
      clearTimeout(this.draftTimer);
      this.lastDraft = null;
    }
  }

  beginTurn() {
    // A marked tile keeps its mark wherever the player moves it this turn.
    const marks = this.changes.marks();
    this.work = this.view.table.map((meld, index) => ({
      key: `s${this.nextKey++}`,
      tiles: meld.tiles.map((face, at) => ({ id: `t${this.nextKey++}`, face, from: "table", changed: Boolean(marks[index] && marks[index][at]) })),
    }));
    this.startWork = clone(this.work);
    // The server's reading of each set as the turn found it, kept while the set is left as it was.
    this.served = new Map(this.work.map((set, index) => [set.key, { ids: idsOf(set), reading: served(this.view.table[index]) }]));
    this.history = [];
    this.picked.clear();
    this.rack.unhideAll();
    this.lastDraft = null;
  }

  workMatchesRack() {
    const present = new Set(this.rack.items.map((item) => item.id));
    return this.work.every((set) => set.tiles.every((tile) => tile.from !== "rack" || present.has(tile.id)));
  }

  // -------------------------------------------------------------------------------------------------
  // The scratchpad

  snapshot() {
    return { work: clone(this.work), hidden: [...this.rack.hidden] };
  }

  restore(snapshot) {
    this.work = clone(snapshot.work).filter((set) => set.tiles.length);
    this.rack.unhideAll();
    this.rack.hide(snapshot.hidden);
    this.picked.clear();
  }

  /** Where a tile is: {set, at} on the table, or null (on the rack). */
  locate(id) {
    for (const set of this.work) {
      const at = set.tiles.findIndex((tile) => tile.id === id);
      if (at >= 0) return { set, at };
    }
    return null;
  }

  selectedIds() {
    const onTable = [];
    for (const set of this.work || []) for (const tile of set.tiles) if (this.picked.has(tile.id)) onTable.push(tile.id);
    return [...onTable, ...this.rack.selectedIds()];
  }

  /** Move tiles (table ids or rack ids) into set `key`, or into a new set (key null). */
  moveTiles(ids, key) {
    if (!this.myTurn() || !ids.length) return;
    let target = key === null ? null : this.work.find((set) => set.key === key);
    if (key !== null && !target) return;
    if (target === null) {
      target = { key: `s${this.nextKey++}`, tiles: [] };
      this.work.push(target);
    }
    for (const id of ids) {
      const where = this.locate(id);
      if (where && where.set === target) continue;
      this.history.push(this.snapshot());
      if (where) {
        const [tile] = where.set.tiles.splice(where.at, 1);
        target.tiles.push(tile);
      } else {
        const face = this.rack.faceOf(id);
        if (face === null) continue;
        target.tiles.push({ id, face, from: "rack" });
        this.rack.hidden.add(id);
        this.rack.selected.delete(id);
      }
    }
    this.arrange(target);
    this.work = this.work.filter((set) => set.tiles.length);
    // An empty set left behind by the first snapshot is not a step of its own.
    this.picked.clear();
    this.changed();
  }

  /** Put a set's tiles in the order they read as a set (a run ascending, jokers in the gaps). */
  arrange(set) {
    const faces = arrangeMeld(set.tiles.map((tile) => tile.face), REARRANGE_MELDS);
    if (!readMeld(faces, REARRANGE_MELDS).ok) return;
    const left = [...set.tiles];
    set.tiles = faces.map((face) => left.splice(left.findIndex((tile) => tile.face === face), 1)[0]);
  }

  returnToRack(ids) {
    if (!this.myTurn()) return;
    const fromTable = ids.filter((id) => {
      const where = this.locate(id);
      return where && where.set.tiles[where.at].from === "table";
    });
    if (fromTable.length) {
      this.page.toast(t("table_tiles_stay"), "error");
      return;
    }
    for (const id of ids) {
      const where = this.locate(id);
      if (!where) continue;
      this.history.push(this.snapshot());
      where.set.tiles.splice(where.at, 1);
      this.rack.hidden.delete(id);
    }
    this.work = this.work.filter((set) => set.tiles.length);
    this.picked.clear();
    this.changed();
  }

  takeBack() {
    const snapshot = this.history.pop();
    if (!snapshot) return;
    this.restore(snapshot);
    this.changed();
  }

  undoTurn() {
    if (!this.startWork) return;
    this.restore({ work: this.startWork, hidden: [] });
    this.history = [];
    this.changed();
  }

  changed() {
    this.rack.render();
    this.renderTable();
    this.renderControls();
    this.scheduleDraft();
  }

  tableNotation() {
    return this.work.map((set) => set.tiles.map((tile) => tile.face).join(" ")).join(" | ");
  }

  isUnchanged() {
    return JSON.stringify(this.work.map((set) => set.tiles.map((tile) => tile.id)))
      === JSON.stringify(this.startWork.map((set) => set.tiles.map((tile) => tile.id)));
  }

  scheduleDraft() {
    clearTimeout(this.draftTimer);
    this.draftTimer = setTimeout(() => {
      if (!this.myTurn() || !this.work) return;
      const move = this.isUnchanged() || !this.work.length ? null : `play ${this.tableNotation()}`;
      if (move === this.lastDraft) return;
      this.lastDraft = move;
      this.page.connection.send({ type: "draft", move });
    }, DRAFT_DELAY_MS);
  }

  /** How a set reads: the server's reading while it is a set of the table left as it was, else the
   * page's own (a set the player changed, live while tiles move). */
  reading(set) {
    if (set.reading) return set.reading;
    const kept = this.served && this.served.get(set.key);
    if (kept && kept.ids === idsOf(set)) return kept.reading;
    return readMeld(set.tiles.map((tile) => tile.face), REARRANGE_MELDS);
  }

  /** Why End turn is off (the first reason, in the server's order), or null when the table is sound. */
  whyNot() {
    const sets = this.work;
    const illegal = sets.filter((set) => !this.reading(set).ok).length;
    if (illegal) return tn("why_not_a_set", illegal);
    const placed = sets.reduce((sum, set) => sum + set.tiles.filter((tile) => tile.from === "rack").length, 0);
    if (!placed) return t("why_nothing_placed");
    const me = this.me;
    if (me && !me.opened) {
      const keys = (set) => set.tiles.map((tile) => tile.id).join(",");
      const now = new Set(sets.map(keys));
      if (!this.startWork.every((set) => now.has(keys(set)))) return t("why_opening_table");
      const points = this.openingPoints();
      if (points < this.view.opening_minimum) return t("why_opening", { points, needed: this.view.opening_minimum });
    }
    return null;
  }

  openingPoints() {
    return this.work
      .filter((set) => set.tiles.length && set.tiles.every((tile) => tile.from === "rack"))
      .reduce((sum, set) => {
        const meld = this.reading(set);
        return sum + (meld.ok ? meld.points : 0);
      }, 0);
  }

  endTurn() {
    if (!this.myTurn() || this.whyNot() !== null) return;
    const sets = this.work.map((set) => set.tiles.map((tile) => tile.face));
    if (this.page.move(`play ${this.tableNotation()}`)) this.playSent(sets);
  }

  draw() {
    if (!this.can("draw")) return;
    const sets = this.view.table.map((meld) => [...meld.tiles]);
    if (this.page.move("draw")) this.playSent(sets);
  }

  /** Your turn's play is on its way: the marks of what the others changed go (the table is yours now). */
  playSent(sets) {
    this.changes.sent(sets);
    this.renderTable();
  }

  /** The server refused a move: the turn goes on, with its marks. */
  refused() {
    this.changes.refused();
    this.renderTable();
  }

  // -------------------------------------------------------------------------------------------------
  // Drawing the table

  centerSpots(view) {
    const drawable = this.can("draw");
    const pass = view.pool === 0;
    const spots = [pileSpot(t("pool"), view.pool, {
      drawable,
      ariaLabel: drawable ? (pass ? t("pass") : t("draw_from_pool", { count: view.pool })) : tn("pool_count", view.pool),
      dataset: { key: "pool" },
      onclick: () => this.draw(),
    })];
    if (view.ceremony && view.ceremony.length && view.turn_no < view.seats) spots.push(this.ceremony());
    return spots;
  }

  ceremony() {
    const view = this.view;
    const names = this.frame.table.seats.map(seatName);
    const rounds = view.ceremony.map((draws) => h("li", {}, ...draws.map((draw) => h("span", { class: "ceremony__draw" },
      tileElement(draw.tile, { inert: true, className: "tile--small", label: t("drew_tile", { name: names[draw.seat], tile: tileName(draw.tile) }) }),
      h("span", { class: "ceremony__name", "aria-hidden": "true" }, names[draw.seat])))));
    return h("div", { class: "spot spot--ceremony" },
      h("p", { class: "spot__label" }, t("who_starts")),
      h("ol", { class: "ceremony" }, ...rounds),
      h("p", { class: "spot__sub" }, t("starts_name", { name: names[view.starter] })));
  }

  sets() {
    if (this.work) return this.work;
    const marks = this.changes.marks();
    return (this.view ? this.view.table : []).map((meld, index) => ({
      key: `v${index}`,
      tiles: meld.tiles.map((face, at) => ({ id: `v${index}-${at}`, face, from: "table", changed: Boolean(marks[index] && marks[index][at]) })),
      reading: served(meld),
    }));
  }

  renderTable() {
    const view = this.view;
    const container = this.els.melds;
    if (!view) {
      container.replaceChildren();
      this.els.why.hidden = true;
      return;
    }
    const focusKey = focusedKey(container);
    const scratch = Boolean(this.work);
    const hasSelection = scratch && this.selectedIds().length > 0;
    const shown = !this.changes.hidden();
    const sets = this.sets().map((set) => ({ ...set, tiles: set.tiles.map((tile) => ({ ...tile, changed: shown && tile.changed })) }));
    const changedLabel = this.changes.spectator ? t("changed_since_last_turn") : t("changed_since_your_turn");
    const children = sets.map((set, index) => {
      const meld = this.reading(set);
      const changed = scratch && set.tiles.some((tile) => tile.from === "rack");
      const group = h("div", {
        class: `meld rset${meld.ok ? "" : " is-invalid"}${changed ? " has-mine" : ""}`,
        role: "group",
        dataset: { drop: "set", set: set.key },
        "aria-label": meld.ok
          ? t("set_label", { n: index + 1, kind: meld.kind === "run" ? t("run") : t("group"), points: meld.points })
          : t("set_label_invalid", { n: index + 1 }),
      });
      const tiles = h("div", { class: "meld__tiles" });
      set.tiles.forEach((tile, at) => {
        const stands = meld.ok && meld.standsFor[at] && meld.standsFor[at].length ? meld.standsFor[at] : null;
        const name = stands ? t("joker_stands_for", { tiles: tileNames(stands) }) : tileName(tile.face);
        const element = tileElement(tile.face, {
          className: `tile--table${tile.from === "rack" && scratch ? " is-mine" : ""}${tile.changed ? " is-changed" : ""}${this.picked.has(tile.id) ? " is-selected" : ""}`,
          label: tile.changed ? `${name}, ${changedLabel}` : name,
          data: { id: tile.id, key: `tile-${tile.id}` },
        });
        if (scratch) element.setAttribute("aria-pressed", this.picked.has(tile.id) ? "true" : "false");
        tiles.append(element);
      });
      group.append(tiles);
      group.append(h("p", { class: "meld__info" }, meld.ok ? t("points_short", { points: meld.points }) : h("strong", { class: "not-a-set" }, t("not_a_set"))));
      if (hasSelection) {
        group.append(h("button", {
          type: "button",
          class: "meld__add",
          dataset: { add: set.key, key: `add-${set.key}` },
          "aria-label": t("add_to_set", { n: index + 1 }),
        }, "+"));
      }
      return group;
    });
    if (scratch) {
      children.push(h("button", {
        type: "button",
        class: "new-set",
        dataset: { drop: "table", key: "new-set" },
        disabled: !hasSelection,
      }, "+ ", t("new_set")));
    }
    if (!children.length) children.push(h("p", { class: "melds__empty" }, t("rr_no_sets")));
    container.replaceChildren(...children);
    restoreRoving(container, ".meld .tile, .meld__add, .new-set", focusKey);
    this.renderWhy();
    this.renderNotes(sets.some((set) => set.tiles.some((tile) => tile.changed)), changedLabel);
  }

  /** The top of the table: your opening's counter until you have opened, and what the marks mean. */
  renderNotes(marked, changedLabel) {
    const notes = this.els.notes;
    const parts = [];
    const me = this.me;
    if (this.seated() && me && !me.opened && !this.view.over) {
      const needed = this.view.opening_minimum;
      const points = this.work ? this.openingPoints() : 0;
      parts.push(h("div", { class: "opening" }, openingMeter({ points, needed, ready: points >= needed })));
    }
    if (marked) {
      parts.push(h("p", { class: "changes-legend" }, h("span", { class: "changes-legend__swatch", "aria-hidden": "true" }), " ", changedLabel));
    }
    notes.hidden = !parts.length;
    notes.replaceChildren(...parts);
  }

  renderWhy() {
    const why = this.els.why;
    if (!this.work) {
      why.hidden = true;
      return;
    }
    const reason = this.whyNot();
    why.hidden = false;
    why.classList.toggle("is-ready", reason === null);
    why.textContent = reason === null ? t("why_ready") : reason;
  }

  onTableClick(event) {
    const add = event.target.closest(".meld__add");
    if (add) {
      this.moveTiles(this.selectedIds(), add.dataset.add);
      return;
    }
    if (event.target.closest(".new-set")) {
      this.moveTiles(this.selectedIds(), null);
      return;
    }
    const tile = event.target.closest(".tile");
    if (!tile || !this.work) return;
    const id = tile.dataset.id;
    if (this.picked.has(id)) this.picked.delete(id);
    else this.picked.add(id);
    this.renderTable();
    this.renderControls();
  }

  tablePayload(element) {
    if (!this.work) return null;
    const id = element.dataset.id;
    const ids = this.picked.has(id) ? this.selectedIds() : [id];
    return { ids, elements: ids.map((each) => this.els.melds.querySelector(`[data-id="${CSS.escape(String(each))}"]`)).filter(Boolean) };
  }

  dropOn(data, target) {
    if (!target || !this.work) return;
    const ids = data.ids;
    const kind = target.dataset.drop;
    if (kind === "set") this.moveTiles(ids, target.dataset.set);
    else if (kind === "table") this.moveTiles(ids, null);
    else if (kind === "rack") this.returnToRack(ids.filter((id) => this.locate(id)));
  }

  // -------------------------------------------------------------------------------------------------
  // You: the bar and the buttons

  gameBadges(index, player) {
    return player && player.passed ? [{ kind: "left", text: t("badge_passed") }] : [];
  }

  yourTurnText() {
    const view = this.view;
    const me = this.me;
    if (me && !me.opened) return t("rr_your_turn_opening", { needed: view.opening_minimum });
    return t("rr_your_turn");
  }

  renderControls() {
    if (!this.seated()) return;
    const view = this.view;
    this.els.actions.hidden = view.over;
    this.els.tray.hidden = true;
    const scratch = Boolean(this.work);
    const selected = scratch ? this.selectedIds().length : 0;
    const ready = scratch && this.whyNot() === null;
    const pass = view.pool === 0;
    const main = h("div", { class: "actions__main" },
      actionButton("end", t("end_turn"), "E", ready && this.can("play"), () => this.endTurn(), true),
      actionButton("draw", pass ? t("pass") : t("draw_tile"), "D", this.can("draw"), () => this.draw()),
      actionButton("new-set", t("new_set"), "L", scratch && selected > 0, () => this.moveTiles(this.selectedIds(), null)),
      actionButton("take-back", t("take_back"), "Z", scratch && this.history.length > 0, () => this.takeBack()),
      actionButton("undo", t("undo_turn"), "U", scratch && this.history.length > 0, () => this.undoTurn()));
    const hint = h("p", { class: `actions__hint${selected ? " has-selection" : ""}`, "aria-live": "polite" }, this.hintText(selected));
    this.showActions(main, hint);
    // The "+" buttons on the sets come and go with the selection.
    if (scratch && Boolean(this.els.melds.querySelector(".meld__add")) !== selected > 0) this.renderTable();
  }

  hintText(selected) {
    if (!this.view || this.view.over) return "";
    if (!this.work) return t("hint_plan_rr");
    if (!selected) return t("hint_rr_select");
    return tn("hint_rr_selected", selected);
  }

  gameShortcut(key) {
    switch (key) {
      case "e": this.endTurn(); return true;
      case "d": this.draw(); return true;
      case "l": this.moveTiles(this.selectedIds(), null); return true;
      case "z": this.takeBack(); return true;
      case "u": this.undoTurn(); return true;
      case "escape": this.picked.clear(); this.rack.clearSelection(); this.renderTable(); return true;
      default: return false;
    }
  }
}

/** The server's reading of a set of the view (its kind, value and what each joker stands for), in the
 * shape of tiles.js's `readMeld`. */
function served(meld) {
  const standsFor = meld.tiles.map(() => []);
  for (const joker of meld.jokers) standsFor[joker.at] = joker.stands_for;
  return { ok: true, kind: meld.kind, points: meld.points, standsFor };
}

function idsOf(set) {
  return set.tiles.map((tile) => tile.id).join(",");
}

function clone(work) {
  return work.map((set) => ({ key: set.key, tiles: set.tiles.map((tile) => ({ ...tile })) }));
}
