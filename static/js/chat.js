// The table's chat (SPEC 13): messages from the server (`chat_history` when the socket opens, then
// `chat`, `chat_deleted`, `muted`), quick phrases for everyone signed in, free text for registered
// players, a menu per message (mute its author, report it, a moderator's delete) and a report dialog
// shared with the seats. The server decides who may say what; refusals come back as error frames.

import { h } from "./dom.js";
import { raw, t } from "./i18n.js";

const KEEP = 80;

export class Chat {
  /**
   * @param page   the table page (send, toast)
   * @param els    { root, list, form, input, phrases, count, report }
   * @param me     { id, guest, staff } of the viewer (id null: not signed in)
   */
  constructor(page, els, me) {
    this.page = page;
    this.els = els;
    this.me = me;
    this.messages = new Map(); // id -> message
    this.muted = new Set();
    if (!els.root) return;
    this.unread = 0;
    this.unreadBadge = els.root.querySelector(".chat__unread");
    // On a phone the chat starts folded (the felt comes first); a message arriving counts as unread.
    this.toggle = els.root.querySelector(".chat__title");
    this.setOpen(!window.matchMedia("(max-width: 720px), (orientation: landscape) and (max-height: 520px)").matches);
    this.toggle.addEventListener("click", () => this.setOpen(!this.isOpen()));
    this.setupForm();
    this.report = new ReportDialog(page, els.report);
  }

  setupForm() {
    const { form, input, phrases, count } = this.els;
    const phraseNames = raw("chat_phrases") || {};
    for (const [code, words] of Object.entries(phraseNames)) {
      phrases.append(h("button", { type: "button", class: "chat__phrase", dataset: { phrase: code },
        onclick: () => this.page.send({ type: "chat", phrase: code }) }, words));
    }
    if (this.me.id === null) {
      form.hidden = true;
      phrases.hidden = true;
      this.els.root.querySelector(".chat__note").textContent = t("chat_sign_in");
      return;
    }
    if (this.me.guest) {
      input.disabled = true;
      input.placeholder = t("chat_guest_placeholder");
      form.querySelector("button").disabled = true;
    }
    const limit = Number(input.getAttribute("maxlength")) || 200;
    input.removeAttribute("maxlength"); // the server refuses the 201st character, with its reason
    input.addEventListener("input", () => {
      const left = limit - input.value.length;
      count.textContent = left < 40 ? String(left) : "";
      count.classList.toggle("is-over", left < 0);
    });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      this.lastSent = text;
      this.page.send({ type: "chat", text });
      input.value = "";
      count.textContent = "";
    });
  }

  /** True if the frame was the chat's. */
  take(frame) {
    if (frame.type === "chat_history") {
      this.muted = new Set(frame.muted || []);
      this.messages.clear();
      this.els.list?.replaceChildren();
      this.loading = true;
      for (const message of frame.messages) this.add(message);
      this.loading = false;
      return true;
    }
    if (frame.type === "chat") {
      this.add(frame.message);
      return true;
    }
    if (frame.type === "chat_deleted") {
      this.messages.delete(frame.id);
      this.els.list?.querySelector(`[data-message="${frame.id}"]`)?.remove();
      return true;
    }
    if (frame.type === "muted") {
      const more = frame.muted.length > this.muted.size;
      this.muted = new Set(frame.muted);
      for (const [id, message] of this.messages) {
        if (this.muted.has(message.user_id)) {
          this.messages.delete(id);
          this.els.list?.querySelector(`[data-message="${id}"]`)?.remove();
        }
      }
      this.page.toast(more ? t("chat_muted_now") : t("chat_unmuted_now"));
      return true;
    }
    if (frame.type === "reported") {
      this.page.toast(t("report_sent"));
      this.report?.close();
      return true;
    }
    if (frame.type === "error" && frame.code && (frame.code.startsWith("chat_") || frame.code.startsWith("report_"))) {
      if (frame.code.startsWith("report_")) this.report?.refused(frame.message);
      else {
        this.page.toast(frame.message, "error");
        if (this.lastSent && !this.els.input.value) this.els.input.value = this.lastSent; // nothing lost
      }
      this.lastSent = null;
      return true;
    }
    return false;
  }

  add(message) {
    if (!this.els.list || this.messages.has(message.id) || this.muted.has(message.user_id)) return;
    this.messages.set(message.id, message);
    if (message.user_id === this.me.id) this.lastSent = null;
    const said = message.phrase ? (raw("chat_phrases") || {})[message.phrase] || message.phrase : message.text;
    const seatClass = message.seat !== null && message.seat !== undefined ? ` seat-colour-${message.seat % 4}` : "";
    const item = h("li", { class: `chat__item${seatClass}${message.phrase ? " chat__item--phrase" : ""}`, dataset: { message: message.id, author: message.user_id } },
      h("span", { class: "chat__name" }, message.name, message.seat === null ? h("span", { class: "chat__watcher" }, " · ", t("chat_spectator")) : null),
      h("span", { class: "chat__text" }, said));
    const menu = this.menuFor(message);
    if (menu) item.append(menu);
    this.els.list.append(item);
    while (this.els.list.children.length > KEEP) this.els.list.firstElementChild.remove();
    this.els.list.scrollTop = this.els.list.scrollHeight;
    if (!this.isOpen() && !this.loading) this.setUnread(this.unread + 1);
  }

  isOpen() {
    return this.els.root.classList.contains("is-open");
  }

  setOpen(open) {
    this.els.root.classList.toggle("is-open", open);
    this.toggle.setAttribute("aria-expanded", String(open));
    this.els.root.querySelector(".chat__body").hidden = !open;
    if (open) {
      this.setUnread(0);
      this.els.list.scrollTop = this.els.list.scrollHeight;
    }
  }

  setUnread(count) {
    this.unread = count;
    if (!this.unreadBadge) return;
    this.unreadBadge.textContent = String(count);
    this.unreadBadge.hidden = count === 0;
  }

  menuFor(message) {
    if (this.me.id === null) return null;
    const buttons = [];
    if (message.user_id !== this.me.id) {
      buttons.push(h("button", { type: "button", class: "chat__action", dataset: { action: "mute" }, title: t("chat_mute_title", { name: message.name }),
        onclick: () => this.page.send({ type: "mute", user: message.user_id }) }, t("chat_mute")));
      buttons.push(h("button", { type: "button", class: "chat__action", dataset: { action: "report" },
        onclick: () => this.report.open({ message: message.id, name: message.name }) }, t("report")));
    }
    if (this.me.staff) {
      buttons.push(h("button", { type: "button", class: "chat__action chat__action--danger", dataset: { action: "delete" },
        onclick: () => this.page.send({ type: "chat_delete", message: message.id }) }, t("chat_delete")));
    }
    return buttons.length ? actionMenu(t("actions_for", { name: message.name }), buttons) : null;
  }

  /** Seat-card actions for another person at the table: mute and report. */
  seatActions(info) {
    if (this.me.id === null || !info.user_id || info.user_id === this.me.id || info.bot || info.bot_account) return null;
    const muted = this.muted.has(info.user_id);
    // The player's profile, /u/<name>/ (follow, challenge, block: SPEC 17), when the players' pages are
    // there to give the link its words (apps/players registers them).
    const profile = raw("seat_profile") !== undefined;
    return actionMenu(t("actions_for", { name: info.name }), [
      profile ? h("a", { class: "seat__action", href: `/u/${encodeURIComponent(info.name)}/`, dataset: { action: "profile" } }, t("seat_profile")) : null,
      h("button", { type: "button", class: "seat__action", dataset: { action: muted ? "unmute" : "mute" },
        onclick: () => this.page.send({ type: muted ? "unmute" : "mute", user: info.user_id }) }, muted ? t("chat_unmute") : t("chat_mute")),
      h("button", { type: "button", class: "seat__action", dataset: { action: "report" },
        onclick: () => this.report.open({ user: info.user_id, name: info.name }) }, t("report")),
    ]);
  }
}

