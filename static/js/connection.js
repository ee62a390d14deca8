// A WebSocket that stays connected: reconnects with exponential backoff and jitter, pings when the
// server has been quiet for a few seconds, and asks for a resync when the server's version is ahead of
// what is shown (docs/protocol.md).

// A ping goes out when no frame carrying the table's version (a state or a pong) came for this long:
// a table in play sends a state frame every few seconds, and those say all a pong would.
const PING_EVERY_MS = 5000;
// Nothing at all heard for this long (not even the pong of a ping): the connection is dead.
const PONG_TIMEOUT_MS = 12000;
const BACKOFF_FIRST_MS = 500;
const BACKOFF_MAX_MS = 15000;
// A pong newer than the page may only have overtaken its broadcast (still on its way): sync only if
// the page is still behind this long after. A busy server answering every such pong with a whole
// state frame would only get busier.
const SYNC_GRACE_MS = 300;

export class Connection {
  /**
   * @param {string} path        "/ws/tables/12/"
   * @param {object} handlers    onFrame(frame), onStatus(status: "connecting"|"connected"|"reconnecting"|"resynced")
   * @param {function} shownVersion  the version the page shows (for pong checks), or null
   */
  constructor(path, { onFrame, onStatus, shownVersion = () => null }) {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    this.url = `${scheme}//${location.host}${path}`;
    this.onFrame = onFrame;
    this.onStatus = onStatus || (() => {});
    this.shownVersion = shownVersion;
    this.attempt = 0;
    this.everConnected = false;
    this.socket = null;
    this.pingTimer = null;
    this.retryTimer = null;
    this.syncTimer = null;
    this.lastHeard = 0; // any frame
    this.lastVersion = 0; // a frame carrying the version (state, pong)
    this.lastPing = 0;
    this.counter = 0;
    this.stopped = false;
    window.addEventListener("online", () => this.reconnectNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") {
        if (this.isOpen()) this.send({ type: "ping" });
        else this.reconnectNow();
      }
    });
  }

  start() {
    this.open();
  }

  isOpen() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  open() {
    clearTimeout(this.retryTimer);
    this.onStatus(this.everConnected ? "reconnecting" : "connecting");
    let socket;
    try {
      socket = new WebSocket(this.url);
    } catch (error) {
      this.scheduleRetry();
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      if (socket !== this.socket) return;
      const again = this.everConnected;
      this.everConnected = true;
      this.attempt = 0;
      this.lastHeard = this.lastVersion = Date.now();
      this.startPings();
      this.onStatus(again ? "resynced" : "connected");
    });
    socket.addEventListener("message", (event) => {
      if (socket !== this.socket) return;
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch (error) {
        return;
      }
      this.lastHeard = Date.now();
      if (typeof frame.version === "number") this.lastVersion = this.lastHeard;
      if (frame.type === "pong") {
        const shown = this.shownVersion();
        if (typeof frame.version === "number" && shown !== null && frame.version > shown && this.syncTimer === null) {
          const ahead = frame.version;
          this.syncTimer = setTimeout(() => {
            this.syncTimer = null;
            const now = this.shownVersion();
            if (now !== null && now < ahead) this.send({ type: "sync" });
          }, SYNC_GRACE_MS);
        }
        return;
      }
      this.onFrame(frame);
    });
    socket.addEventListener("close", () => {
      if (socket !== this.socket) return;
      this.stopPings();
      this.socket = null;
      if (!this.stopped) this.scheduleRetry();
    });
  }

  scheduleRetry() {
    this.onStatus("reconnecting");
    const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** this.attempt);
    // "Full jitter": anywhere between half and all of the ceiling, so a restarted server is not
    // hit by every client at the same instant.
    const delay = ceiling / 2 + Math.random() * (ceiling / 2);
    this.attempt += 1;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  reconnectNow() {
    if (this.isOpen() || this.stopped) return;
    if (this.socket && this.socket.readyState === WebSocket.CONNECTING) return;
    this.attempt = 0;
    this.open();
  }

  startPings() {
    this.stopPings();
    this.pingTimer = setInterval(() => {
      if (!this.isOpen()) return;
      const now = Date.now();
      if (now - this.lastHeard > PONG_TIMEOUT_MS) {
        // The server went quiet: drop the socket and start over.
        this.socket.close();
        return;
      }
      if (now - this.lastVersion >= PING_EVERY_MS && now - this.lastPing >= PING_EVERY_MS) {
        this.lastPing = now;
        this.send({ type: "ping" });
      }
    }, PING_EVERY_MS / 5);
  }

  stopPings() {
    clearInterval(this.pingTimer);
    this.pingTimer = null;
  }

  /** Send a frame; false if the socket is not open (the caller tells the player). */
  send(frame) {
    if (!this.isOpen()) return false;
    this.socket.send(JSON.stringify(frame));
    return true;
  }

  /** A unique id for a move frame (the server applies the same id once). */
  nextId() {
    this.counter += 1;
    return `${Date.now().toString(36)}-${this.counter}-${Math.random().toString(36).slice(2, 6)}`;
  }
}
