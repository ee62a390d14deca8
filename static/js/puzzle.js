// The puzzle trainer (SPEC 18): the puzzle's position drawn and played with the table's own modules
// (games.js picks the game's table: the same tiles, rack, drag and drop and scratchpad as at a table).
// "Check" sends only the play, as the table's notation; the server judges it and answers with the
// verdict and the ratings. The solution is fetched only after an answer or giving up (the server refuses
// it before that), and drawn here with the same tiles.

import { h } from "./dom.js";
import { gameTable } from "./games.js";
import { t, tn } from "./i18n.js";
import { tileElement, tileNames } from "./tiles.js";

const app = document.getElementById("puzzle-app");
const config = app.dataset;
const detached = () => document.createElement("div");
const els = {
  melds: document.getElementById("melds"),
  notes: document.getElementById("felt-notes"),
  why: document.getElementById("table-why"),
  center: document.getElementById("felt-center"),
  me: document.getElementById("me"),
  meBar: detached(),
  autopilot: detached(),
  tray: document.getElementById("tray"),
  actions: document.getElementById("actions"),
  rack: document.getElementById("rack"),
  rackCount: document.getElementById("rack-count"),
  sortColour: document.getElementById("sort-colour"),
  sortNumber: document.getElementById("sort-number"),
  toasts: document.getElementById("toasts"),
};
const verdictBox = document.getElementById("verdict");
const solutionBox = document.getElementById("solution");
const giveUpButton = document.getElementById("give-up");
const showButton = document.getElementById("show-solution");
const againButton = document.getElementById("start-again");
const started = Date.now();
let answered = Boolean(config.answered);
let solutionUrl = null;

async function post(url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRFToken": config.csrf },
    credentials: "same-origin",
    body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw Object.assign(new Error(data.message || t("error_server")), { data });
  return data;
}

const page = {
  els,
  busy: false,
  clock: { ring: () => h("span") },
  connection: { send: () => true, nextId: () => 0 }, // drafts stay on the page: nothing to keep on a server

  /** A move of the table. A game answered by its table (Rearrange): End turn, here Check, sends the play
   * ("play <table>") to be judged. A game answered by its moves (the house game): each move is applied
   * by the server to the position (the view after the moves so far comes back), and the discard that
   * ends the turn sends the turn's moves to be judged. */
  move(text) {
    if (this.busy) return false;
    if (frame.answer === "table") {
      check(text.replace(/^play\s+/, ""));
      return true;
    }
    if (/^discard\b/.test(text)) {
      check([...moves, text].join("; "));
      return true;
    }
    this.setBusy(true);
    post(config.stepUrl, { moves: [...moves, text] })
      .then((data) => {
        moves.push(text);
        frame.view = data.view;
        againButton.hidden = false;
      })
      .catch((error) => {
        this.toast(error.message, "error");
        table.refused?.();
      })
      .finally(() => this.setBusy(false));
    return true;
  },

  setBusy(busy) {
    this.busy = busy;
    app.classList.toggle("is-busy", busy);
    table.render(frame);
  },

  toast(message, kind = "info") {
    const item = h("p", { class: `toast toast--${kind}` }, message);
    els.toasts.append(item);
    setTimeout(() => item.remove(), 5000);
  },
};

const moves = []; // the turn's moves so far (a game answered by its moves)

function check(play) {
  page.setBusy(true);
  showVerdict(h("p", {}, t("checking")), "pending");
  post(config.answerUrl, { play, mode: config.mode, seconds: Math.round((Date.now() - started) / 1000) })
    .then((data) => judged(data, false))
    .catch((error) => showVerdict(h("p", {}, error.message), "error"))
    .finally(() => page.setBusy(false));
}

function showVerdict(content, kind) {
  verdictBox.hidden = false;
  verdictBox.className = `verdict verdict--${kind}`;
  verdictBox.replaceChildren(content);
}

