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
  $("keys").textContent =
    "Keys: digits drop in a column, ← → choose one, Enter drops" +
    (id === "analysis" ? "; ↓ ↑ step back and forward." : ".");
  setActions([]);
}

// The tab's title says it too, for whoever switches back to the page.
export function setStatus(/** @type {string} */ text) {
  $("status").textContent = text;
  document.title = text ? `${text} · Connect Four` : "Connect Four";
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

function fillActions(/** @type {HTMLElement} */ root, /** @type {Action[]} */ actions) {
  root.replaceChildren(
    ...actions.map(({ label, run }) => {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = label;
      button.addEventListener("click", run);
      return button;
    }),
  );
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

/**
 * The numbered move list; `at` (analysis) marks the moves past the shown position, and
 * `pick(count)`, when given, makes each move a button that shows the position after it.
 * @param {string[] | null} names
 * @param {import("./board.js").Entry[]} entries
 * @param {number} [at]
 * @param {((count: number) => void) | null} [pick]
 */
export function moveList(names, entries, at = entries.length, pick = null) {
  const items = entries.map((entry, index) => {
    const item = document.createElement("li");
    const who = names ? ` ${names[entry.player]}` : "";
    const text = `${MARKERS[entry.player]}${who}: ${entry.column === null ? "quit" : `column ${entry.column}`}`;
    if (pick) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "move";
      button.textContent = text;
      button.addEventListener("click", () => pick(index + 1));
      item.append(button);
    } else item.textContent = text;
    if (index >= at) item.className = "ahead";
    if (index === at - 1) item.setAttribute("aria-current", "step");
    return item;
  });
  $("move-list").replaceChildren(...items);
}
