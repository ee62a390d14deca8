// After each game: the score table, every line of the scoring, for a few seconds before the next
// deal. After the last game: the match results with places, rematch and a new match.

import { h } from "./dom.js";
import { gameTable } from "./games.js";
import { has, t, tn } from "./i18n.js";
import { abortedText, seatName } from "./names.js";

function lineLabel(line) {
  const key = `score_${line.key}`;
  return has(key) ? t(key) : line.label;
}

// The line's detail from its numbers, in the page's language (the engine's `detail` is English).
function lineDetail(line) {
  const params = line.params || {};
  if ("tiles" in params) return tn("tiles", params.tiles);
  if ("jokers" in params) return `${params.jokers} × 50`;
  if ("split" in params) return t(params.extra ? "score_shared_split_extra" : "score_shared_split", { points: params.split, ways: params.ways });
  return line.detail;
}

function signed(points) {
  return points > 0 ? `+${points}` : String(points);
}

function ordinal(place) {
  return t("place_" + Math.min(place, 4));
}

/**
 * @param {HTMLElement} root
 * @param {object} frame  the state frame
 * @param {object} actions {rematch(), newMatch(), ready(), hide(), lobbyUrl, replayUrl (of game 0), keepAccountUrl}
 * Returns true when the panel is shown.
 */
