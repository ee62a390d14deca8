// Dragging tiles with a mouse, a pen or a finger (pointer events, so it works on touch screens too).
// A press that moves less than a few pixels stays a click (select / deselect); past that it becomes a
// drag, a ghost follows the pointer and the element under it with `data-drop` is the target.

const THRESHOLD = 6;

/**
 * @param {HTMLElement} root  where draggable items live
 * @param {object} options
 *   item: CSS selector of draggable elements
 *   payload(element): what is dragged ({faces: [...], ...}) or null to refuse
 *   drop(payload, target, point): called with the [data-drop] element under the pointer (or null)
 */
export function enableDrag(root, { item, payload, drop }) {
  let press = null;
  let drag = null;

  root.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || drag) return;
    const element = event.target.closest(item);
    if (!element || !root.contains(element) || element.disabled) return;
    press = { element, x: event.clientX, y: event.clientY, id: event.pointerId };
  });

  window.addEventListener("pointermove", (event) => {
    if (!press || event.pointerId !== press.id) return;
    if (!drag) {
      if (Math.hypot(event.clientX - press.x, event.clientY - press.y) < THRESHOLD) return;
      const data = payload(press.element);
      if (!data) {
        press = null;
        return;
      }
      drag = { data, ghost: makeGhost(data, press.element), target: null };
      document.body.classList.add("is-dragging");
    }
    event.preventDefault();
    drag.ghost.style.transform = `translate(${event.clientX - 20}px, ${event.clientY - 30}px)`;
    const target = targetAt(event.clientX, event.clientY);
    if (target !== drag.target) {
      if (drag.target) drag.target.classList.remove("is-drop-target");
      if (target) target.classList.add("is-drop-target");
      drag.target = target;
    }
  }, { passive: false });

  const finish = (event, cancelled) => {
    if (!press || event.pointerId !== press.id) return;
    const current = drag;
    press = null;
    drag = null;
    if (!current) return;
    current.ghost.remove();
    document.body.classList.remove("is-dragging");
    if (current.target) current.target.classList.remove("is-drop-target");
    // The click that follows a drag must not toggle the tile's selection.
    window.addEventListener("click", swallow, { capture: true, once: true });
    setTimeout(() => window.removeEventListener("click", swallow, { capture: true }), 0);
    if (!cancelled) {
      drop(current.data, targetAt(event.clientX, event.clientY), { x: event.clientX, y: event.clientY });
    }
  };
  window.addEventListener("pointerup", (event) => finish(event, false));
  window.addEventListener("pointercancel", (event) => finish(event, true));
}

function swallow(event) {
  event.stopPropagation();
  event.preventDefault();
}

function targetAt(x, y) {
  const under = document.elementFromPoint(x, y);
  return under ? under.closest("[data-drop]") : null;
}

function makeGhost(data, element) {
  const ghost = document.createElement("div");
  ghost.className = "drag-ghost";
  ghost.setAttribute("aria-hidden", "true");
  const sources = data.elements && data.elements.length ? data.elements : [element];
  for (const source of sources.slice(0, 6)) {
    const copy = source.cloneNode(true);
    copy.removeAttribute("id");
    copy.classList.remove("is-selected");
    ghost.append(copy);
  }
  const rect = element.getBoundingClientRect();
  ghost.style.transform = `translate(${rect.left}px, ${rect.top}px)`;
  document.body.append(ghost);
  return ghost;
}
