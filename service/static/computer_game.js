// Against the computer: the game lives in this page (and its address), the service moves.

import { fragment, NEW_GAME, reviewAction } from "./address.js";
import { isAbort, Refused, request } from "./api.js";
import { Board, replayText } from "./board.js";
import { CLASSIC_BOARD, LEVEL_RANGE } from "./choices.js";
import { failed } from "./failure.js";
import { LEVELS, MAX_COMPUTER_SIZE, MIN_COMPUTER_SIZE } from "./limits.js";
import { PlayedGame, playersHeading, showNothing } from "./played_game.js";
import { $, announce, clearNotice, notice, setStatus, showView } from "./ui.js";

/**
 * The game an address asks for (#computer=LEVEL&r=ROWS&c=COLUMNS&you=0|1&moves=…), or the
 * words that say what is wrong with it.
 * @param {URLSearchParams} params
 * @returns {{level: number, board: Board} | string}
 */
function readAddress(params) {
  const level = Number(params.get("computer"));
  if (!(level in LEVELS)) return `there is no level “${params.get("computer")}”: the levels are ${LEVEL_RANGE}`;
  const [rowsText, columnsText] = ["r", "c"].map((name, index) => params.get(name) || String(CLASSIC_BOARD[index]));
  const [rows, columns] = [Number(rowsText), Number(columnsText)];
  const fits = (/** @type {number} */ value) =>
    Number.isInteger(value) && value >= MIN_COMPUTER_SIZE && value <= MAX_COMPUTER_SIZE;
  if (!fits(rows) || !fits(columns)) {
    return (
      `a board of ${rowsText} rows × ${columnsText} columns cannot be played here: ` +
      `rows and columns are whole numbers from ${MIN_COMPUTER_SIZE} to ${MAX_COMPUTER_SIZE}`
    );
  }
  try {
    return { level, board: replayText(rows, columns, params.get("moves") ?? "") };
  } catch (error) {
    return `its moves are no game on this ${rows} × ${columns} board: ${error instanceof Error ? error.message : error}`;
  }
}

export class ComputerGame extends PlayedGame {
  /**
   * Reads the address's side; start() reads the rest and plays.
   * @param {URLSearchParams} params
   * @param {import("./board_view.js").BoardView} boardView
   */
  constructor(params, boardView) {
    super(boardView);
    this.params = params;
    this.level = 0;
    this.side = Number(params.get("you")) === 1 ? 1 : 0;
  }

  start() {
    const game = readAddress(this.params);
    if (typeof game === "string") {
      showNothing(this.boardView);
      notice(`This address is no game against the computer: ${game}.`, [NEW_GAME]);
      return;
    }
    ({ level: this.level, board: this.board } = game);
    const computer = `Computer (level ${this.level})`;
    this.names = this.side === 0 ? ["You", computer] : [computer, "You"];
    showView("play", true);
    $("invite").hidden = true;
    $("watch-line").textContent = "";
    playersHeading(this.names, this.side);
    this.next();
  }

  save() {
    const { rows, columns, columnsPlayed } = this.board;
    const address = { computer: this.level, r: rows, c: columns, you: this.side, moves: columnsPlayed.join(",") };
    history.replaceState(null, "", fragment(address));
  }

  actions() {
    const actions = [];
    if (this.board.over) actions.push(reviewAction(this.board, this.names));
    if (this.board.entries.some((e) => e.player === this.side) && !this.busy) {
      actions.push({ label: "Take back", run: () => this.takeBack() });
    }
    actions.push(NEW_GAME);
    return actions;
  }

  next() {
    if (this.board.over) return this.finish();
    if (this.board.toMove === this.side) {
      setStatus(this.yourTurnText());
      this.draw();
    } else this.think();
  }

  /** @param {number} column */
  drop(column) {
    if (!this.myTurn || !this.board.canPlay(column)) return;
    this.board.play(column);
    announce(`You played column ${column}.`);
    this.save();
    this.next();
  }

  async think() {
    const board = this.board;
    this.busy = true;
    clearNotice();
    setStatus(`The computer is thinking…`);
    this.draw();
    try {
      const answer = await request("POST", "/computer_move", {
        body: { rows: board.rows, columns: board.columns, moves: board.columnsPlayed, level: this.level },
        signal: this.abort.signal,
      });
      this.busy = false;
      board.play(answer.column);
      announce(`The computer played column ${answer.column}.`);
      this.save();
      this.next();
    } catch (error) {
      this.busy = false;
      if (isAbort(error)) return;
      setStatus("The computer has not moved.");
      if (error instanceof Refused && error.code === "computer_busy") {
        notice("The computer is busy with other games right now.", [
          { label: "Try again", run: () => this.think() },
          NEW_GAME,
        ]);
      } else failed(error, "The computer could not move", () => this.think());
      this.draw();
    }
  }

  takeBack() {
    const moves = this.board.columnsPlayed;
    do moves.pop();
    while (moves.length % 2 !== this.side);
    this.board = Board.replay(this.board.rows, this.board.columns, moves);
    announce(`Moves taken back: ${moves.length} played.`);
    this.save();
    this.next();
  }

  endText() {
    const { winner } = this.board;
    if (winner === null) return "Game over: a draw.";
    return winner === this.side ? "Game over: you win!" : "Game over: the computer wins.";
  }
}
