// What the two game tables (house.js, rearrange.js) share: reading the `state` frame (your seat, your
// view, what the server says you may do), your rack, your bar (avatar, status line, badges, clock),
// the action buttons, and keeping the keyboard focus where it was across a redraw. Each game extends
// GameTable with the middle of its table, its melds and its intents; the server decides every rule.

import { focusedKey, h } from "./dom.js";
import { t } from "./i18n.js";
import { Rack } from "./rack.js";
import { avatar, commonBadges } from "./seats.js";
import { seatName } from "./names.js";

/** A button of the action bar: `key` finds it again after a redraw, `shortcut` is shown as a key. */
export function actionButton(key, label, shortcut, enabled, onclick, primary = false) {
  return h("button", {
    type: "button",
    class: `button${primary && enabled ? " button--primary" : ""}`,
    disabled: !enabled,
    onclick,
    dataset: { key },
  }, label, shortcut ? h("kbd", { "aria-hidden": "true" }, shortcut) : null);
}

/** The face-down tiles to draw from (the house game's pile, the rearrange game's pool), with how many. */
export function pileSpot(label, count, { drawable, ariaLabel, dataset, onclick = null }) {
  const pile = h("button", {
    type: "button",
    class: `pile${drawable ? " is-ready" : ""}`,
    dataset,
    disabled: !drawable,
    "aria-label": ariaLabel,
    onclick,
  }, h("span", { class: "pile__stack", "aria-hidden": "true" }), h("span", { class: "pile__count", "aria-hidden": "true" }, String(count)));
  return h("div", { class: "spot spot--pile" }, h("p", { class: "spot__label" }, label), pile);
}

/**
 * The opening's progress, drawn the same way in both games (the house game's tray, the top of the
 * Rearrange table): one row with a title, a bar, and "18 of 30" (or "30 points: enough") with notes.
 */
export function openingMeter({ points, needed, ready, notes = [] }) {
  const total = points >= needed ? t("opening_points_reached", { points }) : t("opening_points_of", { points, needed });
  const progress = Math.min(100, Math.round((points / needed) * 100));
  return h("div", { class: "meter" },
    h("h2", { class: "meter__title" }, t("your_opening")),
    h("div", {
      class: "meter__bar",
      role: "progressbar",
      "aria-valuemin": "0",
      "aria-valuemax": String(needed),
      "aria-valuenow": String(Math.min(points, needed)),
      "aria-label": t("opening_progress"),
    }, h("span", { style: `width:${progress}%` })),
    h("p", { class: `meter__total${ready ? " is-ready" : ""}`, "aria-live": "polite" }, [total, ...notes].join(" · ")));
}

export class GameTable {
  constructor(page) {
    this.page = page;
    this.els = page.els;
    this.frame = null;
    this.rack = new Rack(this.els.rack, {
      storageKey: "rack",
      countElement: page.els.rackCount,
      onSelect: () => this.selectionChanged(),
      onDrop: (data, target, point) => this.dropOn(data, target, point),
      sortButtons: { colour: page.els.sortColour, number: page.els.sortNumber },
    });
    this.els.melds.dataset.drop = "table";
    page.els.sortColour?.addEventListener("click", () => this.rack.sortBy("colour"));
    page.els.sortNumber?.addEventListener("click", () => this.rack.sortBy("number"));
  }

  // -------------------------------------------------------------------------------------------------
  // Reading the frame

  get view() {
    return this.frame ? this.frame.view : null;
  }

  get mine() {
    return this.frame ? this.frame.seat : null;
  }

  get me() {
    const view = this.view;
    return view && this.mine !== null ? view.players[this.mine] : null;
  }

  /** A player's page with a rack (a spectator's has none). */
  seated() {
    const view = this.view;
    return Boolean(view && this.mine !== null && view.rack);
  }

  can(action) {
    const view = this.view;
    return Boolean(view && view.actions && view.actions.includes(action)) && !this.page.busy;
  }

  /** The game is on and it is your seat's turn. */
  turnIsMine() {
    const view = this.view;
    return Boolean(view && !view.over && this.mine !== null && view.turn === this.mine);
  }

