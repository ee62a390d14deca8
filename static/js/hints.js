// Hints at unrated tables (SPEC 13): a Hint button for your turn, 3 per game, and the best play the
// server finds from your own view, shown on your screen only: the tiles to play are marked on your rack
// and, in the Rearrange game, the table after the play is shown; "Play it" sends it. The server counts
// the hints and refuses them at rated tables; this module only shows what it answers.

import { h } from "./dom.js";
import { gameTable } from "./games.js";
import { t, tn } from "./i18n.js";
import { tileElement } from "./tiles.js";

const HINT_CODES = new Set(["hints_off", "hints_used_up", "hints_for_players", "hint_not_now", "hint_refused"]);

export class Hints {
  constructor(page, { slot, panel, statusUrl }) {
    this.page = page;
    this.slot = slot;
    this.panel = panel;
    this.statusUrl = statusUrl;
    this.frame = null;
    this.gameId = null;
    this.left = null; // hints left this game (null: not known yet)
    this.asking = false;
    this.hint = null; // the hint shown: the server's frame
    this.done = 0; // house game: steps of the hint already sent
    this.sentAt = null; // the version when the last step was sent
    this.button = h("button", { type: "button", class: "button button--small hint-button", dataset: { key: "hint" }, onclick: () => this.ask() });
    slot.append(this.button);
  }

  // -------------------------------------------------------------------------------------------------
  // Frames

  /** A frame from the server: a `hint` frame is taken here (true); a refused hint ends the wait. */
  take(frame) {
    if (frame.type === "hint") {
      this.asking = false;
      this.left = frame.left;
      if (this.frame && frame.version === this.frame.version) {
        this.hint = frame;
        this.done = 0;
      }
      this.render();
      return true;
    }
    if (frame.type === "error" && HINT_CODES.has(frame.code)) {
      this.asking = false;
      if (frame.code === "hints_used_up") this.left = 0;
      this.render();
    }
    return false;
  }

  /** After every `state` frame the page draws. */
  update(frame) {
    const previous = this.frame;
    this.frame = frame;
    const game = frame.table.current_game;
    const gameId = game ? game.id : null;
    if (gameId !== this.gameId) {
      this.gameId = gameId;
      this.left = null;
      this.hint = null;
      if (gameId !== null && this.seated()) this.fetchStatus();
    }
    if (this.hint && !this.myTurn()) this.hint = null;
    if (this.hint && previous && this.sentAt !== null && frame.version > this.sentAt) {
      this.done += 1; // the step sent was applied
      this.sentAt = null;
    }
    this.render();
  }

  async fetchStatus() {
    try {
      const response = await fetch(this.statusUrl, { headers: { Accept: "application/json" } });
      if (!response.ok) return;
      const status = await response.json();
      if (this.gameId !== null && (status.game === undefined || status.game === this.gameId)) this.left = status.left;
      this.render();
    } catch (error) {
      // Offline: the button says nothing about the count until the next game or hint.
    }
  }

  // -------------------------------------------------------------------------------------------------
  // Reading the frame

  seated() {
    const frame = this.frame;
    return Boolean(frame && frame.seat !== null && frame.view && frame.view.rack);
  }

  myTurn() {
    const view = this.frame && this.frame.view;
    return Boolean(view && !view.over && this.seated() && view.turn === this.frame.seat);
  }

  /** The house game before the draw with no discard to take: the only move is to draw. */
  mustDrawFirst() {
    const view = this.frame.view;
    return view.phase === "draw" && !view.actions.includes("take");
  }

  // -------------------------------------------------------------------------------------------------
  // Asking and playing

  ask() {
    if (this.asking || !this.myTurn()) return;
    this.asking = true;
    this.render();
    this.page.send({ type: "hint" });
  }

  play() {
    const hint = this.hint;
    if (!hint || this.page.busy) return;
    const move = hint.moves[this.done];
    if (move === undefined) return;
    this.sentAt = this.frame.version;
    this.page.move(move);
  }

  close() {
    this.hint = null;
    this.render();
  }

  // -------------------------------------------------------------------------------------------------
  // Drawing

