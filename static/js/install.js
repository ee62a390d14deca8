// Every page: register the service worker (rummysite/pwa.py, /sw.js), which keeps the site's shell for
// the offline page and makes the site installable on a phone's home screen.

// The home page's tip to add the site to a phone's home screen: offered where the browser can install it
// (Chrome's beforeinstallprompt) or on an iPhone (Safari's Share menu), never inside the installed app,
// and not again once dismissed in this browser.
const tip = document.getElementById("install-tip");
const installed = window.matchMedia("(display-mode: standalone)").matches || navigator.standalone === true;
let dismissed = false;
try { dismissed = localStorage.getItem("install-tip") === "dismissed"; } catch { /* storage off */ }
if (tip && !installed && !dismissed) {
  const hide = () => { tip.hidden = true; };
  tip.querySelector("[data-dismiss]").addEventListener("click", () => {
    hide();
    try { localStorage.setItem("install-tip", "dismissed"); } catch { /* storage off */ }
  });
  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault();
    const button = tip.querySelector("[data-install]");
    button.hidden = false;
    button.onclick = () => { event.prompt(); event.userChoice.finally(hide); };
    tip.hidden = false;
  });
  if (/iPhone|iPad|iPod/.test(navigator.userAgent)) {
    tip.querySelector("[data-ios]").hidden = false;
    tip.hidden = false;
  }
}

if ("serviceWorker" in navigator && window.isSecureContext) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
      /* no service worker (private mode, a browser setting): the site works the same, online */
    });
  });
}
