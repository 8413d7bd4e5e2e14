// The page's address: its fragment chooses the view (#game=…, #computer=…, #analysis=…).

import { CONNECT } from "./limits.js";

/** @typedef {import("./ui.js").Action} Action */

/** The fragment that holds `values`, as the views read them back with URLSearchParams. */
export function fragment(/** @type {Record<string, string | number>} */ values) {
  return "#" + new URLSearchParams(Object.entries(values).map(([name, value]) => [name, String(value)])).toString();
}

export function home() {
  location.hash = "";
}

/** @type {Action} */
export const NEW_GAME = { label: "New game", run: home };

/**
 * A finished game's review on the analysis board, after `at` moves (else the end), `names` with it.
 * @param {import("./board.js").Board} board
 * @param {string[] | null} [names]
 * @param {number} [at]
 */
export function reviewAddress(board, names = null, at = undefined) {
  /** @type {Record<string, string | number>} */
  const address = { analysis: "", r: board.rows, c: board.columns, moves: board.columnsPlayed.join(",") };
  if (board.connect !== CONNECT) address.k = board.connect;
  if (names) Object.assign(address, { x: names[0], o: names[1] });
  address.review = "";
  if (at !== undefined) address.at = Math.min(at, board.columnsPlayed.length);
  return fragment(address);
}

/**
 * @param {import("./board.js").Board} board
 * @param {string[] | null} [names]
 * @returns {Action}
 */
export function reviewAction(board, names = null) {
  return {
    label: "Review move by move",
    run: () => {
      location.hash = reviewAddress(board, names);
    },
  };
}
