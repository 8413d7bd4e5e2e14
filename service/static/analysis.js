// The analysis board: set up a position by playing or pasting moves, step through a game,
// and see every column's score from POST /analysis (exact, or an estimate marked ≈).

import { Refused, Unreachable, request } from "./api.js";
import { Board, COLOURS, MARKERS, replayText } from "./board.js";
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
    // A review of a game between people names them (x and o in the address).
    this.names = params.get("x") && params.get("o") ? [params.get("x"), params.get("o")] : null;
    showView("analysis", true);
    $("title").textContent = (this.names ? `Review: ${this.names.join(" against ")}, ` : "Analysis board, ")
      + `${this.rows} rows × ${this.columns} columns`;
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
        this.dropped = null;
        announce(`Position set up: ${this.at} moves.`);
        this.update();
      }
    };
    this.dropped = null;
    this.update();
  }

  stop() { this.scoring?.abort(); }

  // Takes a pasted move list if it is a game on this board; says why not otherwise.
  setLine(text) {
    try {
      const moves = replayText(this.rows, this.columns, text).columnsPlayed;
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

  // A move off the line's next one starts a new line: the moves it replaces are said, and
  // can be brought back. The line's own next move just steps forward.
  drop(column) {
    const board = Board.replay(this.rows, this.columns, this.line.slice(0, this.at));
    if (!board.canPlay(column)) return;
    const player = board.toMove;
    const follows = this.line[this.at] === column;
    const dropped = follows ? [] : this.line.slice(this.at);
    const before = { line: this.line, at: this.at };
    if (!follows) this.line = [...this.line.slice(0, this.at), column];
    this.at += 1;
    $("paste-moves").value = this.line.join(",");
    announce(`${this.who(player)} played column ${column}.`);
    this.dropped = dropped.length ? { ...before, moves: dropped } : null;
    this.update();
    if (dropped.length) announce(this.droppedText());
  }

  droppedText() {
    const { at, moves } = this.dropped;
    return `This move replaced the line's ${moves.length === 1 ? "move" : `${moves.length} moves`} `
      + `after move ${at} (${moves.join(",")}).`;
  }

  step(delta) {
    this.show(this.at + delta);
  }

  // Shows the position after `at` moves of the line.
  show(at) {
    at = Math.max(0, Math.min(at, this.line.length));
    if (at === this.at) return;
    this.at = at;
    announce(`Move ${at} of ${this.line.length}.`);
    this.update();
  }

  restore() {
    ({ line: this.line, at: this.at } = this.dropped);
    this.dropped = null;
    $("paste-moves").value = this.line.join(",");
    announce(`The line is back: move ${this.at} of ${this.line.length}.`);
    this.update();
  }

  who(player) {
    return this.names ? `${this.names[player]} (${MARKERS[player]})` : MARKERS[player];
  }

  update(scores = null) {
    const board = Board.replay(this.rows, this.columns, this.line.slice(0, this.at));
    const notes = scores && new Array(this.columns).fill("");
    scores?.forEach((entry) => { notes[entry.column] = scoreWords(entry); });
    this.boardView.draw(board, { enabled: !board.over, notes });
    const entries = this.line.map((column, index) => ({ player: index % 2, column }));
    moveList(this.names, entries, this.at, (at) => this.show(at));
    $("step-line").textContent = `Move ${this.at} of ${this.line.length}.`
      + (this.dropped ? ` ${this.droppedText()}` : "");
    $("step-start").disabled = $("step-back").disabled = this.at === 0;
    $("step-forward").disabled = $("step-end").disabled = this.at === this.line.length;
    const actions = [];
    if (this.dropped) actions.push({ label: "Bring back the replaced moves", run: () => this.restore() });
    actions.push({ label: "New game", run: () => { location.hash = ""; } });
    setActions(actions);
    const colour = (player) => this.names ? `${this.names[player]} (${MARKERS[player]}, ${COLOURS[player]})`
      : `${MARKERS[player]} (${COLOURS[player]})`;
    if (board.winner !== null) setStatus(`${colour(board.winner)} has won.`);
    else if (board.over) setStatus("The board is full: a draw.");
    else setStatus(`${colour(board.toMove)} to move.`);
    const address = { analysis: "", r: this.rows, c: this.columns, moves: this.line.join(","), at: this.at };
    if (this.names) Object.assign(address, { x: this.names[0], o: this.names[1] });
    history.replaceState(null, "", "#" + new URLSearchParams(address).toString());
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
        ? `Best for ${this.who(board.toMove)}: column ${best.column} (${scoreWords(best)}).`
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
