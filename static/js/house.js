// The house game's table (tile-rummy): indicator, draw pile, last discard, the melds on the table,
// your rack, the opening tray, and the buttons for what the server says you may do now
// (`view.actions`). Every move is sent as notation (docs/engine.md); the server decides.

import { focusedKey, h } from "./dom.js";
import { GameTable, actionButton, openingMeter, pileSpot } from "./game-table.js";
import { t, tn } from "./i18n.js";
import { seatColourClass } from "./seats.js";
import {
  arrangeMeld, contains, layOffSides, openingTotal, readMeld, tileElement, tileName, tileNames,
} from "./tiles.js";
import { restoreRoving, rovingGroup } from "./roving.js";
import { seatName } from "./names.js";

/** The house game's meld rules, for reading a meld being assembled (tiles.js): a 1 may follow 13; a run
 * tile is worth 5 (1-9) or 10 (10-13, and a 1 after 13), a set of 1s 25 a tile. */
export const HOUSE_MELDS = {
  wrap: true,
  jokerLimits: true,
  maxRank: 14,
  runValue: (rank) => (rank >= 10 ? 10 : 5),
  setValue: (number) => (number === 1 ? 25 : number >= 10 ? 10 : 5),
};

export class HouseTable extends GameTable {
  /** How a game ended, in the player's words (results.js), and a hint shown as its moves (hints.js). */
  static reasons = { out_you: "reason_out_you", out: "reason_out", pile: "reason_pile" };
  static hintShows = "steps";

  constructor(page) {
    super(page);
    this.gameKey = null;
    this.tray = []; // the opening being assembled: [{ids, faces}]
    this.takeMode = false; // the last discard is chosen for a "take"
    this.els.melds.addEventListener("click", (event) => this.onMeldClick(event));
    rovingGroup(this.els.melds, ".meld .tile");
    this.els.center.addEventListener("click", (event) => this.onCenterClick(event));
  }

  selectionChanged() {
    this.renderControls();
    this.renderTable();
  }

  // -------------------------------------------------------------------------------------------------
  // Reading the frame

  topDiscard() {
    const view = this.view;
    return view && view.discards.length ? view.discards[view.discards.length - 1] : null;
  }

  takeFrame(frame) {
    const view = frame.view;
    const key = this.rackKey(frame);
    if (key !== this.gameKey) {
      this.gameKey = key;
      this.tray = [];
      this.takeMode = false;
    }
    if (view && view.rack) {
      this.rack.setFaces(view.rack, view.drawn, key);
      this.keepTrayInRack();
    }
    if (!this.can("take")) this.takeMode = false;
  }

  keepTrayInRack() {
    const me = this.me;
    if (me && me.opened) {
      this.tray = [];
      this.rack.unhideAll();
      return;
    }
    const present = new Set(this.rack.items.map((item) => item.id));
    const kept = this.tray.filter((meld) => meld.ids.every((id) => present.has(id)));
    if (kept.length !== this.tray.length) {
      this.tray = kept;
      this.rack.unhideAll();
      this.rack.hide(kept.flatMap((meld) => meld.ids));
    }
  }

  // -------------------------------------------------------------------------------------------------
  // The middle of the table: indicator, pile, last discard