export function renderResults(root, frame, actions) {
  const view = frame.view;
  const table = frame.table;
  const match = table.match;
  const matchOver = table.status === "finished" || (match && match.over);
  const result = view && view.over ? view.result : null;
  if (!result && !matchOver) {
    root.hidden = true;
    root.replaceChildren();
    return false;
  }
  const names = table.seats.map(seatName);
  const panel = h("div", { class: "results__panel", tabindex: "-1" });
  const gameNumber = table.current_game ? table.current_game.number : match ? match.games_played : 1;
  const length = match ? match.length : table.match_length;
  const aborted = matchOver && match ? match.aborted : null;
  panel.append(
    h("h2", { id: "results-title", class: "results__title" },
      aborted ? t("match_aborted") : matchOver ? t("match_over") : length > 1 ? t("game_n_of_m_over", { n: gameNumber, m: length }) : t("game_over")),
  );
  if (aborted) panel.append(h("p", { class: "results__reason results__aborted" }, abortedText(aborted, table.seats)));
  if (result) panel.append(h("p", { class: "results__reason" }, reasonText(result, names, table.game, frame.seat)));
  // The countdown near the top and the buttons stuck to the bottom: both in view however long the
  // score table is (it scrolls between them).
  if (!matchOver && table.current_game && table.current_game.next_game_at) {
    const seconds = secondsUntil(table.current_game.next_game_at, table.server_time);
    const countdown = h("p", { class: "results__next", "data-countdown": String(Date.now() + seconds * 1000) }, t("next_deal_in", { seconds: Math.ceil(seconds) }));
    panel.append(countdown);
  }
  const myStanding = matchOver && match && !aborted && match.standings ? match.standings.find((standing) => standing.seat === frame.seat) : null;
  if (myStanding) {  // the result in the second person: you won, or where you came
    const words = myStanding.place === 1 ? t("you_won") : t("your_place", { place: myStanding.place, count: match.standings.length });
    panel.append(h("p", { class: "results__you", "data-you": "" }, words));
  }
  if (matchOver && match && !aborted) panel.append(places(match, names, frame.seat));
  if (result) panel.append(scoreTable(result, names, frame.seat));
  if (match && length > 1) panel.append(matchTable(match, names, frame.seat));
  const buttons = h("div", { class: "results__actions" });
  // Between games: the next deal comes when every person is ready, or when the countdown ends.
  const nextGame = !matchOver && table.current_game && table.current_game.next_game_at ? table.current_game : null;
  if (nextGame && frame.seat !== null && actions.ready) {
    const ready = nextGame.ready || [];
    const iAmReady = ready.includes(frame.seat);
    buttons.append(h("button", { type: "button", class: "button button--primary", "data-ready": "", onclick: actions.ready, disabled: iAmReady }, t("ready")));
    const waitingFor = table.seats.filter((seat) => seat.user_id !== null && !seat.bot && !seat.bot_account && !seat.left && !ready.includes(seat.index)).map(seatName);
    if (iAmReady && waitingFor.length) panel.append(h("p", { class: "results__note", "data-ready-waiting": "" }, t("ready_waiting", { names: waitingFor.join(", ") })));
  }
  // The game just over, replayed and reviewed (in another tab while the match goes on).
  const finishedGame = result && table.current_game ? table.current_game.id : null;
  if (finishedGame !== null && actions.replayUrl) {
    const url = actions.replayUrl.replace(/\/0\/$/, `/${finishedGame}/`);
    const away = matchOver ? {} : { target: "_blank", rel: "noopener" };
    buttons.append(h("a", { class: "button", href: url + "#review-title", "data-review": "", ...away }, t("review_game")));
    buttons.append(h("a", { class: "button button--ghost", href: url, "data-replay": "", ...away }, t("replay_game")));
  }
  if (matchOver && frame.seat !== null) {
    const me = table.seats[frame.seat];
    const rematch = h("button", { type: "button", class: "button button--primary", onclick: actions.rematch, disabled: me && me.rematch }, me && me.rematch ? t("rematch_asked") : t("rematch"));
    buttons.append(rematch);
    if (me && me.user_id === table.host_id) {
      buttons.append(h("button", { type: "button", class: "button", onclick: actions.newMatch }, t("new_match")));
    }
    // The rematch starts by itself once every person still seated has asked (the server decides):
    // say who asked, and whom they wait for.
    const asked = table.seats.filter((seat) => seat.rematch).map(seatName);
    if (asked.length) panel.append(h("p", { class: "results__note" }, t("rematch_wanted_by", { names: asked.join(", ") })));
    const persons = table.seats.filter((seat) => seat.user_id !== null && !seat.bot);
    const waitingFor = persons.filter((seat) => !seat.rematch && !seat.left).map(seatName);
    if (asked.length && waitingFor.length && persons.every((seat) => !seat.left)) {
      panel.append(h("p", { class: "results__note", "data-rematch-waiting": "" }, t("rematch_waiting_for", { names: waitingFor.join(", ") })));
    }
  }
  if (matchOver && frame.seat !== null && actions.keepAccountUrl) {  // a guest's game is over: keep the account in one step
    panel.append(h("p", { class: "results__note results__keep" }, t("keep_account"), " ",
      h("a", { href: actions.keepAccountUrl, "data-keep-account": "" }, t("keep_account_link"))));
  }
  if (matchOver) buttons.append(h("a", { class: "button button--ghost", href: actions.lobbyUrl }, t("back_to_lobby")));
  buttons.append(h("button", { type: "button", class: "button button--ghost", onclick: actions.hide }, t("see_the_table")));
  panel.append(buttons);
  const wasHidden = root.hidden;
  root.replaceChildren(panel);
  root.hidden = false;
  if (wasHidden) panel.focus({ preventScroll: true });
  return true;
}

export function tickCountdowns() {
  for (const node of document.querySelectorAll("[data-countdown]")) {
    const left = Math.max(0, Math.ceil((Number(node.dataset.countdown) - Date.now()) / 1000));
    node.textContent = left > 0 ? t("next_deal_in", { seconds: left }) : t("dealing");
  }
}

function secondsUntil(iso, serverIso) {
  const at = Date.parse(iso);
  const server = Date.parse(serverIso);
  if (Number.isNaN(at) || Number.isNaN(server)) return 0;
  return Math.max(0, (at - server) / 1000);
}

function reasonText(result, names, game, mine) {
  const words = gameTable(game).reasons;
  if (result.reason === "out" && result.winner !== null && result.winner !== undefined) {
    if (result.winner === mine) return t(words.out_you);
    return t(words.out, { name: names[result.winner] });
  }
  if (result.reason === "pile") return t(words.pile);
  if (result.reason === "left") return t("reason_left");
  if (result.reason === "blocked") return t("reason_blocked");
  return "";
}

