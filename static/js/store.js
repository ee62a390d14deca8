// What the page remembers in this browser: the rack's order per table and game, "keep sorted", the
// sound switch (localStorage, kept across visits) and the table as it was at your last turn
// (sessionStorage, kept across a reload of this tab). Nothing here is game state: the server has that.
// Storage may be missing or full (private mode): then nothing is remembered and nothing breaks.

const PREFIX = "tile-rummy:";

function area(kind) {
  try {
    return kind === "session" ? window.sessionStorage : window.localStorage;
  } catch (error) {
    return null;
  }
}

/** The value saved under `key` (JSON), or `fallback`. */
export function load(key, fallback = null, kind = "local") {
  const storage = area(kind);
  if (!storage) return fallback;
  try {
    const text = storage.getItem(PREFIX + key);
    return text === null ? fallback : JSON.parse(text);
  } catch (error) {
    return fallback;
  }
}

export function save(key, value, kind = "local") {
  const storage = area(kind);
  if (!storage) return;
  try {
    storage.setItem(PREFIX + key, JSON.stringify(value));
  } catch (error) {
    /* full or refused: not remembered */
  }
}

/**
 * Save one of many entries of a family (`family:...` keys, one per table and game), keeping only the
 * `keep` most recently saved of the family, so a player's thousand past games do not fill the storage.
 */
export function saveOneOf(family, key, value, keep = 24, kind = "local") {
  save(key, { at: Date.now(), value }, kind);
  const storage = area(kind);
  if (!storage) return;
  try {
    const entries = [];
    for (let i = 0; i < storage.length; i++) {
      const name = storage.key(i);
      if (name && name.startsWith(PREFIX + family + ":")) {
        const entry = JSON.parse(storage.getItem(name) || "null");
        entries.push({ name, at: entry && typeof entry.at === "number" ? entry.at : 0 });
      }
    }
    entries.sort((a, b) => b.at - a.at);
    for (const old of entries.slice(keep)) storage.removeItem(old.name);
  } catch (error) {
    /* a stranger's value under our prefix: leave the storage as it is */
  }
}

/** The value of an entry saved with `saveOneOf`, or `fallback`. */
export function loadOneOf(key, fallback = null, kind = "local") {
  const entry = load(key, null, kind);
  return entry && typeof entry === "object" && "value" in entry ? entry.value : fallback;
}
