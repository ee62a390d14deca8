// What the frames name by a code, worded in the page's language (the server sends one frame to every
// viewer of a table, whatever their language: a bot's level, the seconds per turn, the game's slug).
import { raw, t } from "./i18n.js";

/** A seat's name: the player's, a bot's level, or "Empty seat". */
export function seatName(seat) {
  if (!seat) return "";
  if (seat.bot) return t("bot_" + seat.bot);
  if (seat.empty) return t("empty_seat");
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
