// The board: a two-player drop-token game replayed from its move list (drawn by board_view.js).
// The service is the truth; this copy only draws, and tells whose turn it is and who won.

import { CONNECT, DIGIT_COLUMNS } from "./limits.js";

export const MARKERS = ["X", "O"];
export const COLOURS = ["red", "yellow"];

/** @typedef {{player: number, column: number | null, reason?: string}} Entry  a move (column null: a quit; reason: TIMEOUT, ABANDONED) */

export class Board {
  /**
   * @param {number} rows
   * @param {number} columns
   * @param {number} [connect]
   */
  constructor(rows, columns, connect = CONNECT) {
    this.rows = rows;
    this.columns = columns;
    this.connect = connect;
    /** @type {Entry[]} */
    this.entries = [];
    /** @type {number[]} */
    this.heights = new Array(columns).fill(0);
    /** @type {number[]} each cell's player, or -1; row 0 at the bottom */
    this.cells = new Array(rows * columns).fill(-1);
    /** @type {number | null} 0 or 1 */
    this.winner = null;
    /** @type {number[]} the winning cells' indexes */
    this.line = [];
    /** @type {number | null} */
    this.quitter = null;
    /** Ended as a draw by the players (agreed, or claimed): no move says so. */
    this.drawn = false;
  }

  get toMove() {
    return this.entries.length % 2;
  }
  get over() {
    return this.winner !== null || this.quitter !== null || this.full || this.drawn;
  }
  get full() {
    return this.heights.every((h) => h >= this.rows);
  }
  get columnsPlayed() {
    return this.entries.flatMap((e) => (e.column === null ? [] : [e.column]));
  }

  canPlay(/** @type {number} */ column) {
    return (
      !this.over && Number.isInteger(column) && column >= 0 && column < this.columns && this.heights[column] < this.rows
    );
  }

  play(/** @type {number} */ column) {
    if (!this.canPlay(column)) throw new RangeError(`column ${column} cannot be played`);
    const player = this.toMove,
      row = this.heights[column]++;
    this.cells[row * this.columns + column] = player;
    this.entries.push({ player, column });
    const line = this.lineThrough(row, column, player);
    if (line.length) {
      this.winner = player;
      this.line = line;
    }
    return row;
  }

  quit(/** @type {number} */ player, /** @type {string | undefined} */ reason = undefined) {
    this.entries.push(reason ? { player, column: null, reason } : { player, column: null });
    this.quitter = player;
    this.winner = 1 - player;
  }

  // The cells of every line through (row, column) of at least `connect` of the player's discs.
  // The rule of engine/lines.py (winning_lines); tests/test_page_board_mirror.py compares them.
  /**
   * @param {number} row
   * @param {number} column
   * @param {number} player
   * @returns {number[]}
   */
  lineThrough(row, column, player) {
    /** @type {number[]} */
    const found = [];
    for (const [dr, dc] of [
      [0, 1],
      [1, 0],
      [1, 1],
      [1, -1],
    ]) {
      const run = [row * this.columns + column];
      for (const sign of [1, -1]) {
        let r = row + sign * dr,
          c = column + sign * dc;
        while (r >= 0 && r < this.rows && c >= 0 && c < this.columns && this.cells[r * this.columns + c] === player) {
          run.push(r * this.columns + c);
          r += sign * dr;
          c += sign * dc;
        }
      }
      if (run.length >= this.connect) found.push(...run);
    }
    return found;
  }

  /**
   * The board after `moves` (columns) from the empty one.
   * @param {number} rows
   * @param {number} columns
   * @param {number[]} moves
   * @param {number} [connect]
   */
  static replay(rows, columns, moves, connect = CONNECT) {
    const board = new Board(rows, columns, connect);
    for (const column of moves) board.play(column);
    return board;
  }
}

// A move list as people write it: "3,3,4", "3 3 4", or digits "334" on boards of at most DIGIT_COLUMNS
// columns (engine/notation.py's rule).
/**
 * @param {string} text
 * @param {number} columns
 * @returns {number[]}
 */
function parseMoves(text, columns) {
  const trimmed = text.trim();
  if (!trimmed) return [];
  const parts = /[\s,;]/.test(trimmed)
    ? trimmed.split(/[\s,;]+/).filter(Boolean)
    : columns <= DIGIT_COLUMNS
      ? [...trimmed]
      : [trimmed];
  return parts.map((part) => {
    if (!/^\d+$/.test(part)) throw new SyntaxError(`"${part}" is not a column number`);
    return Number(part);
  });
}

// The game a written move list plays on this board; throws an error that says, in words, the
// first move that cannot be played (or the part that is no column number).
/**
 * @param {number} rows
 * @param {number} columns
 * @param {string} text
 * @param {number} [connect]
 */
export function replayText(rows, columns, text, connect = CONNECT) {
  const moves = parseMoves(text, columns);
  const board = new Board(rows, columns, connect);
  moves.forEach((column, index) => {
    if (!board.canPlay(column)) {
      throw new RangeError(
        `move ${index + 1}, column ${column}, cannot be played` +
          (board.over
            ? " (the game is already over)"
            : column >= columns
              ? ` (the columns are 0 to ${columns - 1})`
              : " (that column is full)"),
      );
    }
    board.play(column);
  });
  return board;
}

/** @type {Record<string, string>} how a game between friends' quits are said */
const QUITS = { TIMEOUT: "ran out of time", ABANDONED: "was away: the win was claimed" };

export function describeMove(/** @type {string[]} */ names, /** @type {Entry} */ entry) {
  const who = `${names[entry.player]} (${MARKERS[entry.player]})`;
  if (entry.column !== null) return `${who} played column ${entry.column}`;
  return `${who} ${QUITS[entry.reason ?? ""] ?? "quit"}`;
}
