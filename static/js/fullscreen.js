// Fullscreen for the table on a phone: the table alone on the whole screen, turned to landscape where
// the browser lets a page lock the orientation (Android's Chrome does in fullscreen; iOS Safari has no
// Fullscreen API for pages, so there the button stays hidden and "Add to Home Screen" is the way).

/** Show `button` where it can work (a touch screen with the Fullscreen API) and make it toggle
 * fullscreen for `target`. */
export function setupFullscreen(button, target) {
  if (!button || !target) return;
  const coarse = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
  if (!document.fullscreenEnabled || !target.requestFullscreen || !coarse) {
    button.hidden = true;
    return;
  }
  button.hidden = false;
  const show = () => button.setAttribute("aria-pressed", document.fullscreenElement ? "true" : "false");
  document.addEventListener("fullscreenchange", () => {
    show();
    if (!document.fullscreenElement && screen.orientation && screen.orientation.unlock) {
      try {
        screen.orientation.unlock();
      } catch (error) {
        /* nothing was locked */
      }
    }
  });
  button.addEventListener("click", async () => {
    if (document.fullscreenElement) {
      await document.exitFullscreen().catch(() => {});
      return;
    }
    try {
      await target.requestFullscreen({ navigationUI: "hide" });
    } catch (error) {
      return; // refused (not from a tap, or a browser setting): the page stays as it was
    }
    if (screen.orientation && screen.orientation.lock) await screen.orientation.lock("landscape").catch(() => {});
  });
  show();
}
