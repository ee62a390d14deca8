// The table page: one connection, one clock, the players around the table, the table of the game
// being played (house or rearrange), the waiting room before a match and the scores after each game.
// It renders the `state` frames the server sends and sends intents; the server decides every rule.

import { ArenaStrip } from "./table-arena.js";
import { Chat } from "./chat.js";
import { Connection } from "./connection.js";
import { h } from "./dom.js";
import { setupFullscreen } from "./fullscreen.js";
import { EventLog } from "./events.js";
import { offerSeed, renderFair, seedingText } from "./fair.js";
import { gameTable } from "./games.js";
import { Hints } from "./hints.js";
import { t, tn } from "./i18n.js";
import { renderResults, tickCountdowns } from "./results.js";
import { commonBadges, renderSeats } from "./seats.js";
import { Sounds } from "./sounds.js";
import { TurnClock } from "./timer.js";
import { renderWaiting } from "./waiting.js";
import { paceLabel, ratedLabel, seatName } from "./names.js";

const app = document.getElementById("table-app");
const config = app.dataset;
// A spectator's page has no rack and no player bar: the scripts get detached stand-ins.
const byId = (id) => document.getElementById(id) || document.createElement("div");
const els = {
  app,
  meta: document.getElementById("table-meta"),
  pace: byId("pace-control"),
  paceSelect: byId("pace-select"),
  fair: document.getElementById("fair-line"),
  conn: document.getElementById("conn"),
  seats: document.getElementById("seats"),
  felt: document.getElementById("felt"),
  center: document.getElementById("felt-center"),
  melds: document.getElementById("melds"),
  notes: document.getElementById("felt-notes"),
  status: document.getElementById("felt-status"),
  why: document.getElementById("table-why"),
  prematch: document.getElementById("prematch"),
  me: byId("me"),
  meBar: byId("me-bar"),
  autopilot: byId("autopilot"),
  tray: byId("tray"),
  actions: byId("actions"),
  rack: byId("rack"),
  rackCount: byId("rack-count"),
  sortColour: document.getElementById("sort-colour"),
  sortNumber: document.getElementById("sort-number"),
  results: document.getElementById("results"),
  toasts: document.getElementById("toasts"),
  leave: document.getElementById("leave-button"),
  keys: document.getElementById("keys-button"),
  keysHelp: document.getElementById("keys-help"),
  leaveDialog: document.getElementById("leave-dialog"),
  sound: document.getElementById("sound-button"),
  fullscreen: document.getElementById("fullscreen-button"),
};

const page = {
  els,
  clock: new TurnClock(),
  frame: null,
  shown: -1,
  busy: false,
  busyTimer: null,
  resultsHidden: null, // the game whose score table the player closed
  connection: null,
  away: new Set(), // seats whose player has no socket open to the table (presence frames)

  /** Send a move; true when it went out (the server's answer comes as an ack or an error). */
  move(text) {
    if (!this.frame) return false;
    if (this.busy) return false;
    const id = this.connection.nextId();
    const sent = this.connection.send({ type: "move", move: text, version: this.shown, id });
    if (!sent) {
      this.toast(t("not_connected"), "error");
      return false;
    }
    this.pending = { id, text };
    this.setBusy(true);
    return true;
  },

  send(frame) {
    if (!this.connection.send(frame)) this.toast(t("not_connected"), "error");
  },

  setBusy(busy, rerender = true) {
    const changed = this.busy !== busy;
    this.busy = busy;
    clearTimeout(this.busyTimer);
    if (busy) this.busyTimer = setTimeout(() => this.setBusy(false), 8000);
    app.classList.toggle("is-busy", busy);
    if (changed && rerender && this.frame) controller.render(this.frame);
  },

  toast(message, kind = "info") {
    const item = h("p", { class: `toast toast--${kind}` }, message);
    els.toasts.append(item);
    while (els.toasts.children.length > 3) els.toasts.firstElementChild.remove();
    setTimeout(() => item.classList.add("is-leaving"), 4500);
    setTimeout(() => item.remove(), 5000);
  },
};

const log = new EventLog(document.getElementById("log"));
const chat = new Chat(page, {
  root: document.getElementById("chat"),
  list: document.getElementById("chat-list"),
  form: document.getElementById("chat-form"),
  input: document.getElementById("chat-input"),
  phrases: document.getElementById("chat-phrases"),
  count: document.getElementById("chat-count"),
  report: document.getElementById("report-dialog"),
}, { id: config.userId ? Number(config.userId) : null, guest: Boolean(config.guest), staff: Boolean(config.staff) });
// Your clock's last seconds tick only on your own turn.
const sounds = new Sounds(els.sound, () => (app.classList.contains("is-my-turn") ? page.clock.secondsLeft() : null));
setupFullscreen(els.fullscreen, app);
const initial = JSON.parse(document.getElementById("table-frame").textContent);
const controller = new (gameTable(initial.table.game))(page);
// Hints at unrated tables (SPEC 13): a player's page only.
const hintSlot = document.getElementById("hint-slot");
const hints = hintSlot ? new Hints(page, { slot: hintSlot, panel: document.getElementById("hint-panel"), statusUrl: config.hintsUrl }) : null;