  render() {
    const frame = this.frame;
    const shown = Boolean(frame && this.seated() && !frame.table.rated && frame.table.status === "playing");
    this.slot.hidden = !shown;
    if (!shown) {
      this.panel.hidden = true;
      this.mark([]);
      return;
    }
    let title = "";
    let enabled = this.myTurn() && !this.asking && this.left !== 0;
    if (!this.myTurn()) title = t("tip_not_your_turn");
    else if (this.mustDrawFirst()) {
      enabled = false;
      title = t("tip_draw_first");
    }
    if (this.left === 0) title = t("tip_none_left");
    this.button.disabled = !enabled;
    this.button.title = title;
    this.button.textContent = this.asking ? t("tip_asking") : this.left === null ? t("tip_title") : this.left === 0 ? t("tip_none_left") : tn("tip_button", this.left);
    this.renderPanel();
  }

  renderPanel() {
    const hint = this.hint;
    this.panel.hidden = !hint;
    if (!hint) {
      this.mark([]);
      return;
    }
    const wholeTable = gameTable(this.frame.table.game).hintShows === "table";
    const summary = hint.tiles > 0 ? tn("tip_places", hint.tiles, { points: hint.points }) : t("tip_nothing");
    const body = wholeTable ? this.targetTable(hint) : this.steps(hint);
    const more = hint.moves[this.done] !== undefined && !(hint.moves.length === 1 && hint.moves[0] === "draw");
    this.panel.replaceChildren(
      h("div", { class: "hint-panel__head" },
        h("h2", { class: "hint-panel__title" }, t("tip_title")),
        h("p", { class: "hint-panel__summary" }, summary)),
      body,
      h("div", { class: "hint-panel__actions" },
        more ? h("button", { type: "button", class: "button button--primary button--small", dataset: { key: "hint-play" }, onclick: () => this.play() },
          wholeTable || hint.moves.length === 1 ? t("tip_play") : t("tip_play_step")) : null,
        h("button", { type: "button", class: "button button--small button--ghost", dataset: { key: "hint-close" }, onclick: () => this.close() }, t("tip_close"))),
    );
    this.mark(hint.placed);
  }

  /** The Rearrange game: the table after the play, the tiles from your rack marked. */
  targetTable(hint) {
    const fromRack = [...hint.placed];
    const sets = hint.table.map((set) => h("div", { class: "meld hint-set" },
      h("div", { class: "meld__tiles" }, set.map((face) => {
        const at = fromRack.indexOf(face);
        if (at >= 0) fromRack.splice(at, 1);
        return tileElement(face, { inert: true, className: `tile--small${at >= 0 ? " is-hinted" : ""}` });
      }))));
    return h("div", { class: "hint-panel__body" }, h("p", { class: "hint-panel__lead" }, t("tip_target")), h("div", { class: "hint-panel__table" }, sets));
  }

  /** The house game: the steps of the turn, in order (the ones already done struck through). */
  steps(hint) {
    const melds = (this.frame.view.melds || []).map((meld) => meld.tiles);
    const items = hint.moves.map((move, index) => h("li", { class: index < this.done ? "is-done" : "" }, ...this.describe(move, melds)));
    return h("div", { class: "hint-panel__body" }, h("p", { class: "hint-panel__lead" }, t("tip_steps")), h("ol", { class: "hint-steps" }, items));
  }

  describe(move, melds) {
    const words = move.split(" ");
    const kind = words[0];
    const faces = (list) => h("span", { class: "replay-tiles" }, list.filter((word) => word && word !== ".." && word !== "|").map((face) => tileElement(face, { inert: true, className: "tile--small" })));
    const meldOf = (index) => h("span", { class: "hint-steps__meld" }, faces(melds[index] || []));
    switch (kind) {
      case "draw": return [t("tip_draw")];
      case "take": return [t("tip_take"), " ", faces(words.slice(1))];
      case "lay": return [t("tip_lay"), " ", ...move.slice(4).split(" | ").map((meld) => faces(meld.split(" ")))];
      case "add": return [t("tip_add"), " ", faces(words.slice(2)), " ", t("tip_on"), " ", meldOf(Number(words[1]))];
      case "joker": return [t("tip_joker"), " ", faces(words.slice(2)), " ", t("tip_from"), " ", meldOf(Number(words[1]))];
      case "discard": return [t("tip_discard"), " ", faces(words.slice(1))];
      default: return [move];
    }
  }

  /** Mark the hint's tiles on your rack (one rack tile per tile of the hint). */
  mark(faces) {
    const rack = this.page.els.rack;
    const left = [...faces];
    for (const tile of rack.querySelectorAll(".tile")) {
      const at = left.indexOf(tile.dataset.face);
      const hinted = at >= 0 && !tile.hidden;
      if (hinted) left.splice(at, 1);
      tile.classList.toggle("is-hinted", hinted);
    }
  }
}
