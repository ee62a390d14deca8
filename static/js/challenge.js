// A challenge's page waits for its answers (SPEC 17): it asks the server every few seconds and moves to
// the table as soon as the match has started; any other change (an answer, a cancel) reloads the page.
const box = document.getElementById("challenge");
if (box) {
  const url = box.dataset.stateUrl;
  const every = Number(box.dataset.pollMs) || 2000;
  let seen = null;
  const ask = async () => {
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (response.ok) {
        const state = await response.json();
        if (state.status === "started" && state.table_url) {
          window.location.assign(state.table_url);
          return;
        }
        const now = JSON.stringify([state.status, state.answers]);
        if (seen !== null && now !== seen) {
          window.location.reload();
          return;
        }
        seen = now;
      }
    } catch (error) {
      // offline for a moment: the next round asks again
    }
    window.setTimeout(ask, every);
  };
  window.setTimeout(ask, every);
}