  /** Your turn, to play now (a game may ask more than `turnIsMine`). */
  myTurn() {
    return this.turnIsMine();
  }

  // -------------------------------------------------------------------------------------------------
  // Drawing a frame

  render(frame) {
    const hadFocus = this.els.me.contains(document.activeElement);
    this.frame = frame;
    this.takeFrame(frame);
    this.renderCenter();
    this.renderTable();
    this.renderMe();
    this.renderControls();
    // The button a keyboard player pressed may be gone (the tray after the opening): back to the rack.
    if (hadFocus && !this.els.me.contains(document.activeElement)) this.rack.focusCurrent();
  }

  /** What a game keeps from a new frame before it is drawn (the rack, its own work in progress). */
  takeFrame(frame) {}

  /** Where this seat's rack order is kept: one entry per table, game and seat. */
  rackKey(frame) {
    const game = frame.table.current_game;
    return `rack:${frame.table.id}:${game ? game.id : 0}:${frame.seat}`;
  }

  /** The middle of the table: the game's spots (`centerSpots`), nothing before the first deal. */
  renderCenter() {
    const view = this.view;
    this.els.center.replaceChildren(...(view ? this.centerSpots(view) : []));
  }

  // -------------------------------------------------------------------------------------------------
  // You: your bar and the action bar

  renderMe() {
    const frame = this.frame;
    const mine = this.mine;
    const seated = this.seated();
    this.els.me.hidden = !seated;
    if (!seated) return;
    const info = frame.table.seats[mine];
    const me = this.me;
    const turn = this.turnIsMine();
    const badges = h("span", { class: "badges" });
    for (const badge of this.badges(mine, info, me)) badges.append(h("span", { class: `badge badge--${badge.kind}` }, badge.text));
    const total = frame.table.match && frame.table.match.games_played ? frame.table.match.totals[mine] : null;
    this.els.meBar.replaceChildren(
      avatar(info, { active: turn, clock: this.page.clock }),
      h("div", { class: "me__who" },
        h("p", { class: "me__name" }, seatName(info), " ", h("span", { class: "me__you" }, t("you"))),
        h("p", { class: "me__status", role: "status" }, this.statusText())),
      h("div", { class: "me__side" },
        badges,
        total !== null ? h("span", { class: "seat__points" }, t("points_short", { points: total })) : null,
        turn ? h("span", { class: "me__clock", "data-timer": "text" }) : null),
    );
    this.els.meBar.classList.toggle("is-turn", turn);
    this.els.autopilot.hidden = !(me && me.away && !me.left);
  }

  /** The badges of a seat (here and around the table): opened, the game's own, then every game's. */
  badges(index, info, player) {
    const badges = [];
    if (player && player.opened) badges.push({ kind: "opened", text: t("badge_opened") });
    return [...badges, ...this.gameBadges(index, player), ...commonBadges(this.frame, index, info, player)];
  }

  gameBadges(index, player) {
    return [];
  }

  statusText() {
    const view = this.view;
    if (!view) return t("waiting_deal");
    if (view.over) return t("game_over");
    if (view.turn !== this.mine) {
      const seat = this.frame.table.seats[view.turn];
      return seat && seat.bot ? t("bot_thinking", { name: seatName(seat) }) : t("their_turn_name", { name: seatName(seat) });
    }
    return this.yourTurnText();
  }

  /** The action bar: its buttons and the hint under them; a focused button stays focused. */
  showActions(main, hint) {
    const focusKey = focusedKey(this.els.actions);
    this.els.actions.replaceChildren(main, hint);
    if (focusKey) {
      const again = this.els.actions.querySelector(`[data-key="${focusKey}"]`);
      if (again && !again.disabled) again.focus({ preventScroll: true });
      else this.rack.focusCurrent();
    }
  }

  /** Keyboard shortcuts (the page calls this for keys pressed outside form fields): the rack's sorting
   * here, the game's own in `gameShortcut`. */
  shortcut(key) {
    if (!this.seated()) return false;
    switch (key) {
      case "c": this.rack.sortBy("colour"); return true;
      case "n": this.rack.sortBy("number"); return true;
      default: return this.gameShortcut(key);
    }
  }
}
