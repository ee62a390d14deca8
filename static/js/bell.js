// The bell in the site's header (apps/notifications): the unread count, live from /ws/notifications/
// on every page of a signed-in player; on the notifications page, a new one is added to the list.
// The words come from the server, already in the page's language.
// Other scripts of the page hear the same socket (one per page, never a second): each frame is
// dispatched on `document` as a "bell:frame" event (detail: the frame), and the socket's state as
// "bell:status" ("connecting", "connected", "reconnecting", "resynced"). A challenge's page follows its
// challenge that way (static/js/challenge.js).
import { Connection } from "./connection.js";

const bell = document.querySelector("[data-bell]");

function showCount(count) {
  const badge = bell.querySelector("[data-bell-count]");
  const n = Math.max(0, Number(count) || 0);
  badge.textContent = n > 99 ? "99+" : String(n);
  badge.hidden = n === 0;
  bell.setAttribute("aria-label", n === 0 ? bell.dataset.labelNone : bell.dataset.labelSome.replace("{n}", String(n)));
  const summary = document.querySelector("[data-notes-summary]");
  if (summary && summary.dataset.template) summary.textContent = summary.dataset.template.replace("{n}", String(n));
}

function addToList(item) {
  const list = document.querySelector("[data-notes-list]");
  if (!list || list.querySelector(`[data-note="${item.id}"]`)) {
    // Already listed ("your turn" at the same table moves up): mark it unread again, at the top.
    const old = list && list.querySelector(`[data-note="${item.id}"]`);
    if (old) old.remove();
    else return;
  }
  const empty = list.querySelector("[data-notes-empty]");
  if (empty) empty.remove();
  const row = document.createElement("li");
  row.className = "note note--unread note--new";
  row.dataset.note = String(item.id);
  const link = document.createElement("a");
  link.className = "note__text";
  link.href = `${list.dataset.openBase}${item.id}/open/`;
  const unread = document.createElement("span");
  unread.className = "visually-hidden";
  unread.textContent = `${list.dataset.unreadLabel} `;
  link.append(unread, item.text);
  const time = document.createElement("time");
  time.className = "note__time";
  time.dateTime = item.created;
  time.textContent = list.dataset.justNow || "";
  // The same "Mark read" form the server renders for an unread one.
  const form = document.createElement("form");
  form.method = "post";
  form.action = list.dataset.readUrl;
  form.className = "inline-form note__read";
  for (const [name, value] of [["csrfmiddlewaretoken", list.dataset.csrf], ["id", String(item.id)]]) {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    form.append(input);
  }
  const button = document.createElement("button");
  button.type = "submit";
  button.className = "link-button";
  button.textContent = list.dataset.markRead;
  form.append(button);
  row.append(link, time, form);
  list.prepend(row);
}

function announce(text) {
  const region = document.querySelector("[data-bell-live]");
  if (region) region.textContent = text;
}

if (bell) {
  new Connection("/ws/notifications/", {
    onStatus(status) {
      document.dispatchEvent(new CustomEvent("bell:status", { detail: status }));
    },
    onFrame(frame) {
      document.dispatchEvent(new CustomEvent("bell:frame", { detail: frame }));
      if (typeof frame.unread === "number") showCount(frame.unread);
      if (frame.type === "notification" && frame.item) {
        addToList(frame.item);
        announce(frame.item.text);
        bell.classList.remove("bell--ring");
        void bell.offsetWidth; // restart the animation
        bell.classList.add("bell--ring");
      }
    },
  }).start();
}