  centerSpots(view) {
    const indicator = h("div", { class: "spot spot--indicator" },
      h("p", { class: "spot__label" }, t("indicator")),
      tileElement(view.indicator, { inert: true, label: t("indicator_is", { tile: tileName(view.indicator) }) }),
      view.double ? h("p", { class: "double-marker", title: t("double_game_title") }, t("double_game")) : null);

    const drawable = this.can("draw");
    const pile = pileSpot(t("draw_pile"), view.pile, {
      drawable,
      ariaLabel: drawable ? t("draw_from_pile", { count: view.pile }) : tn("pile_count", view.pile),
      dataset: { action: "draw", key: "pile" },
    });

    const top = this.topDiscard();
    const discardSpot = h("div", {
      class: `spot spot--discard${this.can("discard") ? " is-droppable" : ""}`,
      dataset: { drop: "discard" },
    }, h("p", { class: "spot__label" }, t("last_discard")));
    if (top) {
      const takeable = this.can("take");
      const label = takeable
        ? t(this.takeMode ? "discard_chosen" : "take_discard", { tile: tileName(top) })
        : t("last_discard_is", { tile: tileName(top) });
      const tile = tileElement(top, {
        inert: !takeable,
        label,
        className: `${takeable ? "is-takeable" : ""} ${this.takeMode ? "is-selected" : ""} ${view.discard_open ? "" : "is-closed"}`,
        data: { action: "take", key: "discard" },
      });
      if (takeable) tile.setAttribute("aria-pressed", this.takeMode ? "true" : "false");
      discardSpot.append(tile);
      if (view.discards.length > 1) discardSpot.append(h("p", { class: "spot__sub" }, tn("discards_under", view.discards.length - 1)));
    } else {
      discardSpot.append(h("span", { class: "tile tile--slot", "aria-hidden": "true" }));
    }
    if (this.can("discard")) discardSpot.append(h("p", { class: "spot__hint" }, t("drop_to_discard")));
    return [indicator, pile, discardSpot];
  }

  onCenterClick(event) {
    const target = event.target.closest("[data-action]");
    if (!target || target.disabled) return;
    if (target.dataset.action === "draw") this.draw();
    if (target.dataset.action === "take" && this.can("take")) {
      this.takeMode = !this.takeMode;
      this.renderCenter();
      this.renderControls();
      this.els.center.querySelector('[data-key="discard"]')?.focus();
    }
  }

  // -------------------------------------------------------------------------------------------------
  // Melds on the table

  renderTable() {
    const view = this.view;
    const container = this.els.melds;
    if (!view) {
      container.replaceChildren();
      return;
    }
    const names = this.frame.table.seats.map(seatName);
    const focusKey = focusedKey(container);
    if (!view.melds.length) {
      container.replaceChildren(h("p", { class: "melds__empty" }, t("no_melds_yet")));
      return;
    }
    const selection = this.rack.selectedFaces();
    const hinting = selection.length > 0 && (this.can("add") || this.can("joker"));
    const children = view.melds.map((meld) => {
      const jokers = new Map(meld.jokers.map((joker) => [joker.at, joker.stands_for]));
      const target = hinting && this.fits(meld, selection);
      const kind = meld.kind === "run" ? t("run") : t("set");
      const group = h("div", {
        class: `meld ${seatColourClass(meld.owner)}${target ? " is-target" : ""}`,
        role: "group",
        dataset: { drop: "meld", meld: String(meld.index) },
        "aria-label": t("meld_label", { n: meld.index + 1, kind, name: names[meld.owner] || "", points: meld.points }),
      });
      const tiles = h("div", { class: "meld__tiles" });
      meld.tiles.forEach((face, at) => {
        const stands = jokers.get(at);
        const label = stands ? t("joker_stands_for", { tiles: tileNames(stands) }) : tileName(face);
        tiles.append(tileElement(face, {
          className: "tile--table",
          label,
          data: { meld: String(meld.index), at: String(at), key: `m${meld.index}-${at}` },
        }));
      });
      group.append(tiles);
      group.append(h("p", { class: "meld__info" }, h("span", { class: "meld__owner" }, names[meld.owner] || ""), " · ", t("points_short", { points: meld.points })));
      return group;
    });
    container.replaceChildren(...children);
    restoreRoving(container, ".meld .tile", focusKey);
  }

  /** Display only: would the selected tiles go on this meld (laid off at its ends, or taking its
   * joker)? It lights the melds worth trying; the server decides. */
  fits(meld, faces) {
    const joker = meld.jokers.some((each) => {
      const needed = meld.kind === "set" ? each.stands_for : each.stands_for.slice(0, 1);
      return needed.length === faces.length && contains(needed, faces);
    });
    if (joker) return true;
    const sides = layOffSides(meld.tiles, faces, HOUSE_MELDS);
    return readMeld([...sides.before, ...meld.tiles, ...sides.after], HOUSE_MELDS).ok;
  }

