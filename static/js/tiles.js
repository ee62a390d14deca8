// Tiles as the server writes them ("r5", "k13", "J") and as players see them: buttons with names
// ("red 5", "joker"). The meld helpers here read a meld a player is still assembling (a selection, the
// house game's opening tray, a set changed on the Rearrange scratchpad), live while tiles are picked and
// dragged: the order a selection is laid in, its running total, the red "not a set" outline. Every meld
// on the table comes read by the server in the view (its kind, value and what each joker stands for), and
// the server checks every move. The helpers know no game: each game's module passes its meld rules.

import { t } from "./i18n.js";

export const COLOURS = ["r", "y", "b", "k"];
const COLOUR_KEYS = { r: "red", y: "yellow", b: "blue", k: "black" };

export function parseFace(face) {
  if (face === "J") return { face, joker: true, colour: null, number: null };
  return { face, joker: false, colour: face[0], number: Number(face.slice(1)) };
}

export function isJoker(face) {
  return face === "J";
}

export function colourName(colour) {
  return t(COLOUR_KEYS[colour]);
}

/** The accessible name of a face: "red 5", "joker". */
export function tileName(face) {
  const tile = parseFace(face);
  if (tile.joker) return t("joker");
  return t("tile_name", { colour: colourName(tile.colour), number: tile.number });
}

export function tileNames(faces) {
  return faces.map(tileName).join(", ");
}

/** A tile as a button (or a span when `inert`). `extra` adds classes and data attributes. */
export function tileElement(face, { inert = false, label = null, className = "", data = {} } = {}) {
  const tile = parseFace(face);
  const element = document.createElement(inert ? "span" : "button");
  if (!inert) element.type = "button";
  element.className = `tile ${tile.joker ? "tile--joker" : "tile--" + tile.colour} ${className}`.trim();
  element.dataset.face = face;
  for (const [key, value] of Object.entries(data)) element.dataset[key] = value;
  const number = document.createElement("span");
  number.className = "tile__number";
  number.setAttribute("aria-hidden", "true");
  // The joker's face is the one the rules pages print (apps/catalog/examples/common.py), shown as
  // text, not as a colour emoji (U+FE0E).
  number.textContent = tile.joker ? "☺\uFE0E" : String(tile.number);
  element.append(number);
  const mark = document.createElement("span");
  mark.className = "tile__mark";
  mark.setAttribute("aria-hidden", "true");
  element.append(mark);
  if (inert) {
    element.setAttribute("role", "img");
  }
  element.setAttribute("aria-label", label || tileName(face));
  return element;
}

/** Sort keys: by colour then number, or by number then colour; jokers last. */
export function colourKey(face) {
  const tile = parseFace(face);
  return tile.joker ? 1000 : COLOURS.indexOf(tile.colour) * 20 + tile.number;
}

export function numberKey(face) {
  const tile = parseFace(face);
  return tile.joker ? 1000 : tile.number * 10 + COLOURS.indexOf(tile.colour);
}

// ---------------------------------------------------------------------------------------------------
// Reading a meld being assembled. A game's meld rules (`rules`, from its module) say:
//   wrap        a 1 may follow 13 (rank 14), one number reads as a set before one colour as a run
//               (else one colour reads as a run first: r5 J J is 5-6-7)
//   jokerLimits twice as many real tiles as jokers, never two jokers side by side
//   maxRank     the highest rank of a run (14 where a 1 follows 13)
//   runValue(rank), setValue(number): what a tile is worth in a run at that rank, or in a set

/**
 * Read faces in table order as one meld of `rules`: {ok, kind, points, standsFor, problem}.
 * `points` counts jokers as what they stand for. `problem` is a string key for the player
 * ("not_a_set" and friends).
 */
export function readMeld(faces, rules) {
  const tiles = faces.map(parseFace);
  if (tiles.length < 3) return { ok: false, problem: "too_short" };
  const real = tiles.filter((tile) => !tile.joker);
  const jokers = tiles.length - real.length;
  if (real.length === 0) return { ok: false, problem: "no_number" };
  if (rules.jokerLimits) {
    if (real.length < 2 * jokers) return { ok: false, problem: "too_many_jokers" };
    for (let i = 1; i < tiles.length; i++) {
      if (tiles[i].joker && tiles[i - 1].joker) return { ok: false, problem: "jokers_side_by_side" };
    }
  }
  const numbers = new Set(real.map((tile) => tile.number));
  const colours = new Set(real.map((tile) => tile.colour));
  if (rules.wrap) {
    // House game: one number is a set, else one colour is a run.
    if (numbers.size === 1) return readSet(tiles, real[0].number, rules);
    if (colours.size === 1) return readRun(tiles, rules);
  } else {
    // Rearrange game: one colour reads as a run first (r5 J J is 5-6-7), else one number is a group.
    if (colours.size === 1) {
      const run = readRun(tiles, rules);
      if (run.ok || numbers.size !== 1) return run;
    }
    if (numbers.size === 1) return readSet(tiles, real[0].number, rules);
  }
  return { ok: false, problem: "mixed" };
}

