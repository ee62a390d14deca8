// The turn clock: one countdown (from the server's seconds_left when the frame arrived), drawn as
// rings around the player whose turn it is and as a number in the player's own bar.

const SVG = "http://www.w3.org/2000/svg";
const RADIUS = 16;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;

export class TurnClock {
  constructor() {
    this.deadline = null; // performance.now() time when the turn ends
    this.total = 0;
    this.timer = setInterval(() => this.tick(), 250);
  }

  /** secondsLeft: from the frame (null: no timer for this turn); total: the pace in seconds. */
  set(secondsLeft, total) {
    if (secondsLeft === null || secondsLeft === undefined || !total) {
      this.deadline = null;
      this.total = 0;
    } else {
      this.deadline = performance.now() + secondsLeft * 1000;
      this.total = total;
    }
    this.tick();
  }

  secondsLeft() {
    if (this.deadline === null) return null;
    return Math.max(0, (this.deadline - performance.now()) / 1000);
  }

  /** A ring (SVG) to place around an avatar; it shows the clock only while `data-active` is set. */
  ring() {
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", "0 0 40 40");
    svg.setAttribute("class", "timer-ring");
    svg.setAttribute("aria-hidden", "true");
    svg.dataset.timer = "ring";
    const track = document.createElementNS(SVG, "circle");
    track.setAttribute("class", "timer-ring__track");
    const bar = document.createElementNS(SVG, "circle");
    bar.setAttribute("class", "timer-ring__bar");
    for (const circle of [track, bar]) {
      circle.setAttribute("cx", "20");
      circle.setAttribute("cy", "20");
      circle.setAttribute("r", String(RADIUS));
    }
    bar.setAttribute("stroke-dasharray", String(CIRCUMFERENCE));
    svg.append(track, bar);
    this.paint(svg);
    return svg;
  }

  tick() {
    for (const node of document.querySelectorAll("[data-timer]")) this.paint(node);
  }

  paint(node) {
    const left = this.secondsLeft();
    const fraction = left === null || !this.total ? 1 : Math.min(1, left / this.total);
    const urgent = left !== null && left <= 10;
    if (node.dataset.timer === "ring") {
      const bar = node.querySelector(".timer-ring__bar");
      bar.setAttribute("stroke-dashoffset", String(CIRCUMFERENCE * (1 - fraction)));
      node.classList.toggle("timer-ring--urgent", urgent);
      node.classList.toggle("timer-ring--off", left === null);
    } else if (node.dataset.timer === "text") {
      node.textContent = left === null ? "" : String(Math.ceil(left));
      node.classList.toggle("is-urgent", urgent);
      node.hidden = left === null;
    }
  }
}