function render(frame) {
  sounds.frame(page.frame, frame);
  page.frame = frame;
  page.shown = frame.version;
  const table = frame.table;
  const view = frame.view;
  const game = table.current_game;
  page.clock.set(game && view && !view.over ? game.seconds_left : null, table.turn_seconds);
  app.dataset.status = table.status;
  app.dataset.role = frame.seat === null ? "spectator" : "player";
  els.meta.textContent = metaText(table);
  // Alone with the site's bots, the player sets the pace, before or during the match (the server checks).
  const alone = frame.seat !== null && (table.status === "open" || table.status === "playing")
    && table.seats.every((seat) => seat.index === frame.seat || seat.bot);
  els.pace.hidden = !alone;
  if (alone && document.activeElement !== els.paceSelect) els.paceSelect.value = String(table.turn_seconds);
  renderFair(els.fair, frame);
  offerSeed(frame, (message) => page.connection.send(message));
  log.update(frame);
  renderSeats(els.seats, seatOptions(frame));
  renderWaiting(els.prematch, els.felt, frame, config, (message) => page.send(message));
  controller.render(frame);
  hints?.update(frame);
  renderFeltStatus(frame);
  const shown = renderResults(els.results, frame, {
    rematch: () => page.send({ type: "rematch" }),
    ready: () => page.send({ type: "ready" }),
    newMatch: () => page.send({ type: "new_match" }),
    hide: () => {
      page.resultsHidden = resultsKey(frame);
      els.results.hidden = true;
    },
    lobbyUrl: config.lobbyUrl,
    replayUrl: config.replayUrl,
    keepAccountUrl: config.guest ? config.keepAccountUrl : "",
  });
  if (shown && page.resultsHidden === resultsKey(frame)) els.results.hidden = true;
  if (!shown) page.resultsHidden = null;
  els.leave.hidden = frame.seat === null || table.status === "closed";
  const myTurn = view && !view.over && frame.seat !== null && view.turn === frame.seat;
  document.title = (myTurn ? "● " + t("title_your_turn") + " · " : "") + config.title;
  app.classList.toggle("is-my-turn", Boolean(myTurn));
  page.clock.tick();
  focusAtStart(frame);
}

// Where the keyboard starts: once the player has a rack (right after Play now, or at the deal), on its
// first tile (Tab goes on to the table, Shift+Tab back to the buttons), unless the player already put
// the focus somewhere. The skip link at the top of the page leads there too.
let focusPlaced = false;
function focusAtStart(frame) {
  if (focusPlaced || frame.seat === null || !frame.view || !frame.view.rack || !els.rack.querySelector(".tile")) return;
  focusPlaced = true;
  if (document.activeElement && document.activeElement !== document.body) return;
  controller.rack.focusCurrent();
}

// Phones upright: your block sticks to the bottom of the screen. What takes the keyboard focus above it
// (a meld's tile reached with the arrows) is scrolled clear of it, never left hidden behind it.
document.addEventListener("focusin", (event) => {
  const target = event.target;
  if (!(target instanceof Element) || els.me.hidden || els.me.contains(target) || target.closest("dialog, .chat")) return;
  if (getComputedStyle(els.me).position !== "sticky") return;
  const below = target.getBoundingClientRect().bottom - els.me.getBoundingClientRect().top;
  if (below > 0) window.scrollBy({ top: below + 12, behavior: "instant" });
});

document.querySelector('.skip-link[href="#rack"]')?.addEventListener("click", (event) => {
  if (!els.rack.querySelector(".tile")) return; // no rack yet: the link only moves to its place
  event.preventDefault();
  els.rack.scrollIntoView({ block: "nearest" });
  controller.rack.focusCurrent();
});

function seatOptions(frame) {
  return { frame, clock: page.clock, badges: (index, info, player) => badgesFor(frame, index, info, player),
    actions: (info) => chat.seatActions(info), away: page.away };
}

function resultsKey(frame) {
  const game = frame.table.current_game;
  return `${frame.table.status}:${game ? game.id : 0}`;
}

function badgesFor(frame, index, info, player) {
  const badges = controller.badges ? controller.badges(index, info, player) : commonBadges(frame, index, info, player);
  // Presence (SPEC 13): the server says which seats have no socket open; a seat that left says so already.
  if (page.away.has(index) && !info.empty && !info.bot && !info.left && !(player && player.left)) {
    badges.unshift({ kind: "offline", text: t("badge_offline"), title: t("badge_offline_title") });
  }
  return badges;
}