function readRun(tiles, rules) {
  const last = tiles.length - 1;
  if (rules.wrap) {
    if (tiles.length > 13) return { ok: false, problem: "run_too_long" };
    for (let i = 1; i < last; i++) if (tiles[i].number === 1) return { ok: false, problem: "one_in_middle" };
  }
  const anchorIndex = tiles.findIndex((tile) => !tile.joker && (!rules.wrap || tile.number !== 1));
  if (anchorIndex < 0) return { ok: false, problem: "not_consecutive" };
  const start = tiles[anchorIndex].number - anchorIndex;
  if (start < 1) return { ok: false, problem: "below_one" };
  if (start + last > rules.maxRank) return { ok: false, problem: "past_top" };
  let points = 0;
  const standsFor = [];
  for (let i = 0; i < tiles.length; i++) {
    const rank = start + i;
    const tile = tiles[i];
    if (!tile.joker && tile.number !== rank && !(rules.wrap && tile.number === 1 && rank === 14)) {
      return { ok: false, problem: "not_consecutive" };
    }
    points += rules.runValue(rank);
    standsFor.push(tile.joker ? [tiles[anchorIndex].colour + (rank > 13 ? 1 : rank)] : []);
  }
  return { ok: true, kind: "run", points, standsFor, start, end: start + last, colour: tiles[anchorIndex].colour };
}

function readSet(tiles, number, rules) {
  if (tiles.length > 4) return { ok: false, problem: "set_too_long" };
  const colours = tiles.filter((tile) => !tile.joker).map((tile) => tile.colour);
  if (new Set(colours).size !== colours.length) return { ok: false, problem: "set_colours" };
  const missing = COLOURS.filter((colour) => !colours.includes(colour)).map((colour) => colour + number);
  const value = rules.setValue(number);
  return {
    ok: true,
    kind: "set",
    points: value * tiles.length,
    standsFor: tiles.map((tile) => (tile.joker ? missing : [])),
    start: number,
    end: number,
    colour: null,
  };
}

/**
 * Put a selection of faces in table order, the way a player means it: a set by colour, a run
 * ascending with jokers filling gaps (then the top end, else the bottom). Returns the faces in order;
 * when no order reads as a meld, the faces sorted, so the player sees what they chose.
 */
export function arrangeMeld(faces, rules) {
  const real = faces.filter((face) => !isJoker(face));
  const jokers = faces.length - real.length;
  const candidates = [];
  const numbers = new Set(real.map((face) => parseFace(face).number));
  const colours = new Set(real.map((face) => parseFace(face).colour));
  if (numbers.size === 1 && real.length) {
    const sorted = [...real].sort((a, b) => colourKey(a) - colourKey(b));
    candidates.push([...sorted, ...Array(jokers).fill("J")]);
    if (jokers === 2) candidates.push(["J", ...sorted, "J"]);
  }
  if (colours.size === 1 && real.length) {
    const colour = parseFace(real[0]).colour;
    const lowRanks = real.map((face) => parseFace(face).number);
    candidates.push(...runOrders(colour, lowRanks, jokers, rules));
    if (rules.wrap && lowRanks.includes(1)) {
      candidates.push(...runOrders(colour, lowRanks.map((n) => (n === 1 ? 14 : n)), jokers, rules));
    }
  }
  for (const candidate of candidates) {
    if (readMeld(candidate, rules).ok) return candidate;
  }
  return [...faces].sort((a, b) => colourKey(a) - colourKey(b));
}

function runOrders(colour, ranks, jokers, rules) {
  const sorted = [...ranks].sort((a, b) => a - b);
  const faceOf = (rank) => colour + (rank > 13 ? 1 : rank);
  const body = [];
  let spare = jokers;
  for (let i = 0; i < sorted.length; i++) {
    if (i > 0) {
      for (let gap = sorted[i - 1] + 1; gap < sorted[i]; gap++) {
        if (spare === 0) return [];
        body.push("J");
        spare--;
      }
    }
    body.push(faceOf(sorted[i]));
  }
  const start = sorted[0];
  const end = sorted[sorted.length - 1];
  const orders = [];
  // Spare jokers go on top first (a joker there is worth more), else below.
  for (let below = 0; below <= spare; below++) {
    const above = spare - below;
    if (end + above > rules.maxRank || start - below < 1) continue;
    orders.push([...Array(below).fill("J"), ...body, ...Array(above).fill("J")]);
  }
  return orders;
}

/** Where tiles laid off on a run go: {before, after} (a set takes them after). */
export function layOffSides(meldFaces, added, rules, preferBefore = false) {
  const meld = readMeld(meldFaces, rules);
  if (!meld.ok || meld.kind !== "run") return { before: [], after: [...added] };
  const before = [];
  const after = [];
  const jokers = [];
  for (const face of added) {
    const tile = parseFace(face);
    if (tile.joker) {
      jokers.push(face);
      continue;
    }
    let rank = tile.number;
    if (rules.wrap && rank === 1 && meld.end >= 12) rank = 14;
    if (rank < meld.start) before.push({ face, rank });
    else after.push({ face, rank });
  }
  before.sort((a, b) => a.rank - b.rank);
  after.sort((a, b) => a.rank - b.rank);
  const result = { before: before.map((x) => x.face), after: after.map((x) => x.face) };
  for (const joker of jokers) {
    const atTop = meld.end + result.after.length >= rules.maxRank;
    if ((preferBefore || atTop) && meld.start - result.before.length > 1) result.before.push(joker);
    else result.after.push(joker);
  }
  return result;
}

/** Sum of the points of several arranged melds, and whether one is a run (display only). */
export function openingTotal(melds, rules) {
  let points = 0;
  let hasRun = false;
  let allOk = true;
  for (const faces of melds) {
    const meld = readMeld(faces, rules);
    if (!meld.ok) {
      allOk = false;
      continue;
    }
    points += meld.points;
    hasRun = hasRun || meld.kind === "run";
  }
  return { points, hasRun, allOk };
}

/** Remove one copy of each face of `faces` from `from` (a list); returns the rest. */
export function without(from, faces) {
  const rest = [...from];
  for (const face of faces) {
    const at = rest.indexOf(face);
    if (at >= 0) rest.splice(at, 1);
  }
  return rest;
}

/** Does the multiset `small` fit inside `big`? */
export function contains(big, small) {
  return without(big, small).length === big.length - small.length;
}
