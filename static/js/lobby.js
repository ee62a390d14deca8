// The lobby, live: the open and playing tables from /ws/lobby/ (join or watch), and the create-table
// form's small helpers (the paces of the chosen game, a bot or a player for each other seat). The
// home page uses the same list, shorter, for "what's on".

import { Connection } from "./connection.js";
import { h } from "./dom.js";
import { t, tn } from "./i18n.js";
import { gameName, paceLabel, ratedLabel, seatName } from "./names.js";

const list = document.getElementById("lobby-tables");
const compact = list && list.dataset.compact === "1";
const limit = compact ? 4 : 100;
const tables = new Map();

function loadInitial() {
  const node = document.getElementById("lobby-initial");
  if (!node) return;
  for (const entry of JSON.parse(node.textContent)) tables.set(entry.id, entry);
}

function seatDots(entry) {
  const dots = h("span", { class: "seat-dots", "aria-hidden": "true" });
  for (let i = 0; i < entry.seat_count; i++) dots.append(h("span", { class: i < entry.taken ? "is-taken" : "" }));
  return dots;
}

function row(entry) {
  const open = entry.status === "open";
  const free = entry.seat_count - entry.taken;
  const item = h("li", { class: `lobby-table lobby-table--${entry.status}`, dataset: { id: String(entry.id), game: entry.game } });
  item.append(h("div", { class: "lobby-table__main" },
    h("p", { class: "lobby-table__game" }, gameName(entry.game), " ", h("span", { class: "lobby-table__id" }, t("table_n", { id: entry.id }))),
    h("p", { class: "lobby-table__players" }, entry.players.map(seatName).join(", "))));
  const facts = h("ul", { class: "lobby-table__facts" },
    h("li", {}, h("span", { class: `status-chip status-chip--${entry.status}` }, open ? t("open") : t("playing"))),
    h("li", { "aria-label": t("seats_taken", { taken: entry.taken, count: entry.seat_count }) }, seatDots(entry), " ", t("seats_taken", { taken: entry.taken, count: entry.seat_count })),
    h("li", {}, paceLabel(entry.turn_seconds)),
    h("li", {}, entry.match_length > 1 ? tn("match_of_games", entry.match_length) : t("single_game")),
    h("li", {}, h("span", { class: `rated-chip${entry.rated ? " is-rated" : ""}` }, ratedLabel(entry.rated, entry.unrated))));
  item.append(facts);
  const actions = h("div", { class: "lobby-table__actions" });
  if (open && free > 0) actions.append(joinForm(entry));
  actions.append(h("a", { class: "button button--small", href: entry.url }, t("watch")));
  item.append(actions);
  return item;
}

/** Join in one press: a form that takes the first free seat (a visitor becomes a guest on the spot). */
function joinForm(entry) {
  const action = list.dataset.joinUrl.replace("/0/", `/${entry.id}/`);
  return h("form", { method: "post", action, class: "inline-form" },
    h("input", { type: "hidden", name: "csrfmiddlewaretoken", value: list.dataset.csrf }),
    h("button", { type: "submit", class: "button button--primary button--small", "aria-label": t("join_table_n", { id: entry.id }) }, t("join")));
}

function render() {
  if (!list) return;
  const entries = [...tables.values()].sort((a, b) => (a.status === b.status ? b.id - a.id : a.status === "open" ? -1 : 1));
  const shown = entries.slice(0, limit);
  if (!shown.length) {
    list.replaceChildren(h("li", { class: "lobby-empty" }, compact ? t("nobody_playing") : t("no_tables")));
  } else {
    list.replaceChildren(...shown.map(row));
  }
  const count = document.getElementById("lobby-count");
  if (count) count.textContent = entries.length ? tn("live_tables", entries.length) : "";
}

function onFrame(frame) {
  if (frame.type === "tables") {
    tables.clear();
    for (const entry of frame.tables) tables.set(entry.id, entry);
  } else if (frame.type === "table") {
    if (frame.entry) tables.set(frame.id, frame.entry);
    else tables.delete(frame.id);
  } else {
    return;
  }
  render();
}

