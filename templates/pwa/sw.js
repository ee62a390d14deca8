// Tile Rummy's service worker (rummysite/pwa.py serves it at /sw.js, for the whole site).
// It keeps the site's shell only: the offline page and what it needs. A page request goes to the
// network; only when the network fails does the offline page answer. Pages, tables, their state and
// the socket are never stored or answered from here.

const CONFIG = {{ config|safe }};
const CACHE = "tile-rummy-shell-__VERSION__";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(CONFIG.shell)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith("tile-rummy-shell-") && name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // Always the network (a table's page carries its state); the offline page only when it fails.
    event.respondWith(fetch(request).catch(() => caches.match(CONFIG.offline)));
    return;
  }
  if (CONFIG.shell.includes(url.pathname)) {
    // The shell's own files: from the network when it answers (so they are never stale), else kept.
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (response.ok) {
            const copy = response.clone();
            caches.open(CACHE).then((cache) => cache.put(request, copy));
          }
          return response;
        })
        .catch(() => caches.match(request)),
    );
  }
  // Everything else (other static files, the socket, the API): the browser's own way, untouched.
});

// Web Push (apps/notifications/push.py): a title, one sentence, where a press leads and a tag (one per
// table, so a newer push replaces an older one). Nothing of a rack or a chat is ever in one.
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = {};
  }
  const icon = CONFIG.shell.find((path) => path.endsWith("icon-192.png"));
  event.waitUntil(
    self.registration.showNotification(data.title || "Tile Rummy", {
      body: data.body || "",
      tag: data.tag || undefined,
      renotify: Boolean(data.tag),
      icon,
      data: { url: data.url || "/" },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (url.origin !== self.location.origin) return;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url === url.href && "focus" in client);
      return open ? open.focus() : self.clients.openWindow(url.href);
    }),
  );
});
