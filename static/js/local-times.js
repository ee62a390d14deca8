// Times the server writes in UTC (<time data-local datetime="...">) shown in the visitor's own time zone
// and language: "lun. 20:00" for a visitor in Bucharest of an arena at 18:00 UTC.
const language = document.documentElement.lang || undefined;
const format = new Intl.DateTimeFormat(language, { weekday: "short", hour: "2-digit", minute: "2-digit" });
for (const node of document.querySelectorAll("time[data-local]")) {
  const when = new Date(node.getAttribute("datetime"));
  if (!Number.isNaN(when.getTime())) node.textContent = format.format(when);
}
