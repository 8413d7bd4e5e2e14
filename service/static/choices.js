// The boards and levels the page offers; the levels, the terminal's board and the limits are
// the service's and the engine's (limits.js).

import { CONNECT, LEVELS, TERMINAL_COLUMNS, TERMINAL_ROWS } from "./limits.js";

/** @type {[number, number]} rows and columns of the board the page starts with */
export const CLASSIC_BOARD = [6, 7];

/** @type {[number, number, string][]} rows, columns, and the words of the choice */
export const SIZES = [
  [...CLASSIC_BOARD, `${CLASSIC_BOARD.join(" × ")}, the classic`],
  [TERMINAL_ROWS, TERMINAL_COLUMNS, `${TERMINAL_ROWS} × ${TERMINAL_COLUMNS}, the terminal game's`],
  [7, 8, "7 × 8"],
  [6, 9, "6 × 9"],
  [8, 8, "8 × 8"],
  [4, 5, "4 × 5, quick"],
];

/** @type {[number, string][]} the chains a game between people may be won by, each fitting every board of SIZES */
const CHAINS = [
  [CONNECT, `${CONNECT} in a row, the classic`],
  [3, "3 in a row, quick"],
  [5, "5 in a row"],
];

/** Fills `select` with the chains of CHAINS, the classic chosen. */
export function fillChains(/** @type {HTMLSelectElement} */ select) {
  for (const [connect, text] of CHAINS) select.append(new Option(text, String(connect)));
  select.value = String(CONNECT);
}

/** The computer's levels, weakest first, each with the first word of what the engine says it does. */
export const LEVEL_CHOICES = Object.entries(LEVELS).map(([level, text]) => [level, `${level}, ${text.split(":")[0]}`]);

const levels = Object.keys(LEVELS).map(Number);
/** The words that say which levels there are, e.g. "1 to 5". */
export const LEVEL_RANGE = `${Math.min(...levels)} to ${Math.max(...levels)}`;
