// The push settings page (apps/notifications): turn Web Push on or off for this browser. The browser's
// subscription is made through the site's service worker (/sw.js, which shows the pushes) and handed to
// the server; turning it off removes it from both.
const section = document.querySelector("[data-push]");

function bytesOf(base64url) {
  const padded = base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

async function post(url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRFToken": section.dataset.csrf },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  if (!response.ok) throw new Error(String(response.status));
  return response.json();
}

async function init() {
  const state = section.querySelector("[data-push-state]");
  const on = section.querySelector("[data-push-on]");
  const off = section.querySelector("[data-push-off]");
  if (!on || !off) return; // Web Push is off on this site: the page says so
  const say = (key) => { state.textContent = section.dataset[key]; };
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say("unsupported");
    return;
  }
  const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(() => navigator.serviceWorker.ready);
  const show = (subscription) => {
    on.hidden = Boolean(subscription);
    off.hidden = !subscription;
    if (subscription) say("on");
    else if (Notification.permission === "denied") say("denied");
    else say("off");
  };
  show(await registration.pushManager.getSubscription());
  on.addEventListener("click", async () => {
    on.disabled = true;
    try {
      if ((await Notification.requestPermission()) !== "granted") {
        show(null);
        return;
      }
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: bytesOf(section.dataset.key),
      });
      await post(section.dataset.subscribe, subscription.toJSON());
      show(subscription);
    } catch (error) {
      say("failed");
    } finally {
      on.disabled = false;
    }
  });
  off.addEventListener("click", async () => {
    off.disabled = true;
    try {
      const subscription = await registration.pushManager.getSubscription();
      if (subscription) {
        await post(section.dataset.unsubscribe, { endpoint: subscription.endpoint });
        await subscription.unsubscribe();
      }
      show(null);
    } catch (error) {
      say("failed");
    } finally {
      off.disabled = false;
    }
  });
}

// A player who never chose a time zone starts from the browser's own (the quiet hours are theirs).
const form = document.querySelector("[data-guess-zone]");
if (form) {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const select = form.querySelector('[name="time_zone"]');
  if (zone && select && [...select.options].some((option) => option.value === zone)) select.value = zone;
}

if (section) init();
