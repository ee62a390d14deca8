// The player's own rack: the tiles the server says are yours, in the order you keep them. Select by
// click, tap or keyboard; drag to reorder (or onto the table); keep it sorted by colour or by number
// (it stays sorted as tiles arrive, until you move a tile yourself). The order is yours alone, kept in
// this browser per table and game (across reloads); the server only knows which tiles you hold.

import { enableDrag } from "./drag.js";
import { t, tn } from "./i18n.js";
import { load, loadOneOf, save, saveOneOf } from "./store.js";
import { colourKey, numberKey, tileElement, tileName } from "./tiles.js";

const SORT_KEYS = { colour: colourKey, number: numberKey };
const SORT_SETTING = "rack-sort";

let nextId = 1;

export class Rack {
  /**
   * @param {HTMLElement} root   the rack's element (a list of tile buttons)
   * @param {object} options
   *   storageKey: where the order is kept for this table and game (localStorage, "rack:..." keys)
   *   onSelect(): the selection changed
   *   onDrop(ids, target, point): tiles were dropped on a [data-drop] target outside the rack
   *   sortButtons: {colour, number}: the buttons that turn "keep sorted" on and off (pressed = on)
   */
  constructor(root, { storageKey, onSelect, onDrop, countElement = null, sortButtons = {} }) {
    this.root = root;
    this.countElement = countElement;
    this.storageKey = storageKey;
    this.sortButtons = sortButtons;
    // "Keep sorted" is the player's habit, not one game's: it carries over to the next table.
    this.keepSorted = SORT_KEYS[load(SORT_SETTING)] ? load(SORT_SETTING) : null;
    this.showSort();
    this.onSelect = onSelect || (() => {});
    this.onDrop = onDrop || (() => {});
    this.items = []; // {id, face, fresh}
    this.selected = new Set();
    this.hidden = new Set(); // ids shown elsewhere (the opening tray)
    this.elements = new Map();
    this.focusId = null;
    this.enabled = true;
    root.setAttribute("role", "group");
    root.dataset.drop = "rack";
    root.addEventListener("click", (event) => this.onClick(event));
    root.addEventListener("keydown", (event) => this.onKey(event));
    root.addEventListener("focusin", (event) => {
      const button = event.target.closest(".tile");
      if (button) this.focusId = Number(button.dataset.id);
    });
    enableDrag(root, {
      item: ".tile",
      payload: (element) => this.dragPayload(element),
      drop: (data, target, point) => this.dropped(data, target, point),
    });
  }

  /** The server's rack (faces, any order). Keeps the player's order; new tiles go at the end, or
   * where they sort while the rack is kept sorted. */
  setFaces(faces, drawn = null, storageKey = this.storageKey) {
    if (storageKey !== this.storageKey) {
      this.storageKey = storageKey;
      this.items = [];
      this.selected.clear();
      this.hidden.clear();
    }
    const firstLoad = this.items.length === 0;
    const pool = firstLoad ? this.loadOrder().map((face) => ({ id: nextId++, face })) : this.items;
    // Which copies stay when a face's count drops: plain tiles first, then selected ones, then the
    // ones in the opening tray, so the tiles that just left (you played them) are the ones removed.
    const rank = (item) => (this.hidden.has(item.id) ? 2 : this.selected.has(item.id) ? 1 : 0);
    const wanted = [...faces];
    const keep = new Set();
    for (const item of [...pool].sort((a, b) => rank(a) - rank(b))) {
      const at = wanted.indexOf(item.face);
      if (at >= 0) {
        wanted.splice(at, 1);
        keep.add(item);
      }
    }
    const kept = pool.filter((item) => keep.has(item)).map((item) => ({ ...item, fresh: false }));
    for (const face of wanted) kept.push({ id: nextId++, face, fresh: !firstLoad || face === drawn });
    if (drawn && wanted.length === 0 && !firstLoad) {
      // Nothing new: keep the mark on the drawn tile if it is still there.
      const item = kept.find((entry) => entry.face === drawn);
      if (item) item.fresh = true;
    }
    const ids = new Set(kept.map((item) => item.id));
    for (const id of [...this.selected]) if (!ids.has(id)) this.selected.delete(id);
    for (const id of [...this.hidden]) if (!ids.has(id)) this.hidden.delete(id);
    this.items = kept;
    if (this.keepSorted) this.sortItems(this.keepSorted);
    this.saveOrder();
    this.render();
  }

