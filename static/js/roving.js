// One Tab stop for a group of buttons (the melds on the table): arrow keys move between them,
// Home and End jump to the ends. The focused button keeps tabindex 0, the others -1.

export function rovingGroup(container, selector) {
  container.addEventListener("keydown", (event) => {
    const current = event.target.closest(selector);
    if (!current || !container.contains(current)) return;
    const items = [...container.querySelectorAll(selector)];
    const at = items.indexOf(current);
    let next = null;
    if (event.key === "ArrowRight" || event.key === "ArrowDown") next = items[Math.min(items.length - 1, at + 1)];
    else if (event.key === "ArrowLeft" || event.key === "ArrowUp") next = items[Math.max(0, at - 1)];
    else if (event.key === "Home") next = items[0];
    else if (event.key === "End") next = items[items.length - 1];
    if (!next) return;
    event.preventDefault();
    for (const item of items) item.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  });
  container.addEventListener("focusin", (event) => {
    const current = event.target.closest(selector);
    if (!current) return;
    for (const item of container.querySelectorAll(selector)) item.tabIndex = item === current ? 0 : -1;
  });
}

/** After the group was drawn again: one Tab stop (the first item), or the item whose data-key is
 * `focusKey` focused again when it is still there and enabled. */
export function restoreRoving(container, selector, focusKey) {
  const items = container.querySelectorAll(selector);
  items.forEach((item, index) => { item.tabIndex = index === 0 ? 0 : -1; });
  if (!focusKey) return;
  const again = container.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
  if (again && !again.disabled) {
    items.forEach((item) => { item.tabIndex = -1; });
    again.tabIndex = 0;
    again.focus({ preventScroll: true });
  }
}
