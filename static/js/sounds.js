// The table's sounds: your turn, a tile laid or drawn, the last 10 seconds of your clock, the end of a
// game. Short sounds made here with the Web Audio API (no recordings). A switch in the top bar turns
// them off, remembered in this browser. Browsers allow sound only after the player has touched the page,
// so nothing plays before the first click, tap or key. Every cue is also announced as a `table:sound`
// event on `window` ({name, audible}), for whoever wants to follow them (the tests do).

import { load, save } from "./store.js";

const SETTING = "sound";
const VOLUME = 0.2;
const LAST_SECONDS = 10;
const CUE_GAP = 0.18; // seconds between two cues of one frame

/**
 * The cues between two state frames of one viewer: [{name, won?}]. "end" when the game ends (won: it
 * was yours), else "lay" when tiles went onto the table or the discards, "draw" when a seat's count of
 * tiles grew, and "turn" when your turn begins.
 */
export function cuesFor(before, after) {
  const a = before && before.view;
  const b = after && after.view;
  if (!a || !b) return [];
  const gameOf = (frame) => (frame.table.current_game ? frame.table.current_game.id : null);
  if (gameOf(before) !== gameOf(after)) return [];
  const mine = after.seat;
  if (b.over && !a.over) return [{ name: "end", won: mine !== null && Boolean(b.result) && b.result.winner === mine }];
  if (b.over) return [];
  const cues = [];
  const laid = onTable(b) > onTable(a) || (b.discards || []).length > (a.discards || []).length;
  const drew = (b.players || []).some((player, seat) => a.players && a.players[seat] && player.tiles > a.players[seat].tiles);
  if (laid) cues.push({ name: "lay" });
  else if (drew) cues.push({ name: "draw" });
  if (mine !== null && b.turn === mine && (a.turn !== mine || a.turn_no !== b.turn_no)) cues.push({ name: "turn" });
  return cues;
}

function onTable(view) {
  return (view.melds || view.table || []).reduce((count, meld) => count + meld.tiles.length, 0);
}

export class Sounds {
  /**
   * @param {HTMLButtonElement|null} button  the on/off switch (aria-pressed: sounds on)
   * @param {function} secondsLeft  your clock's seconds left while it is your turn, else null
   */
  constructor(button, secondsLeft) {
    this.button = button;
    this.on = load(SETTING, "on") !== "off";
    this.context = null;
    this.noiseBuffer = null;
    this.lastTick = null;
    this.show();
    button?.addEventListener("click", () => this.toggle());
    const unlock = () => this.unlock();
    // The events that count as a gesture for the autoplay rule (a touch counts when it ends).
    for (const type of ["pointerdown", "pointerup", "touchend", "click", "keydown"]) document.addEventListener(type, unlock, { capture: true });
    setInterval(() => this.clockTick(secondsLeft()), 200);
  }

  toggle() {
    this.on = !this.on;
    save(SETTING, this.on ? "on" : "off");
    this.show();
  }

  show() {
    if (this.button) this.button.setAttribute("aria-pressed", this.on ? "true" : "false");
  }

  /** The first gesture: from now on the browser lets the page make sound. */
  unlock() {
    if (this.context) {
      if (this.context.state === "suspended") this.context.resume().catch(() => {});
      return;
    }
    const AudioContextClass = window.AudioContext || window.webkitAudioContext;
    if (!AudioContextClass) return;
    try {
      this.context = new AudioContextClass();
      this.master = this.context.createGain();
      this.master.gain.value = VOLUME;
      this.master.connect(this.context.destination);
    } catch (error) {
      this.context = null;
    }
  }

  /** The cues between two frames (see cuesFor), one after the other (a tile laid, then your turn). */
  frame(before, after) {
    cuesFor(before, after).forEach((cue, index) => this.play(cue.name, cue, index * CUE_GAP));
  }

  /** A tick for each of the last seconds of your clock (higher for the last three). */
  clockTick(left) {
    if (left === null || left === undefined || left <= 0 || left > LAST_SECONDS) {
      this.lastTick = null;
      return;
    }
    const second = Math.ceil(left);
    if (second === this.lastTick) return;
    this.lastTick = second;
    this.play("tick", { urgent: second <= 3 });
  }