function metaText(table) {
  const parts = [];
  if (table.match && table.status !== "open") {
    const number = table.current_game ? table.current_game.number : table.match.games_played;
    parts.push(table.match.length > 1 ? t("game_n_of_m", { n: number, m: table.match.length }) : t("single_game"));
  } else {
    parts.push(table.match_length > 1 ? tn("match_of_games", table.match_length) : t("single_game"));
  }
  parts.push(paceLabel(table.turn_seconds));
  parts.push(table.status !== "open" && table.match && table.match.aborted ? t("match_aborted") : ratedLabel(table.rated, table.unrated));
  if (table.private) parts.push(t("private"));
  return parts.join(" · ");
}

function renderFeltStatus(frame) {
  const table = frame.table;
  const view = frame.view;
  let text = "";
  if (table.status === "closed") text = t("table_closed");
  else if (seedingText(frame)) text = seedingText(frame);
  else if (frame.seat === null && view && !view.over && view.turn !== null) {
    const seat = table.seats[view.turn];
    text = t("watching_turn", { name: seatName(seat) });
  }
  els.status.textContent = text;
  els.status.hidden = !text;
}

// -----------------------------------------------------------------------------------------------------
// Frames from the server

function onFrame(frame) {
  // Quick pairing: another paired player did not come, this table closed, and this player is back at the
  // front of the pool: the waiting screen again (a path of this site only).
  if (frame.type === "pairing" && typeof frame.url === "string" && /^\/(?!\/)/.test(frame.url)) {
    location.assign(frame.url);
    return;
  }
  if (arena.take(frame)) return; // an arena's table: its standing and time left (table-arena.js)
  if (hints && hints.take(frame)) return;
  if (frame.type === "presence") {
    page.away = new Set(frame.away);
    if (page.frame) renderSeats(els.seats, seatOptions(page.frame));
    return;
  }
  if (chat.take(frame)) {
    // Who this viewer mutes came with it: the seats offer Mute or Unmute.
    if ((frame.type === "muted" || frame.type === "chat_history") && page.frame) renderSeats(els.seats, seatOptions(page.frame));
    return;
  }
  if (frame.type === "state") {
    if (frame.version < page.shown) return;
    page.setBusy(false, false);
    render(frame);
    arena.state(frame); // may this player still go berserk (an arena's table)
  } else if (frame.type === "ack") {
    if (page.pending && frame.ref === page.pending.id && controller.moved) controller.moved(page.pending.text);
    page.pending = null;
    page.setBusy(false);
  } else if (frame.type === "error") {
    const refused = page.pending !== null && page.pending !== undefined && frame.ref === page.pending.id;
    page.pending = null;
    page.setBusy(false);
    if (refused && controller.refused) controller.refused(frame);
    if (frame.code !== "stale") page.toast(frame.message, "error");
  }
}

function onStatus(status) {
  els.conn.dataset.state = status;
  els.conn.querySelector(".conn__text").textContent = t("conn_" + status);
  if (status === "resynced") {
    setTimeout(() => {
      if (els.conn.dataset.state === "resynced") onStatus("connected");
    }, 2500);
  }
}

const arena = new ArenaStrip(document.getElementById("arena-strip"), (message) => page.send(message));
page.connection = new Connection(config.ws, { onFrame, onStatus, shownVersion: () => page.shown });

// -----------------------------------------------------------------------------------------------------
// Buttons outside the game: I'm back, leave, keys

els.autopilot.querySelector("button")?.addEventListener("click", () => page.send({ type: "back" }));
els.leave.addEventListener("click", () => {
  const table = page.frame && page.frame.table;
  const playing = table && table.status === "playing";
  const aborts = playing && table.match && table.match.leaving_aborts;
  els.leaveDialog.querySelector("[data-text]").textContent = aborts ? t("leave_aborts_match") : playing ? t("leave_during_match") : t("leave_before_match");
  els.leaveDialog.showModal();
});
els.leaveDialog.addEventListener("close", () => {
  if (els.leaveDialog.returnValue === "leave") page.send({ type: "leave" });
});
els.keys.addEventListener("click", () => els.keysHelp.showModal());
els.paceSelect.addEventListener("change", () => page.send({ type: "pace", seconds: Number(els.paceSelect.value) }));

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target.closest("input, select, textarea, dialog[open]")) return;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key.toLowerCase();
  if (key === "?") {
    els.keysHelp.showModal();
    event.preventDefault();
    return;
  }
  if (key === "b" && page.frame && page.frame.seat !== null) {
    const view = page.frame.view;
    if (view && view.players && view.players[page.frame.seat] && view.players[page.frame.seat].away) page.send({ type: "back" });
    return;
  }
  if (controller.shortcut && controller.shortcut(key, event)) event.preventDefault();
});

setInterval(tickCountdowns, 500);

render(initial);
page.connection.start();