function onStatus(status) {
  const node = document.getElementById("lobby-conn");
  if (!node) return;
  node.dataset.state = status;
  node.querySelector(".conn__text").textContent = t("conn_" + status);
}

if (list) {
  loadInitial();
  render();
  new Connection("/ws/lobby/", { onFrame, onStatus }).start();
}

// ---------------------------------------------------------------------------------------------------
// The create-table form

const form = document.getElementById("open-table");
if (form) {
  const paces = JSON.parse(document.getElementById("game-paces").textContent);
  const paceSelect = form.querySelector('[name="turn_seconds"]');
  const seatRows = [...form.querySelectorAll("[data-seat-row]")];

  const update = () => {
    const game = form.querySelector('[name="game"]:checked')?.value;
    const seats = Number(form.querySelector('[name="seats"]:checked')?.value || 2);
    const options = paces[game] || [];
    const current = Number(paceSelect.value);
    if (options.length) {
      paceSelect.replaceChildren(...options.map((pace) => h("option", { value: String(pace.seconds) }, pace.label)));
      paceSelect.value = String(options.some((pace) => pace.seconds === current) ? current : options[0].seconds);
    }
    for (const rowEl of seatRows) {
      const index = Number(rowEl.dataset.seatRow);
      const shown = index < seats;
      const select = rowEl.querySelector("select");
      rowEl.hidden = !shown;
      select.disabled = !shown;
      // "Invite a bot account": the name, with the bot accounts online offered as the host types.
      const account = rowEl.querySelector("[data-account-row]");
      const inviting = shown && select.value === "account";
      account.hidden = !inviting;
      account.querySelector("input").disabled = !inviting;
    }
  };
  // Whether the table would be rated, and why not, for the choices made so far (the server's verdict for
  // each choice that changes it: apps/tables/forms.py rated_previews).
  const previews = JSON.parse(document.getElementById("rated-previews")?.textContent || "{}");
  const ratedNote = document.getElementById("rated-note");
  const updateRated = () => {
    if (!ratedNote) return;
    const seats = Number(form.querySelector('[name="seats"]:checked')?.value || 2);
    const choices = seatRows.filter((rowEl) => Number(rowEl.dataset.seatRow) < seats).map((rowEl) => rowEl.querySelector("select").value);
    const key = `${choices.some((value) => value === "easy" || value === "hard") ? 1 : 0}${choices.includes("account") ? 1 : 0}${Number(paceSelect.value) === 0 ? 1 : 0}`;
    const reasons = previews[key];
    if (!reasons) return;
    ratedNote.textContent = reasons.length ? ratedLabel(false, reasons) : t("rated_if_players");
    ratedNote.dataset.rated = reasons.length ? "0" : "1";
  };
  form.addEventListener("change", () => { update(); updateRated(); });
  update();
  updateRated();
  for (const input of form.querySelectorAll("[data-account-row] input")) searchBotsOnline(input, form.dataset.botsOnlineUrl);
}

/** Offer the bot accounts online whose names contain what is typed (GET /bots/online/?q=). */
function searchBotsOnline(input, url) {
  const list = document.getElementById(input.getAttribute("list"));
  const note = document.getElementById(input.getAttribute("aria-describedby"));
  let timer = null;
  let asked = 0;
  const search = async () => {
    const mine = ++asked;
    try {
      const response = await fetch(`${url}?q=${encodeURIComponent(input.value.trim())}`, { headers: { Accept: "application/json" } });
      if (!response.ok || mine !== asked) return;
      const { bots } = await response.json();
      list.replaceChildren(...bots.map((bot) => h("option", { value: bot.name }, bot.description || bot.owner)));
      note.textContent = bots.length ? tn("bots_online", bots.length) : t("no_bots_online");
    } catch (error) {
      // Offline for a moment: the name can still be typed in full.
    }
  };
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(search, 250);
  });
  input.addEventListener("focus", search, { once: true });
}
