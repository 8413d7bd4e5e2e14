// The page's shared pieces: views, the status line, notices with a way on, the live region.

import { MARKERS } from "./board.js";

export const $ = (id) => document.getElementById(id);

// `id` null shows no view: a page that could not load says only why, in its notice.
export function showView(id, withBoard) {
  for (const section of document.querySelectorAll(".view")) section.hidden = section.id !== id;
  $("board-area").hidden = !withBoard;
  $("steps").hidden = id !== "analysis";
  $("scores").hidden = id !== "analysis";
  $("analysis-note").hidden = id !== "analysis";
  $("step-line").textContent = "";
  $("keys").textContent = "Keys: digits drop in a column, ← → choose one, Enter drops"
    + (id === "analysis" ? "; ↓ ↑ step back and forward." : ".");
  setActions([]);
}

// The tab's title says it too, for whoever switches back to the page.
export function setStatus(text) {
  $("status").textContent = text;
  document.title = text ? `${text} · Connect Four` : "Connect Four";
}

// Says a sentence about what went wrong, with buttons for the ways on.
export function notice(text, actions) {
  $("notice-text").textContent = text;
  fillActions($("notice-actions"), actions);
  $("notice").hidden = false;
}

export function clearNotice() {
  $("notice").hidden = true;
  $("notice-text").textContent = "";
  $("notice-actions").replaceChildren();
}

// The connection's own trouble (a live game's move list out of reach) has a box of its own:
// it never hides what a move's notice says, and its recovery never clears that notice.
export function trouble(text, actions) {
  $("trouble-text").textContent = text;
  fillActions($("trouble-actions"), actions);
  $("trouble").hidden = false;
}

export function clearTrouble() {
  $("trouble").hidden = true;
  $("trouble-text").textContent = "";
  $("trouble-actions").replaceChildren();
}

export function setActions(actions) { fillActions($("game-actions"), actions); }

function fillActions(root, actions) {
  root.replaceChildren(...actions.map(({ label, run }) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = label;
    button.addEventListener("click", run);
    return button;
  }));
}

// Screen readers hear every sentence said in one turn of the page, together.
let fresh = true;
export function announce(text) {
  const live = $("live");
  live.textContent = fresh ? text : `${live.textContent} ${text}`;
  if (fresh) {
    fresh = false;
    setTimeout(() => { fresh = true; }, 0);
  }
}

// The numbered move list; `at` (analysis) marks the moves past the shown position, and
// `pick(count)`, when given, makes each move a button that shows the position after it.
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
