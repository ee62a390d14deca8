// The replay of a finished game (SPEC 13): step through it move by move, every rack shown (the game is
// over), with the review beside it. The page holds every position, computed by the server from the game's
// record; this script only shows them. Keys: ← → one move, ↑ ↓ one turn, Home / End.

import { clear, h } from "./dom.js";
import { t, tn } from "./i18n.js";
import { tileElement } from "./tiles.js";

const data = JSON.parse(document.getElementById("replay-data").textContent);
const steps = data.steps;
const last = steps.length - 1;
const names = Object.fromEntries(data.players.map((player) => [player.seat, player.bot_account ? t("bot_account_name", { name: player.name }) : player.name]));
const mine = new Set(data.players.filter((player) => player.you).map((player) => player.seat));
const REVIEW_POLL_MS = 3000;

const els = {
  app: document.getElementById("replay-app"),
  caption: document.getElementById("replay-caption"),
  table: document.getElementById("replay-table"),
  racks: document.getElementById("replay-racks"),
  slider: document.getElementById("replay-slider"),
  summary: document.getElementById("review-summary"),
  turns: document.getElementById("review-turns"),
  onlyMissed: document.getElementById("review-only-missed"),
};

const state = { at: 0, review: data.review, status: data.status };

function nameOf(seat) {
  return names[seat] ?? t("empty_seat");
}

function tiles(faces, className = "tile--small") {
  return h("span", { class: "replay-tiles" }, faces.map((face) => tileElement(face, { inert: true, className })));
}

// -----------------------------------------------------------------------------------------------------
// One position

/** Where each turn starts: the position before the first move of a seat that did not make the move before. */
const turnStarts = [0];
for (let at = 1; at < last; at++) {
  if (steps[at + 1].move.seat !== steps[at].move.seat) turnStarts.push(at);
}

function show(at) {
  state.at = Math.max(0, Math.min(last, at));
  if (els.slider) els.slider.value = String(state.at);
  const step = steps[state.at];
  renderCaption(step);
  renderTable(step.view);
  renderRacks(step);
  markCurrentTurn();
}

function renderCaption(step) {
  const view = step.view;
  const parts = [];
  if (step.move) {
    const seat = step.move.seat;
    const placed = gone(steps[state.at - 1].racks[seat], step.racks[seat]);
    parts.push(t("step_n", { n: state.at, count: last }), " · ");
    if (step.move.move.startsWith("play ") && placed.length) parts.push(t("placed_by", { name: nameOf(seat) }), " ", tiles(placed));
    else if (step.move.move === "draw" && step.racks[seat].length > steps[state.at - 1].racks[seat].length) parts.push(t("drew", { name: nameOf(seat) }));
    else parts.push(nameOf(seat), " ", ...moveWords(step.move.move));
  } else {
    parts.push(t("step_deal"));
  }
  parts.push(" · ");
  if (view.over) {
    const winner = view.result ? view.result.winner : null;
    parts.push(t("game_over"), " · ", winner === null ? t("no_winner") : t("winner", { name: nameOf(winner) }));
  } else {
    parts.push(t("to_move", { name: nameOf(view.turn) }));
  }
  clear(els.caption).append(...parts);
}

/** A house-game move (its notation, docs/engine.md) in words with its tiles as tiles, e.g. "laid [r1 r2 r3]
 * [k10 y10 b10]"; several moves of a turn ("lay ...; discard r5") one after the other. Anything else (a
 * Rearrange play is shown by the tiles it placed) is kept as written. */
function moveWords(notation) {
  const parts = [];
  for (const [index, move] of notation.split(";").map((text) => text.trim()).filter(Boolean).entries()) {
    if (index) parts.push("; ");
    const [kind, ...rest] = move.split(/\s+/);
    const faces = rest.filter((word) => /^([rybk]\d{1,2}|J)$/.test(word));
    if (kind === "lay") parts.push(t("mv_lay"), " ", ...move.slice(4).split("|").map((meld) => tiles(meld.trim().split(/\s+/))));
    else if (kind === "take") parts.push(t("mv_take"), " ", tiles(faces));
    else if (kind === "add") parts.push(t("mv_add"), " ", tiles(faces));
    else if (kind === "joker") parts.push(t("mv_joker"), " ", tiles(faces));
    else if (kind === "discard") parts.push(t("mv_discard"), " ", tiles(faces));
    else if (["draw", "leave", "back", "timeout", "auto"].includes(kind) && !rest.length) parts.push(t(`mv_${kind}`));
    else parts.push(move);
  }
  return parts;
}