/** One small "⋯" menu of a chat line's or a seat's actions (mute, report, delete), instead of a row of
 * buttons on every line and card; it closes when one is chosen. */
function actionMenu(label, items) {
  const buttons = items.filter(Boolean);
  const menu = h("details", { class: "action-menu" });
  for (const button of buttons) button.addEventListener("click", () => { menu.open = false; });
  menu.append(h("summary", { class: "action-menu__toggle", title: label, "aria-label": label }, "⋯"),
    h("span", { class: "action-menu__items" }, buttons));
  return menu;
}

class ReportDialog {
  constructor(page, dialog) {
    this.page = page;
    this.dialog = dialog;
    if (!dialog) return;
    const select = dialog.querySelector("select");
    for (const [code, words] of Object.entries(raw("report_reasons") || {})) select.append(h("option", { value: code }, words));
    dialog.querySelector("form").addEventListener("submit", (event) => {
      event.preventDefault();
      if (event.submitter && event.submitter.value === "cancel") {
        this.close();
        return;
      }
      const frame = { type: "report", reason: select.value, text: dialog.querySelector("textarea").value };
      Object.assign(frame, this.target.message ? { message: this.target.message } : { user: this.target.user });
      this.page.send(frame);
    });
  }

  open(target) {
    if (!this.dialog) return;
    this.target = target;
    this.dialog.querySelector("[data-target]").textContent = target.message ? t("report_message_of", { name: target.name }) : t("report_player", { name: target.name });
    this.dialog.querySelector("[data-error]").textContent = "";
    this.dialog.querySelector("textarea").value = "";
    this.dialog.showModal();
  }

  refused(message) {
    if (this.dialog && this.dialog.open) this.dialog.querySelector("[data-error]").textContent = message;
    else this.page.toast(message, "error");
  }

  close() {
    if (this.dialog && this.dialog.open) this.dialog.close();
  }
}