  loadOrder() {
    const saved = loadOneOf(this.storageKey, []);
    return Array.isArray(saved) ? saved.filter((face) => typeof face === "string") : [];
  }

  saveOrder() {
    saveOneOf("rack", this.storageKey, this.items.map((item) => item.face));
  }

  visibleItems() {
    return this.items.filter((item) => !this.hidden.has(item.id));
  }

  faceOf(id) {
    const item = this.items.find((entry) => entry.id === id);
    return item ? item.face : null;
  }

  selectedIds() {
    return this.visibleItems().filter((item) => this.selected.has(item.id)).map((item) => item.id);
  }

  selectedFaces() {
    return this.selectedIds().map((id) => this.faceOf(id));
  }

  clearSelection() {
    this.selected.clear();
    this.render();
    this.onSelect();
  }

  toggle(id) {
    if (this.selected.has(id)) this.selected.delete(id);
    else this.selected.add(id);
    this.render();
    this.onSelect();
  }

  select(ids) {
    this.selected = new Set(ids);
    this.render();
    this.onSelect();
  }

  hide(ids) {
    for (const id of ids) {
      this.hidden.add(id);
      this.selected.delete(id);
    }
    this.render();
    this.onSelect();
  }

  unhide(ids) {
    for (const id of ids) this.hidden.delete(id);
    this.render();
  }

  unhideAll() {
    this.hidden.clear();
    this.render();
  }

  /** "By colour" / "By number": sort now and keep it sorted as tiles arrive; the same again turns
   * keeping sorted off (the order stays as it is). */
  sortBy(kind) {
    if (this.keepSorted === kind) {
      this.setKeepSorted(null);
      return;
    }
    this.setKeepSorted(kind);
    this.sortItems(kind);
    this.saveOrder();
    this.render();
  }

  sortItems(kind) {
    const key = SORT_KEYS[kind];
    this.items.sort((a, b) => key(a.face) - key(b.face));
  }

  setKeepSorted(kind) {
    this.keepSorted = kind;
    save(SORT_SETTING, kind);
    this.showSort();
  }

  showSort() {
    for (const [kind, button] of Object.entries(this.sortButtons)) {
      if (button) button.setAttribute("aria-pressed", this.keepSorted === kind ? "true" : "false");
    }
  }

  /** The player put a tile where they want it: their order wins over keeping sorted. */
  ownOrder() {
    if (this.keepSorted) this.setKeepSorted(null);
    this.saveOrder();
  }

  setEnabled(enabled) {
    this.enabled = enabled;
    this.root.classList.toggle("is-inactive", !enabled);
  }

  render() {
    const visible = this.visibleItems();
    const seen = new Set();
    if (this.focusId === null || !visible.some((item) => item.id === this.focusId)) {
      this.focusId = visible.length ? visible[0].id : null;
    }
    const hadFocus = this.root.contains(document.activeElement);
    const children = visible.map((item) => {
      seen.add(item.id);
      let element = this.elements.get(item.id);
      if (!element) {
        element = tileElement(item.face, { className: "tile--rack", data: { id: String(item.id) } });
        this.elements.set(item.id, element);
      }
      const selected = this.selected.has(item.id);
      element.classList.toggle("is-selected", selected);
      element.classList.toggle("is-fresh", Boolean(item.fresh));
      element.setAttribute("aria-pressed", selected ? "true" : "false");
      element.tabIndex = item.id === this.focusId ? 0 : -1;
      element.setAttribute(
        "aria-label",
        item.fresh ? t("tile_drawn", { tile: tileName(item.face) }) : tileName(item.face),
      );
      return element;
    });
    for (const id of [...this.elements.keys()]) if (!seen.has(id)) this.elements.delete(id);
    // Move nodes only where needed, so the focused button is never detached.
    children.forEach((element, index) => {
      if (this.root.children[index] !== element) this.root.insertBefore(element, this.root.children[index] || null);
    });
    while (this.root.children.length > children.length) this.root.lastElementChild.remove();
    if (hadFocus && this.focusId !== null && !this.root.contains(document.activeElement)) {
      this.elements.get(this.focusId)?.focus({ preventScroll: true });
    }
    this.root.setAttribute("aria-label", t("your_rack_count", { count: visible.length }));
    if (this.countElement) this.countElement.textContent = tn("tiles", visible.length);
  }

