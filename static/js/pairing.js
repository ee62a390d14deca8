// Quick pairing's pages (SPEC 15): the waiting screen (time waited, how many wait, the typical wait; the
// page moves to the table by itself when players are found) and the seeks a player may take, live, from
// /ws/pairing/. While this socket is open the server keeps the player in the pool; closing the page takes
// them out a few seconds later.

import { Connection } from "./connection.js";
import { clear, h } from "./dom.js";

const words = JSON.parse(document.getElementById("pairing-strings")?.textContent || "{}");
const say = (key, params = {}) => (words[key] || key).replace(/%\((\w+)\)s/g, (_, name) => String(params[name] ?? ""));

const waiting = document.querySelector(".waiting");
const waited = document.getElementById("waited");
const count = document.getElementById("waiting-count");
const typical = document.getElementById("waiting-typical");
const status = document.getElementById("waiting-status");
const seekList = document.getElementById("seeks");

// The clock counts on by itself between the server's frames (every two seconds).
let waitedAt = Date.now() - 1000 * Number(waiting?.dataset.since || 0);
if (waiting && waited) {
  setInterval(() => { waited.textContent = String(Math.max(0, Math.floor((Date.now() - waitedAt) / 1000))); }, 1000);
}

// Once the page is leaving (for a table, or for the pool's page) it hears nothing more: the beat repeats
// "paired" every two seconds until the table's page has opened, and no frame heard meanwhile needs a
// second navigation.
let leaving = false;

function go(url) {
  if (leaving) return;
  leaving = true;
  if (status) status.textContent = say("paired");
  location.assign(url);
}

function showWaiting(frame) {
  if (!waiting) return;
  waitedAt = Date.now() - 1000 * frame.waited;
  if (count) count.textContent = String(frame.count);
  if (typical) typical.textContent = frame.typical === null ? say("unknown") : say("seconds", { s: Math.round(frame.typical) });
}

function seekRow(seek) {
  const label = h("span", { class: "seeks__label" },
    h("strong", {}, seek.player), ` (${seek.rating}) · ${seek.label} · ${say("range", { min: seek.min, max: seek.max })}`);
  if (seek.own) return h("li", { class: "seeks__item seeks__item--own" }, label, h("span", { class: "badge" }, say("yours")));
  const form = h("form", { method: "post", action: seekList.dataset.takeUrl.replace("/0/", `/${seek.id}/`), class: "seeks__take" },
    h("input", { type: "hidden", name: "csrfmiddlewaretoken", value: seekList.dataset.csrf }),
    h("button", { type: "submit", class: "button button--small button--primary", "data-seek": String(seek.id) }, say("take")));
  return h("li", { class: "seeks__item" }, label, form);
}

function showSeeks(seeks) {
  if (!seekList) return;
  clear(seekList);
  if (!seeks.length) seekList.append(h("li", { class: "seeks__empty" }, say("none")));
  for (const seek of seeks) seekList.append(seekRow(seek));
}

function onFrame(frame) {
  if (leaving) return;
  if (frame.type === "paired" && frame.url) go(frame.url);
  else if (frame.type === "waiting") showWaiting(frame);
  else if (frame.type === "requeued" && status) status.textContent = say("requeued");
  else if (frame.type === "left" && waiting) { leaving = true; location.assign("/play/quick/"); }
  else if (frame.type === "seeks") showSeeks(frame.seeks);
}

function onStatus(state) {
  if (status && state === "reconnecting") status.textContent = say("reconnecting");
  else if (status && state === "connected") status.textContent = "";
}

if (waiting || seekList) new Connection("/ws/pairing/", { onFrame, onStatus }).start();
