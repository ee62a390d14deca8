// Before a match: the seats (sit here in one press: a visitor becomes a guest on the spot), the
// host's Start, the invite link.

import { h, unchanged } from "./dom.js";
import { t, tn } from "./i18n.js";
import { ratedLabel, seatName } from "./names.js";

export function renderWaiting(root, felt, frame, config, send) {
  const table = frame.table;
  const open = table.status === "open";
  root.hidden = !open;
  felt.classList.toggle("is-waiting", open);
  if (!open) {
    if (!unchanged(root, "")) root.replaceChildren();
    return;
  }
  const mine = frame.seat;
  const isHost = mine !== null && table.seats[mine] && table.seats[mine].user_id === table.host_id;
  const full = table.seats.every((seat) => !seat.empty);
  const list = h("ul", { class: "waiting__seats" });
  for (const seat of table.seats) {
    const item = h("li", { class: `waiting__seat${seat.empty ? " is-empty" : ""}` },
      h("span", { class: "waiting__index" }, String(seat.index + 1)),
      h("span", { class: "waiting__name" }, seat.empty && !seat.invited ? t("free_seat") : seatName(seat)));
    if (seat.empty && !seat.invited && mine === null) {
      const form = h("form", { method: "post", action: config.joinUrl, class: "inline-form" },
        h("input", { type: "hidden", name: "csrfmiddlewaretoken", value: config.csrf }),
        h("input", { type: "hidden", name: "seat", value: String(seat.index) }),
        h("input", { type: "hidden", name: "invite", value: config.invite || "" }),
        h("button", { type: "submit", class: "button button--small button--primary", "aria-label": t("sit_in_seat", { n: seat.index + 1 }) }, t("sit_here")));
      item.append(form);
    } else if (seat.index === mine) {
      item.append(h("span", { class: "badge badge--you" }, t("you")));
    }
    list.append(item);
  }
  const panel = h("div", { class: "waiting" },
    h("h2", {}, t("waiting_for_players")),
    h("p", { class: "waiting__lead" }, full ? t("waiting_all_seated") : tn("waiting_empty", table.seats.filter((seat) => seat.empty).length)),
    list,
    // Before the start: whether the match will be rated, and if not why (SPEC 11).
    h("p", { class: `waiting__note waiting__rated${table.rated ? " is-rated" : ""}`, "data-rated": table.rated ? "1" : "0" }, ratedLabel(table.rated, table.unrated)));
  if (isHost) {
    panel.append(h("button", {
      type: "button",
      class: "button button--primary button--large",
      disabled: !full,
      onclick: () => send({ type: "start" }),
    }, t("start_match")));
  } else if (mine !== null) {
    panel.append(h("p", { class: "waiting__note" }, t("waiting_host")));
  }
  if (config.inviteUrl && mine !== null) {
    const input = h("input", { type: "text", readonly: true, value: config.inviteUrl, class: "invite__url", id: "invite-url", "aria-label": t("invite_link") });
    const copy = h("button", {
      type: "button",
      class: "button button--small",
      onclick: async () => {
        input.select();
        try {
          await navigator.clipboard.writeText(config.inviteUrl);
        } catch (error) {
          document.execCommand("copy");
        }
        copy.textContent = t("copied");
        setTimeout(() => { copy.textContent = t("copy_link"); }, 2000);
      },
    }, t("copy_link"));
    panel.append(h("div", { class: "invite" },
      h("label", { for: "invite-url" }, table.private ? t("invite_private") : t("invite_public")),
      h("div", { class: "invite__row" }, input, copy)));
  }
  if (mine === null && !config.signedIn && !full) {
    panel.append(h("p", { class: "waiting__note waiting__guest" }, t("sit_as_guest"), " ",
      h("a", { href: config.loginUrl }, t("sign_in_first"))));
  }
  // Drawn as before (the same frame again: a reconnect's first frame, a clock's refresh): keep the panel,
  // so a press on "Sit here" or "Start" is never lost to a redraw (dom.js unchanged).
  if (unchanged(root, panel.outerHTML)) return;
  root.replaceChildren(panel);
}

