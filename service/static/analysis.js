// The analysis board: set up a position by playing or pasting moves, step through a game,
// and see every column's score from POST /analysis (exact, or an estimate marked ≈).

import { Refused, Unreachable, request } from "./api.js";
import { Board, COLOURS, MARKERS, parseMoves } from "./board.js";
import { MAX_ANALYSIS_SIZE } from "./limits.js";
import { $, announce, clearNotice, moveList, notice, setActions, setStatus, showView } from "./ui.js";

const UNAVAILABLE = "Analysis unavailable: this service does not score positions (yet).";

// An estimate may come as a number, or (score null) as an outlook word: "likely win", "unclear"…
const OUTLOOK_MARKS = { "likely win": "+", "likely loss": "-", unclear: "?" };

export function scoreText({ score, exact, outlook }) {
  if (score === null || score === undefined) return `≈${OUTLOOK_MARKS[outlook] ?? "?"}`;
  const signed = score > 0 ? `+${score}` : `${score}`;
  return exact ? signed : `≈${signed}`;
}

function scoreWords({ score, exact, outlook }) {
  if (score === null || score === undefined) return `estimate: ${outlook ?? "unclear"}`;
  if (!exact) return `estimate ${score > 0 ? "+" : ""}${score}`;
  return score > 0 ? `score +${score}, a win` : score < 0 ? `score ${score}, a loss` : "score 0, a draw";
}

// A number to compare columns by: the score, or ±0.5 for an outlook word.
const rank = ({ score, outlook }) => score ?? { "likely win": 0.5, "likely loss": -0.5 }[outlook] ?? 0;

export class AnalysisView {
  constructor(params, boardView) {
    this.boardView = boardView;
    this.rows = clampSize(params.get("r"), 6);
    this.columns = clampSize(params.get("c"), 7);
    this.line = [];
    this.scoring = null;
    showView("analysis", true);
    $("title").textContent = `Analysis board, ${this.rows} rows × ${this.columns} columns`;
    this.setLine(params.get("moves") ?? "");
    const at = Number(params.get("at"));
    if (params.has("at") && Number.isInteger(at)) this.at = Math.max(0, Math.min(at, this.line.length));
    $("step-start").onclick = () => this.step(-Infinity);
    $("step-back").onclick = () => this.step(-1);
    $("step-forward").onclick = () => this.step(1);
    $("step-end").onclick = () => this.step(Infinity);
    $("paste-form").onsubmit = (event) => {
      event.preventDefault();
      if (this.setLine($("paste-moves").value)) {
        announce(`Position set up: ${this.at} moves.`);
        this.update();
      }
    };
    setActions([{ label: "New game", run: () => { location.hash = ""; } }]);
    this.update();
  }

  stop() { this.scoring?.abort(); }

  // Takes a pasted move list if it is a game on this board; says why not otherwise.
  setLine(text) {
    try {
      const moves = parseMoves(text, this.columns);
      const board = new Board(this.rows, this.columns);
      moves.forEach((column, index) => {
        if (!board.canPlay(column)) {
          throw new RangeError(`move ${index + 1}, column ${column}, cannot be played`
            + (board.over ? " (the game is already over)" : ""));
        }
        board.play(column);
      });
      this.line = moves;
      this.at = moves.length;
      clearNotice();
      $("paste-moves").value = moves.join(",");
      return true;
    } catch (error) {
      notice(`That move list is no game on this board: ${error.message}.`, []);
      return false;
    }
  }

  drop(column) {
    const board = Board.replay(this.rows, this.columns, this.line.slice(0, this.at));
    if (!board.canPlay(column)) return;
    const player = board.toMove;
    this.line = [...this.line.slice(0, this.at), column];
    this.at += 1;
    $("paste-moves").value = this.line.join(",");
    announce(`${MARKERS[player]} played column ${column}.`);
    this.update();
  }

  step(delta) {
    const at = Math.max(0, Math.min(this.at + delta, this.line.length));
    if (at === this.at) return;
    this.at = at;
    announce(`Move ${at} of ${this.line.length}.`);
    this.update();
  }

  update(scores = null) {
    const board = Board.replay(this.rows, this.columns, this.line.slice(0, this.at));
    const notes = scores && new Array(this.columns).fill("");
    scores?.forEach((entry) => { notes[entry.column] = scoreWords(entry); });
    this.boardView.draw(board, { enabled: !board.over, notes });
    const entries = this.line.map((column, index) => ({ player: index % 2, column }));
    moveList(null, entries, this.at);
    $("step-line").textContent = `Move ${this.at} of ${this.line.length}.`;
    if (board.winner !== null) setStatus(`${MARKERS[board.winner]} (${COLOURS[board.winner]}) has won.`);
    else if (board.over) setStatus("The board is full: a draw.");
    else setStatus(`${MARKERS[board.toMove]} (${COLOURS[board.toMove]}) to move.`);
    history.replaceState(null, "", "#" + new URLSearchParams({
      analysis: "", r: this.rows, c: this.columns, moves: this.line.join(","), at: this.at,
    }).toString());
    if (scores === null) this.score(board);
  }

  async score(board) {
    this.scoring?.abort();
    const row = $("scores");
    row.replaceChildren();
    row.style.setProperty("--columns", this.columns);
    if (board.over) {
      $("analysis-note").textContent = "The game is over: nothing to score.";
      return;
    }
    const scoring = this.scoring = new AbortController();
    $("analysis-note").textContent = "Analysing…";
    try {
      const answer = await request("POST", "/analysis", {
        body: { rows: this.rows, columns: this.columns, moves: board.columnsPlayed },
        signal: scoring.signal,
      });
      const byColumn = new Map(answer.scores.map((entry) => [entry.column, entry]));
      row.replaceChildren(...Array.from({ length: this.columns }, (_, column) => {
        const cell = document.createElement("span");
        const entry = byColumn.get(column);
        cell.textContent = entry ? scoreText(entry) : "";
        cell.className = "score" + (entry ? (rank(entry) > 0 ? " good" : rank(entry) < 0 ? " bad" : " even") : "")
          + (entry && !entry.exact ? " estimate" : "");
        return cell;
      }));
      const best = answer.scores.reduce((a, b) => (rank(b) > rank(a) ? b : a), answer.scores[0]);
      $("analysis-note").textContent = best
        ? `Best for ${MARKERS[board.toMove]}: column ${best.column} (${scoreWords(best)}).`
          + (answer.scores.some((entry) => !entry.exact) ? " ≈ marks an estimate." : "")
        : "";
      this.update(answer.scores);
    } catch (error) {
      if (error.name === "AbortError") return;
      if (error instanceof Refused && error.status === 404) {
        $("analysis-note").textContent = UNAVAILABLE;
      } else if (error instanceof Unreachable) {
        $("analysis-note").textContent = "Analysis failed: the service cannot be reached.";
        notice("The analysis failed: the service cannot be reached.", [{ label: "Try again", run: () => { clearNotice(); this.score(board); } }]);
      } else {
        $("analysis-note").textContent = `Analysis failed: ${error.message}.`;
        notice(`The analysis failed: ${error.message}.`, [{ label: "Try again", run: () => { clearNotice(); this.score(board); } }]);
      }
    }
  }
}

function clampSize(text, fallback) {
  const value = Number(text);
  return Number.isInteger(value) && value >= 1 && value <= MAX_ANALYSIS_SIZE ? value : fallback;
}