/** The faces of `before` that are not in `after` (one for one). */
function gone(before, after) {
  const left = [...after];
  const faces = [];
  for (const face of before) {
    const at = left.indexOf(face);
    if (at >= 0) left.splice(at, 1);
    else faces.push(face);
  }
  return faces;
}

function meldElement(meld, owner) {
  const info = [t("points", { points: meld.points })];
  if (owner !== null && owner !== undefined) info.unshift(t("meld_of", { name: nameOf(owner) }));
  return h("div", { class: `meld${owner !== null && owner !== undefined ? " seat-colour-" + owner : ""}` },
    h("div", { class: "meld__tiles" }, meld.tiles.map((face) => tileElement(face, { inert: true, className: "tile--table" }))),
    h("p", { class: "meld__info" }, info.join(" · ")));
}

function renderTable(view) {
  const center = h("div", { class: "replay__center" });
  if (view.indicator !== undefined) {
    center.append(
      h("div", { class: "spot" }, h("p", { class: "spot__label" }, t("indicator")), tileElement(view.indicator, { inert: true, className: "tile--table" })),
      h("p", { class: "replay__count" }, tn("pile", view.pile)),
    );
    const discards = view.discards.slice(-6);
    center.append(h("div", { class: "spot" }, h("p", { class: "spot__label" }, t("discards")),
      discards.length ? tiles(discards) : h("span", { class: "muted" }, "–")));
  } else {
    center.append(h("p", { class: "replay__count" }, tn("pool", view.pool)));
  }
  const melds = view.melds || view.table || [];
  const table = h("div", { class: "melds replay__melds" },
    melds.length ? melds.map((meld) => meldElement(meld, meld.owner)) : h("p", { class: "melds__empty" }, t("table_empty")));
  clear(els.table).append(center, table);
}

function renderRacks(step) {
  const view = step.view;
  const result = view.result;
  const cards = step.racks.map((rack, seat) => {
    const player = view.players[seat];
    const moved = step.move && step.move.seat === seat;
    const toMove = !view.over && view.turn === seat;
    let points = null;
    if (result) points = result.scores[seat];
    else if (player.table_points !== undefined) points = player.table_points + (player.joker_bonus || 0);
    return h("article", { class: `replay-rack seat-colour-${seat}${toMove ? " is-turn" : ""}${moved ? " is-moved" : ""}${player.left ? " has-left" : ""}`, "aria-label": t("rack_of", { name: nameOf(seat) }) },
      h("header", { class: "replay-rack__head" },
        h("span", { class: "replay-rack__name" }, nameOf(seat), mine.has(seat) ? h("span", { class: "badge badge--you" }, t("you_badge")) : null),
        h("span", { class: "replay-rack__count" }, tn("tiles", rack.length)),
        points !== null ? h("span", { class: "seat__points" }, t("points", { points })) : null),
      rack.length ? tiles(rack) : h("span", { class: "muted" }, "–"));
  });
  clear(els.racks).append(...cards);
}

// -----------------------------------------------------------------------------------------------------
// The review

function renderReview() {
  clear(els.summary);
  clear(els.turns);
  if (state.status === "pending") {
    els.summary.append(h("p", { class: "review-status", role: "status" }, t("review_pending")));
    return;
  }
  if (state.status === "failed" || !state.review) {
    els.summary.append(h("p", { class: "review-status review-status--failed", role: "status" }, t("review_failed")));
    return;
  }
  const review = state.review;
  for (const seat of review.summary) {
    const name = nameOf(seat.seat);
    const lines = [];
    if (seat.missed_turns) {
      const key = mine.has(seat.seat) ? "summary_missed_you" : "summary_missed";
      lines.push(tn(key, seat.missed_turns, { name, tiles: seat.missed_tiles, points: seat.missed_points }));
    } else {
      lines.push(t("summary_clean", { name }));
    }
    if (seat.hints) lines.push(tn("summary_hints", seat.hints));
    els.summary.append(h("p", { class: `review-summary__line seat-colour-${seat.seat}` }, lines.join(" · ")));
  }
  els.summary.append(h("p", { class: "review-summary__legend muted" }, t("review_legend")));
  const onlyMissed = els.onlyMissed.checked;
  for (const turn of review.turns) {
    if (onlyMissed && !turn.missed) continue;
    els.turns.append(turnItem(turn));
  }
  markCurrentTurn();
}

/** What a turn played: the tiles it placed for a Rearrange play (its notation is the whole table), else
 * the moves in notation. */
function played(turn) {
  if (turn.played.startsWith("play ") && turn.placed.length) return [t("review_placed"), " ", tiles(turn.placed)];
  return [t("review_played", { play: "" }).trim(), " ", ...moveWords(turn.played)];
}

