// The page: one view at a time, chosen by the address's fragment (#game=…, #computer=…, …).

import { AnalysisView } from "./analysis.js";
import { BoardView } from "./board_view.js";
import { ComputerGame } from "./computer_game.js";
import { listenToHome, showHome } from "./home.js";
import { listenToCopy } from "./invite.js";
import { LiveGame } from "./live_game.js";
import { LobbyView, listenToLobby } from "./lobby.js";
import { listenToPrefs, shortcutsOn } from "./prefs.js";
import { $, clearNotice, clearTrouble } from "./ui.js";

/**
 * What every view does: start() shows it, stop() when the address changes; the board's drops and steps, if any.
 * @typedef {{start(): void, stop(): void, drop?(column: number): void, step?(delta: number): void}} View
 */

/** @type {View | null} */
let view = null;
const boardView = new BoardView($("board"), (column) => view?.drop?.(column));

/** The view the address asks for, not started yet; null for the home view. */
function viewFor(/** @type {URLSearchParams} */ params) {
  if (params.has("game") || params.has("watch")) return new LiveGame(params, boardView, route);
  if (params.has("computer")) return new ComputerGame(params, boardView);
  if (params.has("analysis")) return new AnalysisView(params, boardView);
  if (params.has("lobby")) return new LobbyView();
  return null;
}

function route() {
  view?.stop();
  view = null;
  clearNotice();
  clearTrouble();
  // A keyboard user whose control just vanished (Start, Create game) lands on the board.
  const focused = document.activeElement;
  boardView.wantsFocus = focused === document.body || Boolean(focused?.closest("#home"));
  view = viewFor(new URLSearchParams(location.hash.slice(1)));
  if (view) view.start();
  else showHome();
}

// The keys act only while the board's area has the focus, or nothing has (a click on the
// page's background); the single-key shortcuts, the digits, can be turned off (WCAG 2.1.4).
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || !view) return;
  const target = event.target;
  if (!(target === document.body || (target instanceof Element && target.closest("#board-area")))) return;
  if (target instanceof Element && target.closest("input, select, textarea, summary")) return;
  if (/^[0-9]$/.test(event.key)) {
    if (!shortcutsOn()) return;
    event.preventDefault();
    boardView.focusColumn = Number(event.key);
    view.drop?.(Number(event.key));
  } else if ((event.key === "ArrowDown" || event.key === "ArrowUp") && view.step) {
    event.preventDefault();
    view.step(event.key === "ArrowUp" ? 1 : -1);
  } else if (event.key === "Enter" && target === document.body) {
    event.preventDefault();
    view.drop?.(boardView.focusColumn);
  }
});

// The fragment chooses the view, so the skip link moves the focus itself.
$("skip").addEventListener("click", (event) => {
  event.preventDefault();
  if (!$("board-area").hidden) boardView.focus();
  else {
    const first = document.querySelector(".view:not([hidden]) input, .view:not([hidden]) select");
    if (first instanceof HTMLElement) first.focus();
  }
});

listenToHome();
listenToLobby();
listenToPrefs();
listenToCopy();
window.addEventListener("hashchange", route);
route();