  onMeldClick(event) {
    const tile = event.target.closest(".tile");
    if (!tile) return;
    const index = Number(tile.dataset.meld);
    const faces = this.rack.selectedFaces();
    if (!faces.length) {
      if (this.myTurn() && (this.can("add") || this.can("joker"))) this.page.toast(t("select_then_meld"));
      return;
    }
    const at = Number(tile.dataset.at);
    this.toMeld(index, faces, { jokerAt: tile.dataset.face === "J" ? at : null });
  }

  /** Selected tiles onto table meld `index`: take its joker if they are exactly what it stands for,
   * else lay them off (at the end they belong to; `preferBefore` for a joker dropped on the left). */
  toMeld(index, faces, { jokerAt = null, preferBefore = false } = {}) {
    const meld = this.view.melds.find((each) => each.index === index);
    if (!meld) return;
    const joker = meld.jokers.find((each) => {
      const needed = meld.kind === "set" ? each.stands_for : each.stands_for.slice(0, 1);
      return (jokerAt === null || each.at === jokerAt) && needed.length === faces.length && contains(needed, faces);
    });
    if (joker || (jokerAt !== null && !this.can("add"))) {
      this.page.move(`joker ${index} ${faces.join(" ")}`);
      return;
    }
    const sides = layOffSides(meld.tiles, faces, HOUSE_MELDS, preferBefore);
    const text = sides.before.length
      ? `add ${index} ${sides.before.join(" ")} ..${sides.after.length ? " " + sides.after.join(" ") : ""}`
      : `add ${index} ${sides.after.join(" ")}`;
    this.page.move(text);
  }

  // -------------------------------------------------------------------------------------------------
  // You: your bar, the autopilot banner, the opening tray, the buttons

  gameBadges(index) {
    const view = this.view;
    return view && view.twin_seat === index ? [{ kind: "twin", text: t("badge_twin"), title: t("badge_twin_title") }] : [];
  }

  yourTurnText() {
    const view = this.view;
    if (view.phase === "draw") return this.can("take") || view.actions.includes("take") ? t("your_turn_draw_or_take") : t("your_turn_draw");
    const me = this.me;
    if (view.turn_no === 0 && view.starter === this.mine && !view.drawn) return me.opened ? t("your_turn_play_opened") : t("your_turn_first");
    return me.opened ? t("your_turn_play_opened") : t("your_turn_play");
  }

  renderControls() {
    if (!this.seated()) return;
    this.els.actions.hidden = this.view.over;
    this.renderTray();
    this.renderActions();
  }

  renderTray() {
    const me = this.me;
    const tray = this.els.tray;
    const show = me && !me.opened && !this.view.over && (this.tray.length > 0 || (this.myTurn() && this.view.phase === "play"));
    tray.hidden = !show;
    if (!show) return;
    const melds = this.tray.map((meld) => meld.faces);
    const sum = openingTotal(melds, HOUSE_MELDS);
    const needed = this.view.opening_minimum;
    const ready = sum.points >= needed && sum.hasRun && sum.allOk;
    const meter = openingMeter({ points: sum.points, needed, ready, notes: sum.hasRun ? [] : [t("needs_a_run")] });
    const list = h("ul", { class: "tray__melds", dataset: { drop: "tray" } });
    this.tray.forEach((meld, index) => {
      const read = readMeld(meld.faces, HOUSE_MELDS);
      const item = h("li", { class: `tray__meld${read.ok ? "" : " is-invalid"}` });
      const tiles = h("span", { class: "meld__tiles" });
      for (const face of meld.faces) tiles.append(tileElement(face, { inert: true, className: "tile--small" }));
      item.append(tiles);
      item.append(h("span", { class: "tray__points" }, read.ok ? t("points_short", { points: read.points }) : t("not_a_meld")));
      item.append(h("button", {
        type: "button",
        class: "button button--small button--ghost",
        "aria-label": t("put_back_meld", { tiles: tileNames(meld.faces) }),
        onclick: () => this.removeFromTray(index),
      }, t("put_back")));
      list.append(item);
    });
    if (!this.tray.length) list.append(h("li", { class: "tray__empty" }, t("tray_empty")));
    tray.classList.toggle("is-empty", !this.tray.length);
    const layButton = h("button", {
      type: "button",
      class: `button ${ready ? "button--primary" : ""}`,
      disabled: !this.tray.length || !this.can("lay"),
      onclick: () => this.layOpening(),
      dataset: { key: "lay-opening" },
    }, t("lay_opening"), h("kbd", { "aria-hidden": "true" }, "O"));
    const hadFocus = focusedKey(tray);
    tray.replaceChildren(
      meter,
      list,
      ...(this.tray.length ? [h("div", { class: "tray__actions" }, layButton)] : []),
    );
    if (hadFocus) tray.querySelector(`[data-key="${hadFocus}"]`)?.focus();
  }

