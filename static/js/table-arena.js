// The arena at a table (SPEC 16): "Arena: <name> · rank N · P points · ends in mm:ss", with a link to
// the arena's page; once this table's arena match is over the link is the way back ("Back to the
// arena", where the player's next table is). Drawn from the `arena` frames of the table's socket
// (apps/tournaments/table_part.py); the strip stays hidden at a table no arena formed.

import { h, clear } from "./dom.js";
import { t, tn } from "./i18n.js";

function clock(seconds) {
  const left = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

export class ArenaStrip {
  constructor(element) {
    this.element = element;
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