function scoreTable(result, names, mine) {
  const seats = result.seats;
  const tableEl = h("table", { class: "score-table" });
  tableEl.append(h("caption", { class: "visually-hidden" }, t("score_caption")));
  const head = h("tr", {}, h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, t("score_line"))));
  for (const seat of seats) {
    head.append(h("th", { scope: "col", class: seat.seat === mine ? "is-me" : null }, names[seat.seat], seat.seat === result.winner ? h("span", { class: "score-table__star", title: t("winner") }, " ★") : null));
  }
  tableEl.append(h("thead", {}, head));
  const body = h("tbody");
  // One row per line of the scoring; "never opened" takes the place of the rack line.
  const rowKey = (line) => (line.key === "unopened" ? "rack" : line.key);
  const rows = [];
  for (const seat of seats) {
    for (const line of seat.lines) if (!rows.some((row) => row.key === rowKey(line))) rows.push({ key: rowKey(line), sample: line });
  }
  for (const row of rows) {
    const cells = seats.map((seat) => seat.lines.find((line) => rowKey(line) === row.key));
    const allZero = cells.every((line) => !line || (line.points === 0 && line.factor === 1));
    const label = row.key === "rack" ? t("score_rack") : lineLabel(row.sample);
    const tr = h("tr", { class: allZero ? "is-zero" : null }, h("th", { scope: "row" }, label));
    seats.forEach((seat, index) => {
      const line = cells[index];
      const cell = h("td", { class: seat.seat === mine ? "is-me" : null });
      if (line) {
        const shown = line.factor > 1 ? `×${line.factor}` : signed(line.points);
        cell.append(h("span", { class: line.points < 0 ? "is-minus" : line.points > 0 ? "is-plus" : null }, shown));
        if (line.key === "unopened") cell.append(h("small", {}, t("score_unopened")));
        else if (line.detail && line.factor === 1 && line.points !== 0) cell.append(h("small", {}, lineDetail(line)));
      }
      tr.append(cell);
    });
    body.append(tr);
  }
  tableEl.append(body);
  const foot = h("tr", {}, h("th", { scope: "row" }, t("game_total")));
  for (const seat of seats) foot.append(h("td", { class: seat.seat === mine ? "is-me" : null }, h("strong", {}, signed(seat.total))));
  tableEl.append(h("tfoot", {}, foot));
  return h("div", { class: "score-table__wrap" }, tableEl);
}

function matchTable(match, names, mine) {
  const tableEl = h("table", { class: "score-table score-table--match" });
  tableEl.append(h("caption", {}, t("match_scores")));
  const head = h("tr", {}, h("th", { scope: "col" }, t("game")));
  names.forEach((name, index) => head.append(h("th", { scope: "col", class: index === mine ? "is-me" : null }, name)));
  tableEl.append(h("thead", {}, head));
  const body = h("tbody");
  match.scores.forEach((row, game) => {
    const tr = h("tr", {}, h("th", { scope: "row" }, String(game + 1)));
    row.forEach((points, index) => tr.append(h("td", { class: index === mine ? "is-me" : null }, signed(points))));
    body.append(tr);
  });
  tableEl.append(body);
  const foot = h("tr", {}, h("th", { scope: "row" }, t("total")));
  match.totals.forEach((points, index) => foot.append(h("td", { class: index === mine ? "is-me" : null }, h("strong", {}, signed(points)))));
  tableEl.append(h("tfoot", {}, foot));
  return h("div", { class: "score-table__wrap" }, tableEl);
}

function places(match, names, mine) {
  const list = h("ol", { class: "places" });
  const standings = [...match.standings].sort((a, b) => a.place - b.place || b.points - a.points);
  for (const standing of standings) {
    list.append(
      h("li", { class: `places__row places__row--${Math.min(standing.place, 4)}${standing.seat === mine ? " is-me" : ""}` },
        h("span", { class: "places__place" }, ordinal(standing.place)),
        h("span", { class: "places__name" }, names[standing.seat], standing.left ? h("small", {}, ` (${t("badge_left")})`) : null),
        h("span", { class: "places__points" }, t("points_short", { points: standing.points }))),
    );
  }
  return list;
}