  play(name, options = {}, delay = 0) {
    const context = this.context;
    const audible = this.on && context !== null && context.state === "running";
    window.dispatchEvent(new CustomEvent("table:sound", { detail: { name, audible } }));
    if (!audible) return;
    const now = context.currentTime + 0.01 + delay;
    const voice = VOICES[name];
    if (voice) voice(this, now, options);
  }

  // Building blocks -------------------------------------------------------------------------------

  /** A gain that rises to `gain` in `attack` seconds and fades out by `duration`, into the master. */
  envelope(start, gain, attack, duration) {
    const envelope = this.context.createGain();
    envelope.gain.setValueAtTime(0.0001, start);
    envelope.gain.exponentialRampToValueAtTime(gain, start + attack);
    envelope.gain.exponentialRampToValueAtTime(0.0001, start + duration);
    envelope.connect(this.master);
    return envelope;
  }

  tone(start, { freq, duration, type = "sine", gain = 0.6, slideTo = null }) {
    const context = this.context;
    const oscillator = context.createOscillator();
    oscillator.type = type;
    oscillator.frequency.setValueAtTime(freq, start);
    if (slideTo) oscillator.frequency.exponentialRampToValueAtTime(slideTo, start + duration);
    oscillator.connect(this.envelope(start, gain, 0.012, duration));
    oscillator.start(start);
    oscillator.stop(start + duration + 0.03);
  }

  noise(start, { duration, freq, to = null, q = 1, gain = 0.6 }) {
    const context = this.context;
    if (!this.noiseBuffer) {
      const length = Math.floor(context.sampleRate * 0.4);
      this.noiseBuffer = context.createBuffer(1, length, context.sampleRate);
      const data = this.noiseBuffer.getChannelData(0);
      for (let i = 0; i < length; i++) data[i] = Math.random() * 2 - 1;
    }
    const source = context.createBufferSource();
    source.buffer = this.noiseBuffer;
    const filter = context.createBiquadFilter();
    filter.type = "bandpass";
    filter.Q.value = q;
    filter.frequency.setValueAtTime(freq, start);
    if (to) filter.frequency.exponentialRampToValueAtTime(to, start + duration);
    source.connect(filter).connect(this.envelope(start, gain, 0.006, duration));
    source.start(start);
    source.stop(start + duration + 0.03);
  }
}

// The sounds themselves: each a few notes or a filtered burst, well under half a second.
const VOICES = {
  // Your turn: two soft rising notes.
  turn(sounds, at) {
    sounds.tone(at, { freq: 587, duration: 0.16, gain: 0.55 });
    sounds.tone(at + 0.12, { freq: 880, duration: 0.26, gain: 0.5 });
  },
  // A tile laid: a short click of tile on table, with a little body under it.
  lay(sounds, at) {
    sounds.noise(at, { duration: 0.05, freq: 2600, q: 1.4, gain: 0.9 });
    sounds.tone(at, { freq: 230, duration: 0.08, type: "triangle", gain: 0.35, slideTo: 150 });
  },
  // A tile drawn: a quick swish, high to low.
  draw(sounds, at) {
    sounds.noise(at, { duration: 0.16, freq: 2400, to: 700, q: 0.9, gain: 0.45 });
  },
  // The clock's last seconds: a short blip, higher for the last three.
  tick(sounds, at, { urgent }) {
    sounds.tone(at, { freq: urgent ? 1568 : 1175, duration: 0.06, type: "triangle", gain: urgent ? 0.45 : 0.3 });
  },
  // The end of a game: a rising arpeggio for the winner, two falling notes for everyone else.
  end(sounds, at, { won }) {
    const notes = won ? [523, 659, 784, 1047] : [523, 392];
    notes.forEach((freq, index) => sounds.tone(at + index * 0.11, { freq, duration: 0.3, gain: 0.45, type: won ? "sine" : "triangle" }));
  },
};
