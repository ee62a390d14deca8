// The offline page (templates/pwa/offline.html, shown by the service worker in place of the page asked
// for): that page again as soon as it can be had. The browser's "online" event says when the network is
// back, but not when the site is (or it came before this script ran), so the page also asks the site now
// and then, less and less often, while it is in view.

const FIRST_TRY_MS = 3000;
const LAST_TRY_MS = 30000;
let wait = FIRST_TRY_MS;

async function tryAgain() {
  try {
    const response = await fetch(location.href, { method: "HEAD", cache: "no-store" });
    if (response.ok) {
      location.reload();
      return;
    }
  } catch (error) {
    /* still offline */
  }
  wait = Math.min(LAST_TRY_MS, wait * 2);
  setTimeout(check, wait);
}

function check() {
  if (document.visibilityState === "visible") tryAgain();
  else setTimeout(check, wait);
}

window.addEventListener("online", () => location.reload());
document.querySelector("[data-reload]")?.addEventListener("click", (event) => {
  event.preventDefault();
  location.reload();
});
setTimeout(check, wait);
