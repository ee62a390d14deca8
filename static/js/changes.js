// What changed on the Rearrange table: the tiles placed or moved since your last turn, marked until
// you send your next play (a spectator: since the turn before). Worked out in the browser from the
// tables it was sent (sets of faces), against the table as it was when your last turn ended, which is
// kept in sessionStorage per table, game and seat, so a reload keeps the marks. Display only.

import { load, save } from "./store.js";

/**
 * For each set of `after`, whether each of its tiles is new or sits in another set than in `before`
 * (both lists of sets, a set a list of faces). Sets are paired old to new by the most tiles in common
 * (each old set with one new set at most); a tile counts as staying when its set's partner held that
 * face, so a set split in two keeps its bigger half and the other half reads as moved.
 */
export function changedTiles(before, after) {
  const pairs = [];
  after.forEach((set, a) => before.forEach((old, b) => {
    const common = overlap(old, set);
    if (common > 0) pairs.push({ a, b, common });
  }));
  // The most in common first; on a tie the set at the same place (the table keeps its order).
  pairs.sort((x, y) => y.common - x.common || Math.abs(x.a - x.b) - Math.abs(y.a - y.b));
  const partner = new Map();
  const taken = new Set();
  for (const pair of pairs) {
    if (partner.has(pair.a) || taken.has(pair.b)) continue;
    partner.set(pair.a, pair.b);
    taken.add(pair.b);
  }
  return after.map((set, a) => {
    const left = partner.has(a) ? [...before[partner.get(a)]] : [];
    return set.map((face) => {
      const at = left.indexOf(face);
      if (at < 0) return true;
      left.splice(at, 1);
      return false;
    });
  });
}

function overlap(one, other) {
  const left = [...one];
  let common = 0;
  for (const face of other) {
    const at = left.indexOf(face);
    if (at >= 0) {
      left.splice(at, 1);
      common += 1;
    }
  }
  return common;
}

const setsOf = (view) => view.table.map((meld) => [...meld.tiles]);

/**
 * The marks of one viewer at one game. `update(frame)` after every state frame; `marks()` then says,
 * per set of the table in the frame, which tiles to mark. A player's record: `base` (the table when
 * their last turn ended), `mine` (the turn number of their turn in progress), `sent` (the play just
 * sent: the table it leaves, shown unmarked until the server moves the turn on). A spectator's:
 * `base` (the table before the last turn) and `seen` (the table of the turn now being played).
 */
export class TableChanges {
  constructor() {
    this.key = null;
    this.record = null;
    this.current = [];
    this.spectator = true;
  }

  update(frame) {
    const view = frame.view;
    const game = frame.table.current_game;
    if (!view || !view.table || !game) {
      this.current = [];
      return;
    }
    this.spectator = frame.seat === null;
    const key = `changes:${frame.table.id}:${game.id}:${this.spectator ? "watching" : frame.seat}`;
    if (key !== this.key) {
      this.key = key;
      this.record = load(key, null, "session") || {};
    }
    const sets = setsOf(view);
    const record = this.record;
    const turnNo = view.turn_no;
    if (this.spectator) {
      if (!record.seen) record.seen = { turnNo, sets };
      if (!record.base) record.base = sets;
      if (turnNo > record.seen.turnNo) {
        record.base = record.seen.sets;
        record.seen = { turnNo, sets };
      } else {
        record.seen.sets = sets;
      }
    } else {
      if (!record.base) record.base = sets; // first sight of this game: nothing to compare with yet
      if (record.sent && turnNo > record.sent.turnNo) {
        record.base = record.sent.sets;
        record.sent = null;
        record.mine = null;
      } else if (record.mine !== null && record.mine !== undefined && turnNo > record.mine && !record.sent) {
        // The turn ended without a play from this page (the clock, or another tab): the table as it is.
        record.base = sets;
        record.mine = null;
      }
      if (!view.over && view.turn === frame.seat) record.mine = turnNo;
    }
    this.turnNo = turnNo;
    this.current = sets;
    save(key, record, "session");
  }

  /** Your play (or draw) is sent: the marks go, and `sets` is the table your turn leaves. */
  sent(sets) {
    if (!this.record || this.spectator) return;
    this.record.sent = { turnNo: this.turnNo, sets };
    save(this.key, this.record, "session");
  }

  /** The server refused the play: the turn goes on, and so do its marks. */
  refused() {
    if (!this.record || !this.record.sent || this.record.sent.turnNo !== this.turnNo) return;
    this.record.sent = null;
    save(this.key, this.record, "session");
  }

  /** Your play of this turn is sent: no marks until the next turn. */
  hidden() {
    const record = this.record;
    return Boolean(record && record.sent && record.sent.turnNo === this.turnNo);
  }

  /** Per set of the current table, per tile: marked or not (whatever `hidden` says). */
  marks() {
    const record = this.record;
    if (!record || !record.base) return this.current.map((set) => set.map(() => false));
    return changedTiles(record.base, this.current);
  }
}
