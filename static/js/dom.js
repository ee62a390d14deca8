// Small DOM helpers: build elements, and keep the keyboard focus across a re-render.

/** h("button", {class: "x", onclick: fn, dataset: {a: 1}}, "text", child) */
export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") element.className = value;
    else if (key === "dataset") Object.assign(element.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") element.addEventListener(key.slice(2), value);
    else if (key === "text") element.textContent = value;
    else if (value === true) element.setAttribute(key, "");
    else element.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

/** The data-key of the focused element when it is inside `node` (to focus it again after a redraw). */
export function focusedKey(node) {
  const active = document.activeElement;
  return active && node.contains(active) ? active.dataset.key : null;
}

/** Replace the children of `node` and put the focus back on the element with the same data-key. */
export function replaceKeepingFocus(node, children) {
  const key = focusedKey(node);
  clear(node).append(...children);
  if (key) {
    const again = node.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again) again.focus({ preventScroll: true });
  }
}

/**
 * Whether `node` already shows what `key` (a string of everything it is built from) describes; if not,
 * remembers `key` for next time. A panel redrawn on every frame replaces the button under a player's
 * pointer: a press whose mouse-down and mouse-up land on two copies of the button is no click at all
 * (the page's socket sends the state it already shows as its first frame, just as the page opens).
 */
export function unchanged(node, key) {
  if (drawnKeys.get(node) === key) return true;
  drawnKeys.set(node, key);
  return false;
}

const drawnKeys = new WeakMap();

export function show(node, visible) {
  node.hidden = !visible;
}