function judged(data, gaveUp) {
  answered = true;
  if (data.csrf) config.csrf = data.csrf; // signing in as a guest rotated it
  solutionUrl = data.solution_url;
  const byMoves = frame.answer === "moves";
  let text;
  if (gaveUp) text = t("verdict_gave_up");
  else if (data.right && data.kind === "open") text = t("verdict_best_open");
  else if (data.right && data.kind === "go-out") text = byMoves ? t("verdict_best_go_out_moves") : t("verdict_best_out");
  else if (data.right) text = t("verdict_best", { reached: data.reached });
  else if (!data.legal) text = byMoves ? t("verdict_illegal_moves") : t("verdict_illegal");
  else if (data.kind === "open") text = t("verdict_not_opened");
  else text = tn("verdict_short", data.short_by, { count: data.short_by, target: data.target });
  const lines = [h("p", { class: "verdict__text" }, text)];
  if (data.rated) lines.push(h("p", { class: "verdict__rating" }, t("rating_moved", { before: data.rating_before, after: data.rating_after })));
  else lines.push(h("p", { class: "verdict__rating" }, t("not_rated_again")));
  if (data.streak) {
    lines.push(h("p", { class: "verdict__streak" }, data.streak.over ? t("streak_over", { count: data.streak.count }) : t("streak_now", { count: data.streak.count })));
    const counter = document.getElementById("streak-count");
    if (counter) counter.textContent = t("streak_now", { count: data.streak.over ? 0 : data.streak.count });
  }
  lines.push(h("p", { class: "verdict__actions" },
    gaveUp ? null : h("button", { type: "button", class: "button button--small", onclick: () => showSolution() }, t("show_solution")),
    h("a", { class: "button button--small button--primary", href: config.nextUrl }, t("next_puzzle"))));
  showVerdict(h("div", {}, ...lines), data.right ? "right" : "short");
  giveUpButton.hidden = true;
  showButton.hidden = true; // the verdict has its own
  const rating = document.getElementById("puzzle-rating");
  if (rating && data.rated) rating.textContent = String(data.rating_after);
  const themes = document.getElementById("puzzle-themes");
  if (themes && data.themes && data.themes.length) themes.textContent = ` · ${data.themes.join(", ")}`; // named once answered
  if (gaveUp) showSolution();
}

async function showSolution() {
  const url = solutionUrl || `${config.answerUrl.replace(/answer\/$/, "solution/")}`;
  const response = await fetch(url, { credentials: "same-origin" });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    page.toast(data.message || t("error_server"), "error");
    return;
  }
  const sets = data.table.map((meld) => h("div", { class: "meld solution__set" },
    h("div", { class: "meld__tiles" }, ...meld.split(" ").map((face) => tileElement(face, { inert: true })))));
  const placed = data.placed ? data.placed.split(" ") : [];
  solutionBox.hidden = false;
  solutionBox.replaceChildren(
    h("h2", { id: "solution-title" }, t("solution_title")),
    placed.length ? h("p", {}, t("solution_placed", { tiles: tileNames(placed) })) : null,
    data.moves && data.moves.length ? h("p", {}, t("solution_moves", { moves: data.moves.join("; ") })) : null,
    h("div", { class: "melds solution__melds" }, ...sets));
  showButton.hidden = true;
  solutionBox.scrollIntoView({ behavior: "smooth", block: "nearest" });
}

giveUpButton.addEventListener("click", () => {
  if (page.busy) return;
  page.busy = true;
  post(config.giveUpUrl, { mode: config.mode })
    .then((data) => judged(data, true))
    .catch((error) => page.toast(error.message, "error"))
    .finally(() => { page.busy = false; });
});
showButton.addEventListener("click", () => showSolution());
againButton.addEventListener("click", () => {
  if (page.busy) return;
  moves.length = 0;
  frame.view = initialView;
  againButton.hidden = true;
  page.setBusy(false);
});
document.querySelector("[data-share]")?.addEventListener("click", (event) => {
  if (!navigator.clipboard) return;
  event.preventDefault();
  navigator.clipboard.writeText(event.currentTarget.href).then(() => page.toast(event.currentTarget.href));
});

const frame = JSON.parse(document.getElementById("puzzle-frame").textContent);
const initialView = frame.view;
const Table = gameTable(frame.table.game);
const table = new Table(page);
table.render(frame);
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || event.target.closest("input, textarea, select")) return;
  if (table.shortcut(event.key.toLowerCase())) event.preventDefault();
});
