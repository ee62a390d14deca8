// The players around the table: name, tiles in hand, whose turn it is (with the clock ring), and the
// badges a player reads at a glance (opened, the indicator's twin, autopilot, left, bot, host).

import { h, unchanged } from "./dom.js";
import { t, tn } from "./i18n.js";
import { seatName } from "./names.js";

/** Seats in play order, starting after `mine` (the next player first); everyone for a spectator.
 * `withMine`: your own seat too, first (before the match, when the list is who has sat down). */
export function seatOrder(count, mine, withMine = false) {
  if (mine === null) return [...Array(count).keys()];
  const order = [];
  for (let step = 0; step < count; step++) order.push((mine + step) % count);
  return withMine ? order : order.slice(1);
}

export function seatColourClass(index) {
  return `seat-colour-${index % 4}`;
}

const BOT_ICON = '<svg viewBox="0 0 24 24" width="60%" height="60%" fill="currentColor" aria-hidden="true"><rect x="11" y="1.5" width="2" height="3.5" rx="1"/><circle cx="12" cy="1.8" r="1.6"/><rect x="4" y="5.5" width="16" height="13" rx="4"/><rect x="1.5" y="9.5" width="2" height="5" rx="1"/><rect x="20.5" y="9.5" width="2" height="5" rx="1"/><circle cx="9" cy="11.5" r="1.9" fill="#1d5c4a"/><circle cx="15" cy="11.5" r="1.9" fill="#1d5c4a"/><rect x="8.5" y="15" width="7" height="1.6" rx=".8" fill="#1d5c4a"/><rect x="7" y="19.5" width="10" height="3" rx="1.2"/></svg>';

function initials(name) {
  const letters = name.replace(/[^\p{L}\p{N}]/gu, "");
  return (letters[0] || "?").toUpperCase();
}

/** The avatar: a round badge with an initial (a robot for bots, an empty chair's dashed ring for a
 * free seat) and, on their turn, the clock ring. */
export function avatar(seatInfo, { active, clock }) {
  const box = h("span", { class: `avatar ${seatColourClass(seatInfo.index)}${seatInfo.empty ? " avatar--empty" : ""}`, "aria-hidden": "true" });
  const face = h("span", { class: "avatar__face" });
  if (seatInfo.empty) face.textContent = "";
  else if (seatInfo.bot || seatInfo.bot_account) face.innerHTML = BOT_ICON;
  else face.textContent = initials(seatInfo.name || "?");
  box.append(face);
  if (active) box.append(clock.ring());
  return box;
}

/**
 * One card per other player. `player` is the engine's view of that seat (tiles, opened, away, left)
 * or null before the first deal.
 */
export function renderSeats(container, { frame, clock, badges, actions = () => null, away = new Set() }) {
  const table = frame.table;
  const view = frame.view;
  const mine = frame.seat;
  const turn = view && !view.over ? view.turn : null;
  const cards = [];
  // Before the match the list is who has sat down: your own seat is in it (after, your bar shows you).
  const waiting = table.status === "open";
  for (const index of seatOrder(table.seat_count, mine, waiting)) {
    const info = table.seats[index];
    const player = view && view.players ? view.players[index] : null;
    const active = turn === index;
    const classes = ["seat", seatColourClass(index)];
    if (active) classes.push("is-turn");
    if (info.empty) classes.push("is-empty");
    if (away.has(index) && !info.empty && !info.bot) classes.push("is-offline");
    if ((player && player.left) || info.left) classes.push("has-left");
    const card = h("article", { class: classes.join(" "), "aria-label": seatLabel(info, player, active, frame, away.has(index)) });
    card.append(avatar(info, { active, clock }));
    const body = h("div", { class: "seat__body" });
    // A bot account's card names it plainly: its BOT badge is on the card.
    const name = info.empty && !info.invited ? t("seat_free", { n: index + 1 }) : info.bot_account ? info.name : seatName(info);
    body.append(h("p", { class: "seat__name" }, name,
      index === mine ? h("span", { class: "seat__you" }, " ", t("you")) : null));
    const line = h("p", { class: "seat__line" });
    if (player && !player.left) {
      line.append(h("span", { class: `seat__count${player.tiles <= 3 ? " is-low" : ""}` }, h("span", { class: "mini-back", "aria-hidden": "true" }), tn("tiles", player.tiles)));
    }
    const total = table.match && table.match.games_played ? table.match.totals[index] : null;
    if (total !== null && total !== undefined) line.append(h("span", { class: "seat__points" }, t("points_short", { points: total })));
    if (active) line.append(h("span", { class: "seat__clock", "data-timer": "text" }));
    body.append(line);
    const badgeRow = h("p", { class: "badges" });
    for (const badge of badges(index, info, player)) badgeRow.append(h("span", { class: `badge badge--${badge.kind}`, title: badge.title || null }, badge.text));
    if (badgeRow.children.length) body.append(badgeRow);
    const seatActions = info.empty ? null : actions(info);
    if (seatActions) body.append(seatActions);
    card.append(body);
    cards.push(card);
  }
  // Drawn as before (a presence frame that changes nothing here, the same state again): keep the cards,
  // so a press on a seat's Report or Mute is never lost to a redraw (dom.js unchanged). The seats' users
  // are in the key, as the buttons' handlers act on them.
  const drawn = JSON.stringify(table.seats.map((seat) => seat.user_id)) + cards.map(markupWithoutClock).join("");
  if (unchanged(container, drawn)) return;
  container.replaceChildren(...cards);
}

/** A card's markup less what the clock paints: timer.js paints its nodes where they are on every tick
 * (a ring drawn a second later differs), so only where a clock stands belongs to what the card shows. */
function markupWithoutClock(card) {
  const copy = card.cloneNode(true);
  for (const node of copy.querySelectorAll("[data-timer]")) {
    const stand = document.createElement("i");
    stand.dataset.timer = node.dataset.timer;
    node.replaceWith(stand);
  }
  return copy.outerHTML;
}

function seatLabel(info, player, active, frame, offline) {
  const parts = [info.empty && !info.invited ? t("seat_free", { n: info.index + 1 }) : seatName(info)];
  if (info.index === frame.seat) parts.push(t("you"));
  if (player && !player.left) parts.push(tn("tiles", player.tiles));
  if (active) parts.push(t("their_turn"));
  if (player && player.opened) parts.push(t("badge_opened"));
  if (player && player.away) parts.push(t("badge_autopilot"));
  if (offline && !info.empty && !info.bot) parts.push(t("badge_offline"));
  if ((player && player.left) || info.left) parts.push(t("badge_left"));
  if (frame.view && frame.view.twin_seat === info.index) parts.push(t("badge_twin_title"));
  return parts.join(", ");
}

/** Badges every game shows; a game adds its own (house: opened, twin). */
export function commonBadges(frame, index, info, player) {
  const badges = [];
  if (info.bot_account) badges.push({ kind: "bot-account", text: t("bot_account_mark"), title: t("bot_account_title") });
  if (player && player.away && !player.left) badges.push({ kind: "away", text: t("badge_autopilot") });
  if ((player && player.left) || info.left) badges.push({ kind: "left", text: t("badge_left") });
  return badges;
}
