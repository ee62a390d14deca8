// The bot page that shows a new token is the answer to the POST that made it (apps/bots/views.py): the
// token is kept nowhere to be shown again. The address becomes the bot page's own, so that reloading it
// shows the page without the token instead of sending the form again (which would make another token).
const page = document.querySelector("[data-page-url]");
if (page && window.history && window.history.replaceState) {
  window.history.replaceState(null, "", page.dataset.pageUrl);
}
