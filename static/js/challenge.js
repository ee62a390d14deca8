// A challenge's page follows its answers live (SPEC 17): the bell's socket (static/js/bell.js, the one
// socket of every page) hears each change of a challenge the player is in, on their own topic, and
// dispatches it as a "bell:frame" event. The page moves to the table as soon as the match has started;
// any other change (an answer, a decline and its reason, a cancel, the expiry) shows the page again.
// No polling: the page compares what it shows with the server once the socket is listening (the first
// "unread" frame after opening, and after each reconnect), and, only while the socket is down, every
// minute.
const box = document.getElementById("challenge");
if (box) {
  const id = Number(box.dataset.challenge);
  const url = box.dataset.stateUrl;
  const shown = box.dataset.signature;
  const SLOW_RESYNC_MS = 60000;
  let leaving = false;
  let reloadTimer = null;
  let live = false;
  let needSync = false;

  const goTo = (tableUrl) => {
    leaving = true;
    clearTimeout(reloadTimer);
    window.location.assign(tableUrl);
  };
  // A change that is not the start: show the page again (after a moment: the start may follow it at once).
  const showAgain = () => {
    if (leaving) return;
    clearTimeout(reloadTimer);
    reloadTimer = window.setTimeout(() => {
      if (!leaving) {
        leaving = true;
        window.location.reload();
      }
    }, 400);
  };
  const resync = async () => {
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (!response.ok) return;
      const state = await response.json();
      if (state.status === "started" && state.table_url) goTo(state.table_url);
      else if (state.signature !== shown) showAgain();
    } catch (error) {
      // offline for a moment: the next reconnect asks again
    }
  };

  document.addEventListener("bell:status", (event) => {
    live = false;
    if (event.detail === "connected" || event.detail === "resynced") needSync = true;
  });
  document.addEventListener("bell:frame", (event) => {
    const frame = event.detail || {};
    if (frame.type === "unread" && needSync) {
      needSync = false;
      live = true;
      resync();
      return;
    }
    if (frame.type !== "challenge" || Number(frame.challenge) !== id) return;
    if (frame.status === "started" && frame.table_url) goTo(frame.table_url);
    else showAgain();
  });
  // The player's own answer leaves the page by its form: a frame of that answer does not show it again.
  box.addEventListener("submit", () => {
    leaving = true;
  });
  window.setInterval(() => {
    if (!live && !leaving) resync();
  }, SLOW_RESYNC_MS);
}
