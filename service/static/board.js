// The board: a two-player drop-token game replayed from its move list, and its drawing.
// The service is the truth; this copy only draws, and tells whose turn it is and who won.

export const CONNECT = 4;
export const MARKERS = ["X", "O"];
export const COLOURS = ["red", "yellow"];

/** @typedef {{player: number, column: number | null}} Entry  a move (column null: a quit) */

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
  }

  get toMove() {
    return this.entries.length % 2;
  }
  get over() {
    return this.winner !== null || this.quitter !== null || this.full;
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

  quit(/** @type {number} */ player) {
    this.entries.push({ player, column: null });
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

// A move list as people write it: "3,3,4", "3 3 4", or digits "334" on boards of at most 10 columns.
/**
 * @param {string} text
 * @param {number} columns
 * @returns {number[]}
 */
export function parseMoves(text, columns) {
  const trimmed = text.trim();
  if (!trimmed) return [];
  const parts = /[\s,;]/.test(trimmed)
    ? trimmed.split(/[\s,;]+/).filter(Boolean)
    : columns <= 10
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
 */
export function replayText(rows, columns, text) {
  const moves = parseMoves(text, columns);
  const board = new Board(rows, columns);
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

export function describeMove(/** @type {string[]} */ names, /** @type {Entry} */ entry) {
  const who = `${names[entry.player]} (${MARKERS[entry.player]})`;
  return entry.column === null ? `${who} quit` : `${who} played column ${entry.column}`;
}

// Draws the board into `root`: one button per column, each holding its cells, top row first.
export class BoardView {
  /**
   * @param {HTMLElement} root
   * @param {(column: number) => void} onDrop
   */
  constructor(root, onDrop) {
    this.root = root;
    this.onDrop = onDrop;
    this.focusColumn = 0;
    this.enabled = false;
    /** A keyboard user's control just vanished: the next drawing moves the focus here. */
    this.wantsFocus = false;
    /** @type {HTMLButtonElement[]} */
    this.buttons = [];
    /** @type {HTMLElement[]} */
    this.cellNodes = [];
    /** @type {number | undefined} */
    this.rows = undefined;
    root.addEventListener("keydown", (event) => this.key(event));
  }

  /**
   * `notes`: a sentence per column for screen readers (the analysis board's scores).
   * @param {Board} board
   * @param {{enabled?: boolean, notes?: string[] | null}} [options]
   */
  draw(board, { enabled = false, notes = null } = {}) {
    this.enabled = enabled;
    if (this.buttons.length !== board.columns || this.rows !== board.rows) this.build(board);
    this.focusColumn = Math.min(this.focusColumn, board.columns - 1);
    const last = board.entries.at(-1);
    board.cells.forEach((player, index) => {
      const cell = this.cellNodes[index];
      const row = Math.floor(index / board.columns),
        column = index % board.columns;
      cell.className =
        "cell" +
        (player >= 0 ? ` p${player}` : "") +
        (board.line.includes(index) ? " win" : "") +
        (last && last.column === column && row === board.heights[column] - 1 ? " last" : "");
      cell.textContent = player >= 0 ? MARKERS[player] : "";
    });
    this.buttons.forEach((button, column) => {
      const discs = [];
      for (let row = 0; row < board.heights[column]; row++) {
        discs.push(MARKERS[board.cells[row * board.columns + column]]);
      }
      const room = board.rows - board.heights[column];
      button.setAttribute(
        "aria-label",
        `Column ${column}: ` +
          (discs.length ? `${discs.join(" ")} from the bottom` : "empty") +
          (room ? `, room for ${room}` : ", full") +
          (notes?.[column] ? `; ${notes[column]}` : ""),
      );
      button.setAttribute("aria-disabled", String(!(enabled && board.canPlay(column))));
      button.tabIndex = column === this.focusColumn ? 0 : -1;
    });
    this.root.classList.toggle("playable", enabled);
    if (this.wantsFocus) {
      this.wantsFocus = false;
      this.focus();
    }
  }

  build(/** @type {Board} */ board) {
    this.rows = board.rows;
    this.root.replaceChildren();
    this.root.style.setProperty("--columns", String(board.columns));
    this.root.style.setProperty("--rows", String(board.rows));
    this.cellNodes = new Array(board.rows * board.columns);
    this.buttons = [];
    for (let column = 0; column < board.columns; column++) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "column";
      button.dataset.column = String(column);
      for (let row = board.rows - 1; row >= 0; row--) {
        const cell = document.createElement("span");
        cell.setAttribute("aria-hidden", "true");
        this.cellNodes[row * board.columns + column] = cell;
        button.append(cell);
      }
      const label = document.createElement("span");
      label.className = "label";
      label.setAttribute("aria-hidden", "true");
      label.textContent = String(column);
      button.append(label);
      button.addEventListener("click", () => this.drop(column));
      button.addEventListener("focus", () => {
        this.focusColumn = column;
      });
      this.buttons.push(button);
      this.root.append(button);
    }
  }

  // No board: a page that could not load a game shows none (not the previous one's).
  clear() {
    this.root.replaceChildren();
    this.buttons = [];
    this.rows = undefined;
  }

  drop(/** @type {number} */ column) {
    this.focusColumn = column;
    if (this.enabled && this.buttons[column].getAttribute("aria-disabled") === "false") {
      this.onDrop(column);
    }
  }

  key(/** @type {KeyboardEvent} */ event) {
    const step = event.key === "ArrowLeft" ? -1 : event.key === "ArrowRight" ? 1 : undefined;
    if (step === undefined) return;
    event.preventDefault();
    this.focus((this.focusColumn + step + this.buttons.length) % this.buttons.length);
  }

  focus(column = this.focusColumn) {
    this.focusColumn = column;
    this.buttons.forEach((button, index) => {
      button.tabIndex = index === column ? 0 : -1;
    });
    this.buttons[column]?.focus();
  }
}