  renderActions() {
    const view = this.view;
    const me = this.me;
    const faces = this.rack.selectedFaces();
    const actions = [];
    const turn = this.myTurn();
    if (turn && view.phase === "draw") {
      actions.push(actionButton("draw", t("draw"), "D", this.can("draw"), () => this.draw(), !this.takeMode));
      if (this.takeMode) actions.push(actionButton("take", t("lay_with_discard"), "L", faces.length >= 2, () => this.take(), true));
    } else if (me && !me.opened) {
      actions.push(actionButton("add-opening", t("add_to_opening"), "L", this.makesAMeld(faces), () => this.addToTray()));
    } else {
      actions.push(actionButton("lay", t("lay_meld"), "L", faces.length >= 3 && this.can("lay"), () => this.layMeld(), faces.length >= 3));
    }
    actions.push(actionButton("discard", t("discard"), "X", faces.length === 1 && this.can("discard"), () => this.discard(), faces.length === 1));
    const main = h("div", { class: "actions__main" }, ...actions);
    const hint = h("p", { class: `actions__hint${faces.length ? " has-selection" : ""}`, "aria-live": "polite" }, this.hintText(faces));
    this.showActions(main, hint);
    this.rack.setEnabled(true);
  }

  hintText(faces) {
    const view = this.view;
    const me = this.me;
    if (view.over || !me) return "";
    if (!faces.length) {
      if (!this.myTurn()) return t(me.opened ? "hint_plan_opened" : "hint_plan");
      if (view.phase === "draw") return this.takeMode ? t("hint_take_select") : t("hint_draw");
      return me.opened ? t("hint_select_opened") : t("hint_select");
    }
    const names = tileNames(faces);
    if (this.takeMode) {
      const arranged = arrangeMeld([...faces, this.topDiscard()], HOUSE_MELDS);
      const read = readMeld(arranged, HOUSE_MELDS);
      return read.ok ? t("hint_meld_ok", { kind: t(read.kind), points: read.points }) : t("hint_not_meld");
    }
    if (faces.length === 1) {
      if (this.myTurn() && view.phase === "play") return this.can("add") ? t("hint_one_opened", { tile: names }) : t("hint_one", { tile: names });
      return t("hint_selected", { tiles: names });
    }
    if (faces.length >= 3) {
      const read = readMeld(arrangeMeld(faces, HOUSE_MELDS), HOUSE_MELDS);
      if (read.ok) return t("hint_meld_ok", { kind: t(read.kind), points: read.points });
      return this.can("add") ? t("hint_not_meld_layoff") : t("hint_not_meld");
    }
    return this.can("add") ? t("hint_two_opened") : t("hint_two");
  }

  // -------------------------------------------------------------------------------------------------
  // Intents

  draw() {
    if (this.can("draw")) this.page.move("draw");
  }