  /** Put the keyboard focus back on the rack (its current tile). */
  focusCurrent() {
    this.render();
    if (this.focusId !== null) this.elements.get(this.focusId)?.focus({ preventScroll: true });
  }

  focusTile(id) {
    this.focusId = id;
    this.render();
    this.elements.get(id)?.focus();
  }

  onClick(event) {
    const button = event.target.closest(".tile");
    if (!button || !this.enabled) return;
    this.toggle(Number(button.dataset.id));
  }

  onKey(event) {
    const button = event.target.closest(".tile");
    if (!button) return;
    const id = Number(button.dataset.id);
    const visible = this.visibleItems();
    const at = visible.findIndex((item) => item.id === id);
    const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[event.key];
    if (step !== undefined && event.shiftKey) {
      event.preventDefault();
      this.move(id, at + step);
      return;
    }
    if (step !== undefined) {
      event.preventDefault();
      const next = visible[Math.max(0, Math.min(visible.length - 1, at + step))];
      if (next) this.focusTile(next.id);
      return;
    }
    if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      const next = event.key === "Home" ? visible[0] : visible[visible.length - 1];
      if (next) this.focusTile(next.id);
      return;
    }
    if (event.key === " " || event.key === "Enter") {
      event.preventDefault();
      if (this.enabled) this.toggle(id);
    }
  }

  /** Move tile `id` to position `index` among the visible tiles. */
  move(id, index) {
    const visible = this.visibleItems();
    const clamped = Math.max(0, Math.min(visible.length - 1, index));
    const item = this.items.find((entry) => entry.id === id);
    const target = visible[clamped];
    if (!item || !target || target.id === id) return;
    this.items.splice(this.items.indexOf(item), 1);
    const targetAt = this.items.indexOf(target);
    const from = visible.indexOf(item);
    this.items.splice(from < clamped ? targetAt + 1 : targetAt, 0, item);
    this.ownOrder();
    this.focusTile(id);
  }

  dragPayload(element) {
    const id = Number(element.dataset.id);
    const ids = this.selected.has(id) ? this.selectedIds() : [id];
    return {
      source: "rack",
      ids,
      faces: ids.map((each) => this.faceOf(each)),
      elements: ids.map((each) => this.elements.get(each)).filter(Boolean),
    };
  }

  dropped(data, target, point) {
    if (!target) return;
    if (target === this.root) {
      this.reorderAt(data.ids, point);
      return;
    }
    this.onDrop(data, target, point);
  }

  /** Put the dragged tiles where the pointer let go: before the first tile whose middle is past it. */
  reorderAt(ids, point) {
    const moving = this.items.filter((item) => ids.includes(item.id));
    const rest = this.items.filter((item) => !ids.includes(item.id));
    const visibleRest = rest.filter((item) => !this.hidden.has(item.id));
    let before = null;
    for (const item of visibleRest) {
      const rect = this.elements.get(item.id)?.getBoundingClientRect();
      if (!rect) continue;
      const sameRow = point.y >= rect.top - 4 && point.y <= rect.bottom + 4;
      if ((sameRow && point.x < rect.left + rect.width / 2) || point.y < rect.top - 4) {
        before = item;
        break;
      }
    }
    const at = before ? rest.indexOf(before) : rest.length;
    rest.splice(at, 0, ...moving);
    this.items = rest;
    this.ownOrder();
    this.render();
  }
}
