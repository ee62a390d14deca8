// The arena at a table (SPEC 16): "Arena: <name> · rank N · P points · ends in mm:ss", with a link to
// the arena's page; once this table's arena match is over the link is the way back ("Back to the
// arena", where the player's next table is). Drawn from the `arena` frames of the table's socket
// (apps/tournaments/table_part.py); the strip stays hidden at a table no arena formed. A seated player
// may go berserk from it before the match's first move (a `berserk` frame; the server decides, and the
// table's next state shows the halved clock).

import { h, clear } from "./dom.js";
import { t, tn } from "./i18n.js";

function clock(seconds) {
  const left = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

export class ArenaStrip {
  constructor(element, send) {
    this.element = element;
    this.send = send; // sends a frame on the table's socket
    this.berserkOpen = false; // from the table's state: this seat may still go berserk
    this.frame = null;
    this.endsAt = 0; // performance.now() at the end (counted from the frame's `left`, not this clock)
    this.timer = null;
  }

  /** Take an `arena` frame (true), or leave any other to the page (false). */
  take(frame) {
    if (!this.element || frame.type !== "arena") return false;
    this.frame = frame;
    this.endsAt = performance.now() + Number(frame.left || 0) * 1000;
    this.draw();
    if (this.timer === null) this.timer = setInterval(() => this.tick(), 1000);
    return true;
  }

  /** The table's `state` frame: whether this player may still go berserk (a timed match of an arena,
   * before its first move, not berserk yet). The server refuses anything else with its own words. */
  state(frame) {
    const table = frame.table || {};
    const game = table.current_game;
    const seat = frame.seat !== null && frame.seat !== undefined && Array.isArray(table.seats) ? table.seats[frame.seat] : null;
    const open = Boolean(seat && !seat.berserk && table.turn_seconds && table.status === "playing" &&
      game && game.number === 1 && game.turn === 1 /* the first turn */ && !(table.match && table.match.over));
    if (open !== this.berserkOpen) {
      this.berserkOpen = open;
      if (this.frame) this.draw();
    }
  }

  draw() {
    const frame = this.frame;
    // A path of this site only.
    const url = typeof frame.url === "string" && /^\/(?!\/)/.test(frame.url) ? frame.url : null;
    // "Arena: <name>": a phone keeps "Arena" and cuts the name, never the facts after it.
    const name = [h("span", { class: "arena-strip__label" }, t("arena_label")), h("span", { class: "arena-strip__title" }, `: ${frame.name}`)];
    const facts = [];
    if (typeof frame.rank === "number") facts.push(t("arena_rank", { rank: frame.rank }));
    if (typeof frame.points === "number") {
      const streak = frame.streak >= 2 ? h("span", { class: "arena-strip__streak", title: t("arena_streak") }, "×2") : null;
      facts.push(h("span", {}, streak, tn("arena_points", frame.points)));
    }
    facts.push(h("span", { class: "arena-strip__left" }));
    const parts = [];
    if (frame.over && url) parts.push(h("a", { class: "button button--small button--primary arena-strip__back", href: url }, t("arena_back")));
    parts.push(url && !frame.over ? h("a", { class: "arena-strip__name", href: url }, name) : h("span", { class: "arena-strip__name" }, name));
    parts.push(h("span", { class: "arena-strip__facts" }, facts.flatMap((fact, i) => [h("span", { class: i ? "" : "arena-strip__sep" }, "\u00a0· "), fact])));
    if (this.berserkOpen && typeof frame.rank === "number" && !frame.over && this.send) {
      parts.push(h("button", { type: "button", class: "button button--small arena-strip__berserk", title: t("arena_berserk_hint"),
        "aria-label": `${t("arena_berserk")}: ${t("arena_berserk_hint")}`, onclick: () => this.send({ type: "berserk" }) }, t("arena_berserk")));
    }
    clear(this.element).append(...parts);
    this.element.dataset.over = frame.over ? "1" : "";
    this.element.hidden = false;
    this.tick();
  }

  tick() {
    const slot = this.element.querySelector(".arena-strip__left");
    if (!slot || !this.frame) return;
    const left = (this.endsAt - performance.now()) / 1000;
    const ended = this.frame.status === "finished" || this.frame.status === "cancelled" || left <= 0;
    slot.textContent = ended ? t("arena_ended") : t("arena_ends_in", { time: clock(left) });
  }
}
