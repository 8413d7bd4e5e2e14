// What a game being played on this page does whoever the opponent is (a person on the service,
// or the computer): its heading, its drawing, whose turn it says, and its end said once.

import { reviewAddress } from "./address.js";
import { COLOURS, MARKERS } from "./board.js";
import { CONNECT } from "./limits.js";
import { chime } from "./prefs.js";
import { $, announce, moveList, setActions, setStatus, setYourTurn, showView } from "./ui.js";

/** @typedef {import("./board.js").Board} Board */
/** @typedef {import("./board_view.js").BoardView} BoardView */
/** @typedef {import("./ui.js").Action} Action */

// A page that could not show what its address asks for shows only its notice: no board, no
// heading, nothing left of the game an earlier address showed.
export function showNothing(/** @type {BoardView} */ boardView) {
  showView(null, false);
  boardView.clear();
  $("play-heading").replaceChildren();
  $("title").textContent = "";
  $("invite").hidden = true;
  $("watch-line").textContent = "";
  moveList(null, []);
  setStatus("");
}

/** The heading: each player's disc and name, `me` (an index, or -1) marked "(you)"; a chain other than four said. */
export function playersHeading(/** @type {string[]} */ names, /** @type {number} */ me, connect = CONNECT) {
  const heading = $("play-heading");
  heading.replaceChildren();
  names.forEach((name, index) => {
    if (index) heading.append(" against ");
    const disc = document.createElement("span");
    disc.className = `chip p${index}`;
    disc.textContent = MARKERS[index];
    disc.setAttribute("aria-label", `${MARKERS[index]}, ${COLOURS[index]}:`);
    const who = document.createElement("span");
    who.textContent = name + (index === me && name !== "You" ? " (you)" : "");
    heading.append(disc, " ", who);
  });
  $("title").textContent = names.join(" against ") + (connect === CONNECT ? "" : `, ${connect} in a row`);
}

/** The base of LiveGame and ComputerGame: a subclass says its actions and its end. */
export class PlayedGame {
  /** @param {BoardView} boardView */
  constructor(boardView) {
    this.boardView = boardView;
    /** @type {Board | null} the game, once it is known */
    this.current = null;
    /** @type {string[]} */
    this.names = [];
    /** Whose discs this browser plays: 0, 1, or -1 (watching). */
    this.side = -1;
    /** A move on its way (to the service, or from the computer): the board waits. */
    this.busy = false;
    this.abort = new AbortController();
    /** @type {Board | null} the board whose end was said */
    this.ended = null;
    /** Whether it was this browser's turn at the last drawing (null: none yet). */
    this.wasMine = /** @type {boolean | null} */ (null);
  }

  /** The game: asked for only once it is known. */
  get board() {
    if (!this.current) throw new Error("the game is not known yet");
    return this.current;
  }

  set board(board) {
    this.current = board;
  }

  stop() {
    this.abort.abort();
    setYourTurn(false);
  }

  // No board yet (loading), or none at all (the game could not be shown): nothing to play.
  get myTurn() {
    const board = this.current;
    return board !== null && !board.over && board.toMove === this.side && !this.busy;
  }

  yourTurnText() {
    return `Your turn: you are ${MARKERS[this.side]} (${COLOURS[this.side]}).`;
  }

  /** @returns {Action[]} the buttons under the board */
  actions() {
    return [];
  }

  /** @returns {string} the sentence that says how the game ended */
  endText() {
    return "Game over.";
  }

  // A finished game's moves are buttons: each opens the review at the position after it.
  draw() {
    const mine = this.myTurn;
    this.boardView.draw(this.board, { enabled: mine });
    const board = this.board;
    const pick = board.over
      ? (/** @type {number} */ at) => {
          location.hash = reviewAddress(board, this.names, at);
        }
      : null;
    moveList(this.names, board.entries, board.entries.length, pick);
    setActions(this.actions());
    setYourTurn(mine);
    if (mine && this.wasMine === false) chime();
    this.wasMine = mine;
  }

  // The end is said once (a live game's last move may come both from its POST and the move
  // list); a computer game taken back after its end is a new board, whose end is said again.
  finish() {
    if (this.ended === this.board) return;
    this.ended = this.board;
    const text = this.endText();
    setStatus(text);
    announce(text);
    this.draw();
  }
}
