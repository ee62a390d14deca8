// What the frames name by a code, worded in the page's language (the server sends one frame to every
// viewer of a table, whatever their language: a bot's level, the seconds per turn, the game's slug).
import { raw, t } from "./i18n.js";

/** A seat's name: the player's (a bot account's marked BOT), a bot's level, or "Empty seat" (or who
 * the seat is kept for). */
export function seatName(seat) {
  if (!seat) return "";
  if (seat.bot) return t("bot_" + seat.bot);
  if (seat.empty) return seat.invited ? t("seat_invited", { name: t("bot_account_name", { name: seat.invited }) }) : t("empty_seat");
  if (seat.bot_account) return t("bot_account_name", { name: seat.name });
  return seat.name;
}

/** "60 s per turn" or "No timer". */
export function paceLabel(seconds) {
  return seconds ? t("pace_seconds", { seconds }) : t("no_timer");
}

/** The catalog name of a game, by its slug. */
export function gameName(slug) {
  const names = raw("game_names");
  return (names && typeof names === "object" && names[slug]) || slug;
}

/** "Rated", "Unrated", or "Unrated: <why>" from the frame's reason codes (apps/tables/rated.py). */
export function ratedLabel(rated, reasons) {
  if (rated) return t("rated");
  const words = raw("unrated_reasons") || {};
  const why = (reasons || []).map((code) => words[code]).filter(Boolean);
  return why.length ? t("unrated_because", { reasons: why.join(", ") }) : t("unrated");
}

/** Why a match was aborted (SPEC 11), from the frame's `match.aborted` ({reason, seat}), or "". */
export function abortedText(aborted, seats) {
  if (!aborted) return "";
  const words = raw("aborted_reasons") || {};
  const text = words[aborted.reason];
  return text ? text.replace("%(name)s", seatName(seats[aborted.seat])) : "";
}
