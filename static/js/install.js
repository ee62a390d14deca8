// Every page: register the service worker (rummysite/pwa.py, /sw.js), which keeps the site's shell for
// the offline page and makes the site installable on a phone's home screen.

if ("serviceWorker" in navigator && window.isSecureContext) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
      /* no service worker (private mode, a browser setting): the site works the same, online */
    });
  });
}
