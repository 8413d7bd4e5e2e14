// The analysis board: set up a position by playing or pasting moves, step through a game,
// and see every column's score from POST /analysis (exact, or an estimate marked ≈).

import { fragment, NEW_GAME } from "./address.js";
import { isAbort, messageOf, Refused, request } from "./api.js";
import { Board, COLOURS, MARKERS, replayText } from "./board.js";
import { CLASSIC_BOARD } from "./choices.js";
import { CONNECT, MAX_ANALYSIS_SIZE } from "./limits.js";
import { bestScore, scoreWords, showScores } from "./scores.js";
import { $, announce, clearNotice, moveList, notice, setActions, setStatus, showView } from "./ui.js";

/** @typedef {import("./scores.js").Score} Score */
/** @typedef {{line: number[], at: number, moves: number[]}} Dropped  a line's moves that a move replaced */
/** @typedef {import("./ui.js").MoveReview} MoveReview */

/** @type {Record<string, string>} each verdict of POST /review, in a sentence */
const VERDICT_WORDS = {
  best: "the best move",
  slower: "slower, the game's value kept",
  mistake: "a mistake",
  blunder: "a blunder",
};

const UNAVAILABLE = "Analysis unavailable: this service does not score positions (yet).";

const note = (/** @type {string} */ text) => {
  $("analysis-note").textContent = text;
};

export class AnalysisView {
  /**
   * Reads the address (#analysis=&r=&c=&moves=&at=, k= for a chain other than four, and x=&o=
   * for a review); start() shows it.
   * @param {URLSearchParams} params
   * @param {import("./board_view.js").BoardView} boardView
   */
  constructor(params, boardView) {
    this.params = params;
    this.boardView = boardView;
    this.rows = clampSize(params.get("r"), CLASSIC_BOARD[0]);
    this.columns = clampSize(params.get("c"), CLASSIC_BOARD[1]);
    this.connect = clampSize(params.get("k"), CONNECT, Math.max(this.rows, this.columns));
    /** @type {number[]} the line of moves, of which the first `at` are on the board */
    this.line = [];
    this.at = 0;
    /** @type {AbortController | null} */
    this.scoring = null;
    /** @type {Board | null} */
    this.next = null;
    /** @type {Score[] | null} the shown position's scores, once answered */
    this.scores = null;
    /** @type {string | null} the moves of the position last sent to be scored */
    this.scoredKey = null;
    // A review of a game between people names them (x and o in the address).
    const [x, o] = [params.get("x"), params.get("o")];
    this.names = x && o ? [x, o] : null;
    /** @type {Dropped | null} */
    this.dropped = null;
    /** @type {{line: string, moves: MoveReview[]} | null} a line's review */
    this.review = null;
    /** @type {AbortController | null} */
    this.asking = null;
  }

  start() {
    const params = this.params;
    showView("analysis", true);
    $("title").textContent =
      (this.names ? `Review: ${this.names.join(" against ")}, ` : "Analysis board, ") +
      `${this.rows} rows × ${this.columns} columns` +
      (this.connect === CONNECT ? "" : `, ${this.connect} in a row`);
    this.setLine(params.get("moves") ?? "");
    const at = Number(params.get("at"));
    if (params.has("at") && Number.isInteger(at)) this.at = Math.max(0, Math.min(at, this.line.length));
    $("step-start").onclick = () => this.step(-Infinity);
    $("step-back").onclick = () => this.step(-1);
    $("step-forward").onclick = () => this.step(1);
    $("step-end").onclick = () => this.step(Infinity);
    $("paste-form").onsubmit = (event) => {
      event.preventDefault();
      if (this.setLine($("paste-moves", HTMLInputElement).value)) {
        this.dropped = null;
        announce(`Position set up: ${this.at} moves.`);
        this.update();
        this.boardView.focus(); // where its keys play on
      }
    };
    this.update();
    // A review (#…&review) is asked for once; another line is reviewed on request.
    if (params.has("review") && this.line.length) this.askReview();
  }

  stop() {
    this.next = null;
    this.scoring?.abort();
    this.asking?.abort();
  }