  discard(faces = this.rack.selectedFaces()) {
    if (faces.length !== 1) {
      this.page.toast(t("select_one_to_discard"));
      return;
    }
    this.page.move(`discard ${faces[0]}`);
  }

  layMeld(faces = this.rack.selectedFaces()) {
    if (faces.length < 3) {
      this.page.toast(t("select_three"));
      return;
    }
    this.page.move(`lay ${arrangeMeld(faces, HOUSE_MELDS).join(" ")}`);
  }

  take(faces = this.rack.selectedFaces()) {
    const top = this.topDiscard();
    if (!top || faces.length < 2) {
      this.page.toast(t("hint_take_select"));
      return;
    }
    this.page.move(`take ${arrangeMeld([...faces, top], HOUSE_MELDS).join(" ")}`);
  }

  /** Display only: do these tiles read as one meld (the button that adds them to the opening lights
   * up only then)? The server checks the opening when it is laid. */
  makesAMeld(faces) {
    return faces.length >= 3 && readMeld(arrangeMeld(faces, HOUSE_MELDS), HOUSE_MELDS).ok;
  }

  addToTray(ids = this.rack.selectedIds()) {
    if (ids.length < 3) {
      this.page.toast(t("select_three"));
      return;
    }
    if (!this.makesAMeld(ids.map((id) => this.rack.faceOf(id)))) {
      this.page.toast(t("hint_not_meld"));
      return;
    }
    const faces = arrangeMeld(ids.map((id) => this.rack.faceOf(id)), HOUSE_MELDS);
    // Keep each id with its face, in the arranged order.
    const left = [...ids];
    const ordered = faces.map((face) => {
      const at = left.findIndex((id) => this.rack.faceOf(id) === face);
      return left.splice(at, 1)[0];
    });
    this.tray.push({ ids: ordered, faces });
    const hadFocus = this.els.me.contains(document.activeElement);
    this.rack.hide(ordered);
    this.renderControls();
    if (hadFocus) this.rack.focusCurrent();
  }

  removeFromTray(index) {
    const [meld] = this.tray.splice(index, 1);
    if (meld) this.rack.unhide(meld.ids);
    this.renderControls();
    this.els.rack.querySelector(".tile")?.focus();
  }

  layOpening() {
    if (!this.tray.length) return;
    this.page.move(`lay ${this.tray.map((meld) => meld.faces.join(" ")).join(" | ")}`);
  }

  dropOn(data, target, point) {
    const kind = target.dataset.drop;
    const faces = data.faces;
    const view = this.view;
    if (!view) return;
    if (kind === "meld") {
      const rect = target.getBoundingClientRect();
      this.toMeld(Number(target.dataset.meld), faces, { preferBefore: point.x < rect.left + rect.width / 2 });
    } else if (kind === "discard") {
      if (view.phase === "draw" && this.can("take")) this.take(faces);
      else this.discard(faces);
    } else if (kind === "table" || kind === "tray") {
      const me = this.me;
      if (me && !me.opened) this.addToTray(data.ids);
      else this.layMeld(faces);
    }
  }

  /** The server accepted one of our moves. The tiles it used left the rack (and the selection) with
   * the state frame; the selection of the others stays (the ack may come after the player's next click). */
  moved(text) {
    if (text.startsWith("take")) this.takeMode = false;
  }

  gameShortcut(key) {
    const view = this.view;
    const me = this.me;
    switch (key) {
      case "d": this.draw(); return true;
      case "x": this.discard(); return true;
      case "l":
        if (view.phase === "draw" && this.takeMode) this.take();
        else if (me && !me.opened) this.addToTray();
        else this.layMeld();
        return true;
      case "o": this.layOpening(); return true;
      case "t":
        if (this.can("take")) {
          this.takeMode = !this.takeMode;
          this.renderCenter();
          this.renderControls();
        }
        return true;
      case "escape": this.takeMode = false; this.rack.clearSelection(); this.renderCenter(); return true;
      default: return false;
    }
  }
}
