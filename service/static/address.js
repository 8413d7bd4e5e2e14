// The page's address: its fragment chooses the view (#game=…, #computer=…, #analysis=…).

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
 * The finished game on the analysis board; `names`, for a game between people, go with it.
 * @param {import("./board.js").Board} board
 * @param {string[] | null} [names]
 * @returns {Action}
 */
export function reviewAction(board, names = null) {
  /** @type {Record<string, string | number>} */
  const address = { analysis: "", r: board.rows, c: board.columns, moves: board.columnsPlayed.join(",") };
  if (names) Object.assign(address, { x: names[0], o: names[1] });
  return {
    label: "Review move by move",
    run: () => {
      location.hash = fragment(address);
    },
  };
}