  // Takes a pasted move list if it is a game on this board; says why not otherwise.
  setLine(/** @type {string} */ text) {
    try {
      const moves = replayText(this.rows, this.columns, text, this.connect).columnsPlayed;
      this.line = moves;
      this.at = moves.length;
      clearNotice();
      $("paste-moves", HTMLInputElement).value = moves.join(",");
      return true;
    } catch (error) {
      notice(`That move list is no game on this board: ${messageOf(error)}.`, []);
      return false;
    }
  }

  // A move off the line's next one starts a new line: the moves it replaces are said, and
  // can be brought back. The line's own next move just steps forward.
  drop(/** @type {number} */ column) {
    const board = this.board();
    if (!board.canPlay(column)) return;
    const player = board.toMove;
    const follows = this.line[this.at] === column;
    const dropped = follows ? [] : this.line.slice(this.at);
    const before = { line: this.line, at: this.at };
    if (!follows) this.line = [...this.line.slice(0, this.at), column];
    this.at += 1;
    $("paste-moves", HTMLInputElement).value = this.line.join(",");
    announce(`${this.who(player)} played column ${column}.`);
    this.dropped = dropped.length ? { ...before, moves: dropped } : null;
    this.update();
    if (dropped.length) announce(this.droppedText());
  }

  droppedText() {
    if (!this.dropped) return "";
    const { at, moves } = this.dropped;
    return (
      `This move replaced the line's ${moves.length === 1 ? "move" : `${moves.length} moves`} ` +
      `after move ${at} (${moves.join(",")}).`
    );
  }

  step(/** @type {number} */ delta) {
    this.show(this.at + delta);
  }

  // Shows the position after `at` moves of the line.
  show(/** @type {number} */ at) {
    at = Math.max(0, Math.min(at, this.line.length));
    if (at === this.at) return;
    this.at = at;
    announce(`Move ${at} of ${this.line.length}.`);
    this.update();
  }

  restore() {
    if (!this.dropped) return;
    ({ line: this.line, at: this.at } = this.dropped);
    this.dropped = null;
    $("paste-moves", HTMLInputElement).value = this.line.join(",");
    announce(`The line is back: move ${this.at} of ${this.line.length}.`);
    this.update();
  }

  who(/** @type {number} */ player) {
    return this.names ? `${this.names[player]} (${MARKERS[player]})` : MARKERS[player];
  }

  update(/** @type {Score[] | null} */ scores = null) {
    // A redraw of the position last scored keeps its scores rather than asking again.
    const key = this.line.slice(0, this.at).join(",");
    const fresh = key !== this.scoredKey;
    if (scores === null && !fresh) scores = this.scores;
    this.scores = scores;
    const board = this.board();
    /** @type {string[] | null} */
    const notes = scores && new Array(this.columns).fill("");
    scores?.forEach((entry) => {
      if (notes) notes[entry.column] = scoreWords(entry);
    });
    this.boardView.draw(board, { enabled: !board.over, notes });
    const entries = this.line.map((column, index) => ({ player: index % 2, column }));
    const verdicts = this.review?.line === this.line.join(",") ? this.review.moves : null;
    moveList(this.names, entries, this.at, (at) => this.show(at), verdicts);
    $("step-line").textContent =
      `Move ${this.at} of ${this.line.length}.` +
      (verdicts && this.at ? ` ${this.verdictText(verdicts[this.at - 1])}` : "") +
      (this.dropped ? ` ${this.droppedText()}` : "");
    for (const id of ["step-start", "step-back"]) $(id, HTMLButtonElement).disabled = this.at === 0;
    for (const id of ["step-forward", "step-end"]) $(id, HTMLButtonElement).disabled = this.at === this.line.length;
    const actions = [];
    if (this.dropped) actions.push({ label: "Bring back the replaced moves", run: () => this.restore() });
    if (this.line.length && !verdicts && !this.asking) {
      actions.push({ label: "Review the moves", run: () => this.askReview() });
    }
    actions.push(NEW_GAME);
    setActions(actions);
    const colour = (/** @type {number} */ player) =>
      this.names
        ? `${this.names[player]} (${MARKERS[player]}, ${COLOURS[player]})`
        : `${MARKERS[player]} (${COLOURS[player]})`;
    if (board.winner !== null) setStatus(`${colour(board.winner)} has won.`);
    else if (board.over) setStatus("The board is full: a draw.");
    else setStatus(`${colour(board.toMove)} to move.`);
    /** @type {Record<string, string | number>} */
    const address = { analysis: "", r: this.rows, c: this.columns, moves: this.line.join(","), at: this.at };
    if (this.names) Object.assign(address, { x: this.names[0], o: this.names[1] });
    if (verdicts || this.asking) address.review = ""; // a reload reviews this line again
    history.replaceState(null, "", fragment(address));
    if (fresh) this.score(board);
  }

