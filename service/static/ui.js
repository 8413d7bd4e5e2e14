// The page's shared pieces: views, the status line, notices with a way on, the live region.

import { MARKERS } from "./board.js";

/** @typedef {{label: string, run: () => void}} Action  a button: its words, and what it does */

/**
 * The page's element with this id, checked to be of the kind the caller uses.
 * @template {HTMLElement} [T=HTMLElement]
 * @param {string} id
 * @param {new () => T} [kind]
 * @returns {T}
 */
export function $(id, kind) {
  const element = document.getElementById(id);
  if (!(element instanceof (kind ?? HTMLElement)))
    throw new TypeError(`the page has no ${kind?.name ?? "element"} #${id}`);
  return /** @type {T} */ (element);
}

/**
 * The form `formId`'s control `name`, checked to be a `kind`.
 * @template {Element} T
 * @param {string} formId @param {string} name @param {new () => T} kind @returns {T}
 */
export function control(formId, name, kind) {
  const element = $(formId, HTMLFormElement).elements.namedItem(name);
  if (!(element instanceof kind)) throw new TypeError(`the form #${formId} has no ${kind.name} ${name}`);
  return element;
}

// `id` null shows no view: a page that could not load says only why, in its notice.
export function showView(/** @type {string | null} */ id, /** @type {boolean} */ withBoard) {
  for (const section of document.querySelectorAll(".view")) {
    if (section instanceof HTMLElement) section.hidden = section.id !== id;
  }
  $("board-area").hidden = !withBoard;
  $("steps").hidden = id !== "analysis";
  $("scores").hidden = id !== "analysis";
  $("analysis-note").hidden = id !== "analysis";
  $("step-line").textContent = "";
  $("review-line").textContent = "";
  $("keys").textContent =
    "Keys, on the board: digits drop in a column, ← → choose one, Enter drops" +
    (id === "analysis" ? "; ↓ ↑ step back and forward." : ".");
  setActions([]);
}

const YOUR_TURN_TITLE = "● Your turn — Connect Four";
let yourTurn = false;

// The tab's title says it too, for whoever switches back to the page; while it is this
// browser's turn, it says only that, first, so that a tab in a row of tabs shows it.
export function setStatus(/** @type {string} */ text) {
  $("status").textContent = text;
  retitle();
}

export function setYourTurn(/** @type {boolean} */ mine) {
  yourTurn = mine;
  retitle();
}

function retitle() {
  const text = $("status").textContent;
  document.title = yourTurn ? YOUR_TURN_TITLE : text ? `${text} · Connect Four` : "Connect Four";
}

// Two boxes say what went wrong, each with buttons for the ways on: "notice" (what a person
// did or asked for) and "trouble" (the connection's own: a live game's move list out of reach).
// Trouble never hides what a move's notice says, and its recovery never clears that notice.

/**
 * @param {"notice" | "trouble"} box
 * @param {string} text
 * @param {Action[]} actions
 */
function say(box, text, actions) {
  $(`${box}-text`).textContent = text;
  fillActions($(`${box}-actions`), actions);
  $(box).hidden = false;
}

function unsay(/** @type {"notice" | "trouble"} */ box) {
  $(box).hidden = true;
  $(`${box}-text`).textContent = "";
  $(`${box}-actions`).replaceChildren();
}

export const notice = (/** @type {string} */ text, /** @type {Action[]} */ actions) => say("notice", text, actions);
export const clearNotice = () => unsay("notice");
export const trouble = (/** @type {string} */ text, /** @type {Action[]} */ actions) => say("trouble", text, actions);
export const clearTrouble = () => unsay("trouble");

export const setActions = (/** @type {Action[]} */ actions) => fillActions($("game-actions"), actions);

export function fillActions(/** @type {HTMLElement} */ root, /** @type {Action[]} */ actions) {
  root.replaceChildren(...actions.map(({ label, run }) => button(label, run)));
}

/** A button that runs `run`; `words`, if given, is what screen readers hear in place of `label`. */
export function button(/** @type {string} */ label, /** @type {() => void} */ run, words = "") {
  const element = document.createElement("button");
  element.type = "button";
  element.textContent = label;
  if (words) element.setAttribute("aria-label", words);
  element.addEventListener("click", run);
  return element;
}