function bestPlay(turn) {
  const best = turn.best_play;
  if (!best || !best.moves.length || !best.moves[0].startsWith("play ")) {
    return [h("p", { class: "review-turn__best" }, t("review_best", { play: "" }).trim(), " ", ...moveWords(turn.best))];
  }
  const table = h("details", { class: "review-turn__table" },
    h("summary", {}, t("review_best_table")),
    h("div", { class: "review-turn__sets" }, best.table.map((set) => tiles(set))));
  return [h("p", { class: "review-turn__best" }, t("review_best_place"), " ", tiles(best.placed)), table];
}

function turnItem(turn) {
  const tags = [];
  if (turn.by_table) tags.push(h("span", { class: "badge" }, t("review_by_table")));
  if (turn.hint) tags.push(h("span", { class: "badge badge--twin" }, t("review_hint")));
  const head = h("button", { type: "button", class: "review-turn__go", onclick: () => show(turn.moves[0]), "aria-label": t("go_to_turn", { n: turn.turn }) },
    h("span", { class: "review-turn__mark", "aria-hidden": "true" }, turn.missed ? "✗" : "✓"),
    t("review_turn", { n: turn.turn }), " · ", nameOf(turn.seat));
  const item = h("li", { class: `review-turn seat-colour-${turn.seat}${turn.missed ? " is-missed" : ""}`, dataset: { first: turn.moves[0], last: turn.moves[1] } },
    h("div", { class: "review-turn__head" }, head, ...tags),
    h("p", { class: "review-turn__played" }, ...played(turn)));
  if (turn.missed) {
    item.append(h("p", { class: "review-turn__verdict" },
      turn.missed_tiles ? tn("review_missed", turn.missed_tiles, { points: turn.missed_points }) : t("review_missed_points", { points: turn.missed_points })));
    item.append(...bestPlay(turn));
  }
  return item;
}

function markCurrentTurn() {
  // The turn shown: the one whose moves hold the next move (or, at the end, the last move).
  const index = Math.min(state.at, last - 1);
  for (const item of els.turns.children) {
    const current = Number(item.dataset.first) <= index && index <= Number(item.dataset.last);
    item.classList.toggle("is-current", current);
    if (current) {
      item.setAttribute("aria-current", "step");
      keepInView(item);
    } else {
      item.removeAttribute("aria-current");
    }
  }
}

/** Scroll the review's own list (when it scrolls by itself, beside the replay) to show `item`; never the page. */
function keepInView(item) {
  const panel = els.turns.closest(".replay__review");
  if (!panel || panel.scrollHeight <= panel.clientHeight) return;
  const top = item.offsetTop - panel.offsetTop;
  if (top < panel.scrollTop) panel.scrollTop = top - 8;
  else if (top + item.offsetHeight > panel.scrollTop + panel.clientHeight) panel.scrollTop = top + item.offsetHeight - panel.clientHeight + 8;
}

async function pollReview() {
  if (state.status !== "pending") return;
  try {
    const response = await fetch(data.review_url, { headers: { Accept: "application/json" } });
    if (response.ok) {
      const answer = await response.json();
      state.status = answer.status;
      state.review = answer.review;
      if (state.status !== "pending") renderReview();
    }
  } catch (error) {
    // Offline for a moment: try again at the next tick.
  }
  if (state.status === "pending") setTimeout(pollReview, REVIEW_POLL_MS);
}

// -----------------------------------------------------------------------------------------------------
// Controls

function turnStep(direction) {
  if (direction > 0) return turnStarts.find((start) => start > state.at) ?? last;
  const before = turnStarts.filter((start) => start < state.at);
  return before.length ? before[before.length - 1] : 0;
}

const actions = {
  first: () => show(0),
  back: () => show(state.at - 1),
  forward: () => show(state.at + 1),
  last: () => show(last),
};

if (steps.length) {
  els.slider.max = String(last);
  els.slider.addEventListener("input", () => show(Number(els.slider.value)));
  for (const button of document.querySelectorAll("[data-step]")) button.addEventListener("click", () => actions[button.dataset.step]());
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest("input, select, textarea")) return; // the slider moves itself
    const keys = {
      ArrowRight: () => show(state.at + 1),
      ArrowLeft: () => show(state.at - 1),
      ArrowDown: () => show(turnStep(1)),
      ArrowUp: () => show(turnStep(-1)),
      Home: () => show(0),
      End: () => show(last),
    };
    if (keys[event.key]) {
      keys[event.key]();
      event.preventDefault();
    }
  });
  show(0);
}
els.onlyMissed.addEventListener("change", renderReview);
renderReview();
pollReview();
