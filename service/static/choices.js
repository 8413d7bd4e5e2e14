// The boards and levels the page offers.

/** @type {[number, number, string][]} rows, columns, and the words of the choice */
export const SIZES = [
  [6, 7, "6 × 7, the classic"],
  [5, 8, "5 × 8, the terminal game's"],
  [7, 8, "7 × 8"],
  [6, 9, "6 × 9"],
  [8, 8, "8 × 8"],
  [4, 5, "4 × 5, quick"],
];

/** @type {Record<string, string>} the computer's levels, 1 to 5 */
export const LEVELS = { 1: "1, beginner", 2: "2, casual", 3: "3, club", 4: "4, strong", 5: "5, perfect" };

export const MOST_SIZE = 16; // the largest board the page offers to draw, rows and columns
export const TERMINAL_BOARD = [5, 8]; // connect.py's own board: its join command needs no size