// Screen readers hear every sentence said in one turn of the page, together.
let fresh = true;
export function announce(/** @type {string} */ text) {
  const live = $("live");
  live.textContent = fresh ? text : `${live.textContent} ${text}`;
  if (fresh) {
    fresh = false;
    setTimeout(() => {
      fresh = true;
    }, 0);
  }
}

/** @typedef {{number: number, column: number, best_column: number | null, verdict: string | null}} MoveReview  of POST /review */

/**
 * The move table, a column per player: `at` marks the moves past the shown position, `pick(count)`
 * makes each move a button that shows the position after it, `verdicts` (a review) are added.
 * @param {string[] | null} names
 * @param {import("./board.js").Entry[]} entries
 * @param {number} [at]
 * @param {((count: number) => void) | null} [pick]
 * @param {MoveReview[] | null} [verdicts]
 */
export function moveList(names, entries, at = entries.length, pick = null, verdicts = null) {
  const table = $("move-list", HTMLTableElement);
  const head = document.createElement("tr");
  head.append(cell("th", "#"));
  for (const player of [0, 1]) {
    const th = cell("th", "");
    th.scope = "col";
    const chip = document.createElement("span");
    chip.className = `chip p${player}`;
    chip.textContent = MARKERS[player];
    th.append(chip, names ? ` ${names[player]}` : "");
    head.append(th);
  }
  table.tHead?.replaceChildren(...(entries.length ? [head] : []));
  /** @type {HTMLTableRowElement[]} */
  const rows = [];
  entries.forEach((entry, index) => {
    if (index % 2 === 0) {
      const row = document.createElement("tr");
      row.append(cell("th", String(index / 2 + 1)));
      rows.push(row);
    }
    const td = cell("td", "");
    const text = entry.column === null ? quitWord(entry) : String(entry.column);
    const verdict = verdicts?.[index]?.verdict ?? null;
    /** @type {HTMLElement} */
    let holder = td;
    if (pick) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "move";
      button.setAttribute("aria-label", moveWords(names, entry, index, verdict));
      button.addEventListener("click", () => pick(index + 1));
      td.append(button);
      holder = button;
    }
    holder.append(text);
    if (verdicts) {
      const mark = document.createElement("span");
      mark.className = `verdict ${verdict ?? "unsettled"}`;
      mark.textContent = verdict ?? "—";
      if (verdict === null) mark.title = "not settled in the review's time";
      holder.append(" ", mark);
    }
    if (index >= at) td.className = "ahead";
    if (index === at - 1) (pick ? holder : td).setAttribute("aria-current", "step");
    rows[rows.length - 1].append(td);
  });
  table.tBodies[0].replaceChildren(...rows);
  table.tFoot?.replaceChildren(...(verdicts && entries.length ? [tally(verdicts)] : []));
}

/** One move in words: "Move 3, ann (X): column 2, a mistake". */
function moveWords(
  /** @type {string[] | null} */ names,
  /** @type {import("./board.js").Entry} */ entry,
  /** @type {number} */ index,
  /** @type {string | null} */ verdict,
) {
  const who = names ? `${names[entry.player]} (${MARKERS[entry.player]})` : MARKERS[entry.player];
  const what = entry.column === null ? quitWord(entry) : `column ${entry.column}`;
  return `Move ${index + 1}, ${who}: ${what}` + (verdict ? `, ${verdict}` : "");
}

/** A move list's quit in a word: a flag fall and a claimed win say so. */
const quitWord = (/** @type {import("./board.js").Entry} */ entry) =>
  entry.reason === "TIMEOUT" ? "time out" : entry.reason === "ABANDONED" ? "claimed" : "quit";

/** The review's row of counts: each player's moves by verdict. */
function tally(/** @type {MoveReview[]} */ verdicts) {
  const row = document.createElement("tr");
  row.append(cell("th", "Σ"));
  for (const player of [0, 1]) {
    /** @type {Record<string, number>} */
    const counts = {};
    for (const { number, verdict } of verdicts) {
      if (verdict && (number - 1) % 2 === player) counts[verdict] = (counts[verdict] ?? 0) + 1;
    }
    const words = ["best", "slower", "mistake", "blunder"].filter((word) => counts[word]);
    row.append(cell("td", words.map((word) => `${counts[word]} ${word}`).join(", ") || "—"));
  }
  return row;
}

function cell(/** @type {"th" | "td"} */ kind, /** @type {string} */ text) {
  const element = document.createElement(kind);
  element.textContent = text;
  return element;
}
