// Provably fair deals (SPEC 11; the page /fair-deals/ explains them). When a match starts, the server shows
// every seat the commitment to its secret seed and asks each human seat's browser for a seed of its own:
// this module answers with 16 bytes from crypto.getRandomValues, once per match, and shows the
// commitment (and, after the match, a link to the check) in one line of the table's header.
//
// The frame it reads is `table.match.fair` of a `state` frame (docs/protocol.md):
//   {commitment, seeding, seeds_until, sent: [bool per seat], revealed, explained_url, check_url?}

import { clear, h } from "./dom.js";
import { t } from "./i18n.js";

export const SEED_BYTES = 16;

/** 16 random bytes from the browser's cryptographic generator, as 32 lowercase hex digits. */
export function newSeed(source = globalThis.crypto) {
  const bytes = new Uint8Array(SEED_BYTES);
  source.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The fair-deal part of a state frame, or null (a match dealt before fair deals, or no match yet). */
export function fairOf(frame) {
  return (frame && frame.table && frame.table.match && frame.table.match.fair) || null;
}

const answered = new Set(); // the commitments this page has sent a seed for

/** Send this seat's seed if its match is asking for it and it has none in yet: once per match on this
 * page (after a reload the frame says the seed is in). `send(frame)` returns whether it went out; if
 * not (not connected), the next state frame asks again. Returns whether a seed was sent. */
export function offerSeed(frame, send) {
  const fair = fairOf(frame);
  if (!fair || !fair.seeding || frame.seat === null || frame.seat === undefined) return false;
  if (fair.sent[frame.seat] || answered.has(fair.commitment)) return false;
  if (!send({ type: "seed", seed: newSeed() })) return false;
  answered.add(fair.commitment);
  return true;
}

/** What the felt says while the match waits for the players' seeds ("" otherwise). */
export function seedingText(frame) {
  const fair = fairOf(frame);
  return fair && fair.seeding ? t("fair_waiting_seeds") : "";
}

/** The header's fair-deal line: the commitment while the match is played, a link to the check after.
 * On a phone only "Fair deal" and the link show (the commitment is in the title and on the match page). */
export function renderFair(root, frame) {
  const fair = fairOf(frame);
  root.hidden = !fair;
  if (!fair) return;
  const how = h("a", { href: fair.explained_url, target: "_blank", rel: "noopener" }, t("fair_how"));
  const mark = h("span", { class: "fair-line__mark", "aria-hidden": "true" }, "✓");
  if (fair.revealed) {
    clear(root).append(mark, " ", h("a", { href: fair.check_url }, t("fair_check_link")), " · ", how);
    return;
  }
  const detail = t(fair.seeding ? "fair_seeding" : "fair_commitment", { commitment: fair.commitment.slice(0, 12) + "…" });
  clear(root).append(mark, " ",
    h("span", { title: t("fair_commitment_title", { commitment: fair.commitment }) }, t("fair_label")),
    h("span", { class: "fair-line__detail" }, ", " + detail), " · ", how);
}
