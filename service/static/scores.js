// The analysis board's scores: each column's, in the row above the board and in words.

/** @typedef {{column: number, score: number | null, exact: boolean, outlook?: string}} Score  one column's, as POST /analysis answers */

// An estimate may come as a number, or (score null) as an outlook word: "likely win", "unclear"…
/** @type {Record<string, string>} */
const OUTLOOK_MARKS = { "likely win": "+", "likely loss": "-", unclear: "?" };
/** @type {Record<string, number>} */
const OUTLOOK_RANKS = { "likely win": 0.5, "likely loss": -0.5 };

function scoreText(/** @type {Score} */ { score, exact, outlook }) {
  if (score === null || score === undefined) return `≈${OUTLOOK_MARKS[outlook ?? ""] ?? "?"}`;
  const signed = score > 0 ? `+${score}` : `${score}`;
  return exact ? signed : `≈${signed}`;
}

export function scoreWords(/** @type {Score} */ { score, exact, outlook }) {
  if (score === null || score === undefined) return `estimate: ${outlook ?? "unclear"}`;
  if (!exact) return `estimate ${score > 0 ? "+" : ""}${score}`;
  return score > 0 ? `score +${score}, a win` : score < 0 ? `score ${score}, a loss` : "score 0, a draw";
}

// A number to compare columns by: the score, or ±0.5 for an outlook word.
const rank = (/** @type {Score} */ { score, outlook }) => score ?? OUTLOOK_RANKS[outlook ?? ""] ?? 0;

/** The best of the columns' scores for the player to move (undefined: none). */
export function bestScore(/** @type {Score[]} */ scores) {
  return scores.reduce((a, b) => (rank(b) > rank(a) ? b : a), scores[0]);
}

/**
 * Fills `row` with a cell for each of the board's columns: its score, coloured by its sign.
 * @param {HTMLElement} row
 * @param {number} columns
 * @param {Score[]} scores
 */
export function showScores(row, columns, scores) {
  const byColumn = new Map(scores.map((entry) => [entry.column, entry]));
  row.replaceChildren(
    ...Array.from({ length: columns }, (_, column) => {
      const cell = document.createElement("span");
      const entry = byColumn.get(column);
      cell.textContent = entry ? scoreText(entry) : "";
      cell.className =
        "score" +
        (entry ? (rank(entry) > 0 ? " good" : rank(entry) < 0 ? " bad" : " even") : "") +
        (entry && !entry.exact ? " estimate" : "");
      return cell;
    }),
  );
}