  /** "ann (X) played column 1: a blunder; column 3 was best." */
  verdictText(/** @type {MoveReview | undefined} */ move) {
    if (!move) return "";
    const who = this.who((move.number - 1) % 2);
    const played = `${who} played column ${move.column}`;
    if (move.verdict === null) return `${played}: not settled in the review's time.`;
    const better = move.verdict !== "best" && move.best_column !== null ? `; column ${move.best_column} was best` : "";
    return `${played}: ${VERDICT_WORDS[move.verdict] ?? move.verdict}${better}.`;
  }

  /** The board and its chain, as POST /analysis and POST /review take them. */
  rules() {
    return { rows: this.rows, columns: this.columns, connect: this.connect };
  }

  /** The board after the line's first `at` moves. */
  board() {
    return Board.replay(this.rows, this.columns, this.line.slice(0, this.at), this.connect);
  }

  // The line's moves judged by POST /review, kept with the line (which may change meanwhile).
  async askReview() {
    this.asking?.abort();
    const asking = new AbortController();
    this.asking = asking;
    const line = [...this.line];
    $("review-line").textContent = "Reviewing the moves…";
    this.update();
    try {
      const answer = await request("POST", "/review", {
        body: { ...this.rules(), moves: line },
        signal: asking.signal,
      });
      this.review = { line: line.join(","), moves: answer.moves };
      $("review-line").textContent = "";
      announce("The review is ready.");
    } catch (error) {
      if (isAbort(error)) return;
      $("review-line").textContent = "";
      const again = { label: "Try again", run: () => this.askReview() };
      notice(
        `The review failed: ${messageOf(error)}.`,
        error instanceof Refused && error.status === 404 ? [] : [again],
      );
    } finally {
      if (this.asking === asking) this.asking = null;
    }
    this.update();
  }

  // One at a time: the service ends each analysis asked, so a newer position waits (`next`).
  async score(/** @type {Board} */ board) {
    const key = board.columnsPlayed.join(",");
    this.scoredKey = key;
    const row = $("scores");
    row.replaceChildren();
    row.style.setProperty("--columns", String(this.columns));
    this.next = null;
    if (board.over) {
      note("The game is over: nothing to score.");
      return;
    }
    note("Analysing…");
    if (this.scoring) {
      this.next = board;
      return;
    }
    const scoring = new AbortController();
    this.scoring = scoring;
    try {
      const answer = await request("POST", "/analysis", {
        body: { ...this.rules(), moves: board.columnsPlayed },
        signal: scoring.signal,
      });
      if (key !== this.scoredKey) return;
      /** @type {Score[]} */
      const scores = answer.scores;
      showScores(row, this.columns, scores);
      const best = bestScore(scores);
      note(
        best
          ? `Best for ${this.who(board.toMove)}: column ${best.column} (${scoreWords(best)}).` +
              (scores.some((entry) => !entry.exact) ? " ≈ marks an estimate." : "")
          : "",
      );
      this.update(scores);
    } catch (error) {
      if (isAbort(error) || key !== this.scoredKey) return;
      if (error instanceof Refused && error.status === 404) {
        note(UNAVAILABLE);
      } else {
        note(`Analysis failed: ${messageOf(error)}.`);
        const retry = () => {
          clearNotice();
          this.score(board);
        };
        notice(`The analysis failed: ${messageOf(error)}.`, [{ label: "Try again", run: retry }]);
      }
    } finally {
      this.scoring = null;
      if (this.next && key !== this.scoredKey) this.score(this.next);
    }
  }
}

function clampSize(/** @type {string | null} */ text, /** @type {number} */ fallback, most = MAX_ANALYSIS_SIZE) {
  const value = Number(text);
  return Number.isInteger(value) && value >= 1 && value <= most ? value : fallback;
}
