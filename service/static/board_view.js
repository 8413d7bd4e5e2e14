// The board as the page draws it: one button per column, its cells, its keys.

import { MARKERS } from "./board.js";

/** @typedef {import("./board.js").Board} Board */

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
      const open = enabled && board.canPlay(column);
      button.setAttribute("aria-disabled", String(!open));
      button.classList.toggle("open", open);
      button.tabIndex = column === this.focusColumn ? 0 : -1;
    });
    // The preview disc over the pointed or focused column is the colour of the player to move.
    this.root.dataset.turn = String(board.toMove);
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
