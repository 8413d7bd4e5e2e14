// The match panel above a game between friends' board: each player's presence and clock, the
// offer pending and the match score. Between two statuses the clocks and "away for" tick here.

import { COLOURS, MARKERS } from "./board.js";
import { $, fillActions } from "./ui.js";

/** @typedef {import("./match.js").FriendStatus} FriendStatus */

const TICK_MS = 250;

/** Seconds on a clock as people read them: 4:05, 1 h 05 min, 2 d 3 h. */
function clockText(/** @type {number} */ seconds) {
  const left = Math.max(0, Math.floor(seconds));
  const [days, hours, minutes, rest] = [
    Math.floor(left / 86400),
    Math.floor((left % 86400) / 3600),
    Math.floor((left % 3600) / 60),
    left % 60,
  ];
  if (days) return `${days} d ${hours} h`;
  if (hours) return `${hours} h ${String(minutes).padStart(2, "0")} min`;
  return `${minutes}:${String(rest).padStart(2, "0")}`;
}

/** How long a player has been gone, in words: "away for 12 s", "away for 3 min". */
function awayText(/** @type {number} */ seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  if (whole < 120) return `away for ${whole} s`;
  if (whole < 7200) return `away for ${Math.floor(whole / 60)} min`;
  return `away for ${Math.floor(whole / 3600)} h`;
}

export class MatchView {
  constructor() {
    /** @type {FriendStatus | null} */
    this.status = null;
    this.at = 0; // performance.now() when the status came
    /** @type {ReturnType<typeof setInterval> | null} */
    this.timer = null;
    /** @type {{presence: HTMLElement, clock: HTMLElement, row: HTMLElement}[]} */
    this.rows = [];
  }

  /**
   * Shows `status` for players `names`, `side` (0, 1, or -1: watching) marked "(you)".
   * @param {FriendStatus} status
   * @param {string[]} names
   * @param {number} side
   */
  show(status, names, side) {
    this.status = status;
    this.at = performance.now();
    if (this.rows.length !== names.length) this.build(names, side);
    $("match").hidden = false;
    this.tick();
    this.timer ??= setInterval(() => this.tick(), TICK_MS);
  }

  build(/** @type {string[]} */ names, /** @type {number} */ side) {
    const list = $("match-players");
    this.rows = names.map((name, index) => {
      const row = document.createElement("li");
      row.className = `match-player p${index}`;
      const chip = document.createElement("span");
      chip.className = `chip p${index}`;
      chip.textContent = MARKERS[index];
      chip.setAttribute("aria-label", `${MARKERS[index]}, ${COLOURS[index]}:`);
      const who = document.createElement("span");
      who.className = "who";
      who.textContent = name;
      if (index === side) {
        const you = document.createElement("span");
        you.className = "you";
        you.textContent = " (you)"; // left out where the panel is narrow: the heading says it
        who.append(you);
      }
      const presence = document.createElement("span");
      presence.className = "presence";
      const clock = document.createElement("span");
      clock.className = "clock";
      clock.setAttribute("role", "timer");
      clock.setAttribute("aria-label", `${name}'s clock`);
      row.append(chip, who, presence, clock);
      return { row, presence, clock };
    });
    list.replaceChildren(...this.rows.map(({ row }) => row));
  }

  // The clock of the player to move runs from the first move until the game ends.
  tick() {
    const status = this.status;
    if (!status) return;
    const elapsed = (performance.now() - this.at) / 1000;
    const running = status.state === "IN_PROGRESS" && status.moves > 0;
    status.players.forEach((player, index) => {
      const shown = this.rows[index];
      if (!shown) return;
      const moving = status.state === "IN_PROGRESS" && status.toMove === player.name;
      shown.row.classList.toggle("to-move", moving);
      const done = status.state === "DONE";
      shown.presence.className = `presence ${done ? "" : player.present ? "here" : "away"}`;
      shown.presence.textContent = done ? "" : player.present ? "connected" : awayText((player.awayFor ?? 0) + elapsed);
      shown.clock.hidden = player.clock === undefined;
      if (player.clock === undefined) return;
      const left = player.clock - (running && moving ? elapsed : 0);
      shown.clock.textContent = clockText(left);
      shown.clock.classList.toggle("low", left < 20 && !done);
      shown.clock.classList.toggle("running", running && moving);
    });
  }

  /**
   * The offer pending (or the claim allowed) in words, and the buttons that answer it, in a
   * box that floats over the page's foot (as notices do: the board never moves); "" for none.
   * @param {string} text
   * @param {import("./ui.js").Action[]} [actions]
   */
  offerLine(text, actions = []) {
    $("offer-line").textContent = text;
    fillActions($("offer-actions"), actions);
    $("offer").hidden = !text;
  }

  /** The match score in words; "" for none. */
  score(/** @type {string} */ text) {
    const line = $("match-score");
    line.textContent = text;
    line.hidden = !text;
  }

  hide() {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.status = null;
    this.rows = [];
    $("match-players").replaceChildren();
    this.offerLine("");
    this.score("");
    $("match").hidden = true;
  }
}
