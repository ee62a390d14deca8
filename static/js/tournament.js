// An arena's page, live: the standings and the tables in play arrive over /ws/tournaments/<id>/ only
// when they change (one frame per change, the same text for every viewer); a countdown to the start or
// the end; the "Play on" button waits out the pause. Every word comes from the page (data-t-*).

import { Connection } from "./connection.js";
import { h } from "./dom.js";

const root = document.getElementById("arena");

function text(name) {
  return root.dataset[name] || "";
}

let shown = Number(root.dataset.version || 0);
let status = root.dataset.status;

function renderStandings(rows) {
  const body = document.getElementById("arena-standings");
  const me = root.dataset.me;
  body.replaceChildren(...(rows.length ? rows.map(([rank, name, points, fire, matches, perf, paused]) =>
    h("tr", { class: name === me ? "board__me" : null },
      h("td", { class: "board__rank" }, String(rank)),
      h("td", { class: "board__player" }, name, paused ? " " : "", paused ? h("span", { class: "arena__paused" }, text("tPaused")) : ""),
      h("td", { class: "board__num" }, fire ? h("span", { class: "streak", title: text("tStreak") }, "×2") : "", String(points)),
      h("td", { class: "board__num" }, String(matches)),
      h("td", { class: "board__num" }, matches ? String(perf) : "–"))) :
    [h("tr", {}, h("td", { colspan: "5", class: "empty-state" }, text("tNobody")))]));
}

function renderTables(tables) {
  const list = document.getElementById("arena-tables");
  list.replaceChildren(...(tables.length ? tables.map(([id, players]) =>
    h("li", {}, h("span", {}, players.join(", ")), " ",
      h("a", { class: "button button--small", href: root.dataset.watchUrl.replace("/0/", `/${id}/`) }, text("tWatch")))) :
    [h("li", { class: "empty-state" }, text("tNone"))]));
}

/** The arena seated me at a new table: go and play there (as an arena's player expects, match after match). */
function followMyTable(tables) {
  const me = root.dataset.me;
  if (!me) return;
  const mine = tables.find(([, players]) => players.includes(me));
  if (mine) goToTable(mine[0]);
}

let leaving = false;

function goToTable(tableId) {
  // The arena opened a table for this player (told on their own topic the moment it opened).
  if (!root.dataset.me || String(tableId) === root.dataset.myTable) return;
  root.dataset.myTable = String(tableId);
  leaving = true; // a reload now would cut this navigation short
  location.assign(root.dataset.watchUrl.replace("/0/", `/${tableId}/`));
}

function onFrame(frame) {
  if (frame.type === "table") return goToTable(frame.table);
  if (frame.type !== "standings" || frame.version < shown) return;
  shown = frame.version;
  renderStandings(frame.rows);
  renderTables(frame.tables);
  followMyTable(frame.tables);
  if (frame.status !== status && !leaving) location.reload(); // started, finished or cancelled: the page's buttons change
}

function tick() {
  const clock = document.getElementById("arena-clock");
  const label = document.getElementById("arena-clock-label");
  const target = status === "planned" ? Date.parse(root.dataset.starts) : status === "running" ? Date.parse(root.dataset.ends) : null;
  if (target === null) return;
  const left = Math.max(0, Math.round((target - Date.now()) / 1000));
  label.textContent = status === "planned" ? text("tStarts") : text("tEnds");
  const hours = Math.floor(left / 3600), minutes = Math.floor((left % 3600) / 60), seconds = left % 60;
  clock.textContent = `${hours ? hours + ":" : ""}${String(minutes).padStart(hours ? 2 : 1, "0")}:${String(seconds).padStart(2, "0")}`;
}

function waitPlayOn() {
  const button = document.getElementById("play-on");
  if (!button) return;
  let wait = Number(button.dataset.wait || 0);
  const label = button.textContent;
  const step = () => {
    button.disabled = wait > 0;
    button.textContent = wait > 0 ? `${label} (${wait})` : label;
    if (wait-- > 0) setTimeout(step, 1000);
  };
  step();
}

if (root) {
  tick();
  setInterval(tick, 1000);
  waitPlayOn();
  const live = document.getElementById("arena-live");
  const connection = new Connection(`/ws/tournaments/${root.dataset.id}/`, {
    onFrame,
    onStatus: (state) => { live.textContent = state === "reconnecting" ? text("tReconnecting") : text("tLive"); },
    shownVersion: () => shown,
  });
  connection.start();
}
