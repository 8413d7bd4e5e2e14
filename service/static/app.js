// The page: one view at a time, chosen by the address's fragment (#game=…, #computer=…, …).
// Player names are other people's input: they only ever reach the page as text (textContent).

import { Refused, Unreachable, follow, gamePath, newKey, playerPath, request } from "./api.js";
import { Board, BoardView, COLOURS, MARKERS, describeMove, replayText } from "./board.js";
import { AnalysisView } from "./analysis.js";
import {
  $, announce, clearNotice, clearTrouble, moveList, notice, setActions, setStatus, showView, trouble,
} from "./ui.js";

const SIZES = [[6, 7, "6 × 7, the classic"], [5, 8, "5 × 8, the terminal game's"],
  [7, 8, "7 × 8"], [6, 9, "6 × 9"], [8, 8, "8 × 8"], [4, 5, "4 × 5, quick"]];
const LEVELS = { 1: "1, beginner", 2: "2, casual", 3: "3, club", 4: "4, strong", 5: "5, perfect" };
const MOST_SIZE = 16;             // the largest board the page offers to draw, rows and columns
const TERMINAL_BOARD = [5, 8];   // connect.py's own board: its join command needs no size

let view = null;
const boardView = new BoardView($("board"), (column) => view?.drop?.(column));

const tokenKey = (gameId, player) => `c4.token.${gameId}.${player}`;
const inviteKey = (gameId) => `c4.invite.${gameId}`;
const fragment = (values) => "#" + new URLSearchParams(values).toString();
const home = () => { location.hash = ""; };
const NEW_GAME = { label: "New game", run: home };

function store(key, value) {
  try { localStorage.setItem(key, value); } catch { /* private mode: the link still works */ }
}
function stored(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

function shellWord(text) {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'"'"'`)}'`;
}

function playersHeading(names, me) {
  const heading = $("play-heading");
  heading.replaceChildren();
  names.forEach((name, index) => {
    if (index) heading.append(" against ");
    const disc = document.createElement("span");
    disc.className = `chip p${index}`;
    disc.textContent = MARKERS[index];
    disc.setAttribute("aria-label", `${MARKERS[index]}, ${COLOURS[index]}:`);
    const who = document.createElement("span");
    who.textContent = name + (index === me && name !== "You" ? " (you)" : "");
    heading.append(disc, " ", who);
  });
  $("title").textContent = names.join(" against ");
}

// --- Home -----------------------------------------------------------------------------------

function fillChoices() {
  for (const select of document.querySelectorAll("select.sizes")) {
    for (const [rows, columns, text] of SIZES) {
      select.append(new Option(text, `${rows}x${columns}`));
    }
  }
  for (const [level, text] of Object.entries(LEVELS)) $("levels").append(new Option(text, level));
  $("levels").value = "3";
}

const sizeOf = (form) => form.elements.size.value.split("x").map(Number);

$("friend-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.target;
  const me = form.elements.me.value.trim(), friend = form.elements.friend.value.trim();
  if (!me || !friend || me === friend) {
    notice("The two players need two different names.", []);
    return;
  }
  const [rows, columns] = sizeOf(form);
  const players = form.elements.first.value === "me" ? [me, friend] : [friend, me];
  const create = async () => {
    clearNotice();
    try {
      const created = await request("POST", "/drop_token",
        { body: { players, rows, columns, tokens: true } });
      const id = created.gameId;
      store(tokenKey(id, me), created.tokens[me]);
      const base = location.origin;
      let command = `CONNECT_FOUR_TOKEN=${created.tokens[friend]} python3 connect.py --join `
        + shellWord(`${base}${playerPath(id, friend)}`);
      if (rows !== TERMINAL_BOARD[0] || columns !== TERMINAL_BOARD[1]) {
        command += ` --rows ${rows} --columns ${columns}`;
      }
      store(inviteKey(id), JSON.stringify({
        friend, command,
        link: `${base}/${fragment({ game: id, me: friend, t: created.tokens[friend] })}`,
      }));
      location.hash = fragment({ game: id, me });
    } catch (error) {
      failed(error, "The game could not be created", create);
    }
  };
  await create();
});

$("computer-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.target;
  const [r, c] = sizeOf(form);
  location.hash = fragment({ computer: form.elements.level.value, r, c, you: form.elements.you.value, moves: "" });
});

$("analysis-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.target;
  const [r, c] = sizeOf(form);
  location.hash = fragment({ analysis: "", r, c, moves: form.elements.moves.value.trim() });
});

// A game id, a page link, or the join command a terminal (or this page) printed.
$("watch-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = event.target.elements.game.value.trim();
  const link = text.match(/#((?:game|watch)=.*)$/);
  const joined = text.match(/\/drop_token\/([0-9A-Za-z]+)\/([^\s/'"]+)/);
  const token = text.match(/(?:CONNECT_FOUR_TOKEN=|--token\s+)(\S+)/);
  if (link) location.hash = link[1];
  else if (joined && token) {
    location.hash = fragment({ game: joined[1], me: decodeURIComponent(joined[2]), t: token[1] });
  } else if (joined) location.hash = fragment({ watch: joined[1] });
  else location.hash = fragment({ watch: text });
});

// --- Errors said in a sentence, with a way on -----------------------------------------------

// A page that could not show what its address asks for shows only its notice: no board, no
// heading, nothing left of the game an earlier address showed.
function showNothing() {
  showView(null, false);
  boardView.clear();
  $("play-heading").replaceChildren();
  $("title").textContent = "";
  $("invite").hidden = true;
  $("watch-line").textContent = "";
  moveList(null, []);
  setStatus("");
}

function failed(error, what, retry) {
  if (error.name === "AbortError") return;
  if (error instanceof Unreachable) {
    notice(`${what}: the service cannot be reached. Check your connection, or that the service is running.`,
      [{ label: "Try again", run: retry }, NEW_GAME]);
  } else if (error instanceof Refused && error.status === 503) {
    notice(`${what}: the service is busy (${error.message}).`, [{ label: "Try again", run: retry }, NEW_GAME]);
  } else {
    notice(`${what}: ${error.message}.`, [{ label: "Try again", run: retry }, NEW_GAME]);
  }
}

// --- A game on the service: played (a player's token known) or watched ------------------------

class LiveGame {
  constructor(params) {
    this.gameId = params.get("game") ?? params.get("watch");
    this.me = params.get("game") !== null ? params.get("me") : null;
    // A link's token is checked before it is kept (load): a wrong one must not replace a good one.
    this.offered = this.me !== null ? params.get("t") : null;
    if (this.offered) {
      // The token stays in this browser, out of the address bar, its history and bookmarks.
      history.replaceState(null, "", fragment({ game: this.gameId, me: this.me }));
    }
    this.token = null;
    this.abort = new AbortController();
    // Fired to end a retry's pause at once: the network is back, the tab has the focus.
    this.wake = new EventTarget();
    for (const name of ["online", "focus"]) {
      window.addEventListener(name, () => this.wake.dispatchEvent(new Event("wake")), { signal: this.abort.signal });
    }
    this.sending = false;
    this.confirmingQuit = false;
    showNothing();
    if (!this.gameId) {
      notice("This link names no game: it needs a game id after “=”.", [NEW_GAME]);
      return;
    }
    this.load();
  }

  stop() { this.abort.abort(); }

  async load() {
    const signal = this.abort.signal;
    showView("play", true);
    setStatus("Loading the game…");
    try {
      const [state, list] = await Promise.all([
        request("GET", gamePath(this.gameId), { signal }),
        request("GET", `${gamePath(this.gameId)}/moves`, { signal }),
      ]);
      this.names = state.players;
      this.board = new Board(state.rows, state.columns);
      this.side = this.me === null ? -1 : this.names.indexOf(this.me);
      if (this.me !== null && this.side < 0) {
        notice(`This game has no player called “${this.me}”: you are watching it.`, [NEW_GAME]);
      }
      if (this.names.length !== 2) {
        showNothing();
        notice("This page shows games of two players only.", [NEW_GAME]);
        return;
      }
      this.apply(list.moves, 0, false);
      if (this.side >= 0 && !this.board.over) await this.chooseToken(signal);
      playersHeading(this.names, this.side);
      this.showInvite();
      this.draw();
      if (this.board.over) this.finish();
      else this.follow();
    } catch (error) {
      if (error.name === "AbortError") return;
      showNothing();
      if (error instanceof Refused && error.code === "game_not_found") {
        notice("There is no game with this id on this service.", [NEW_GAME]);
      } else {
        failed(error, "The game could not be loaded", () => { clearNotice(); this.load(); });
      }
    }
  }

  // Picks the token this browser plays with: the link's if the service takes it (then kept),
  // else the one kept from before; with neither, this browser watches, and the page says why.
  async chooseToken(signal) {
    const key = tokenKey(this.gameId, this.me), kept = stored(key), offered = this.offered;
    const name = this.me;
    let offeredVerdict = null;
    if (offered && offered !== kept) {
      offeredVerdict = await this.verdict(offered, signal);
      if (offeredVerdict === "accepted" || (offeredVerdict === "unknown" && !kept)) {
        store(key, offered);
        this.token = offered;
        return;
      }
    }
    const keptVerdict = kept ? await this.verdict(kept, signal) : await this.verdict(null, signal);
    if (keptVerdict !== "token_rejected" && keptVerdict !== "token_required") {
      this.token = kept;
      if (offeredVerdict === "token_rejected") {
        notice(`This link's secret token is not ${name}'s. This browser still holds ${name}'s own token from before, and plays with it.`, []);
      }
      return;
    }
    this.side = -1;
    if (offeredVerdict === "token_rejected" || keptVerdict === "token_rejected") {
      notice(`This link's secret token is not ${name}'s, so you are watching, not playing. `
        + `To play as ${name}, ask whoever created the game to send ${name}'s invite link again.`, [NEW_GAME]);
    } else {
      notice(`This link lacks ${name}'s secret token, so you are watching, not playing. `
        + `To play as ${name}, open the whole invite link that whoever created the game sent you: `
        + "it ends with “&t=” and the token.", [NEW_GAME]);
    }
  }

  // Whether the service takes `token` for this player's moves, without moving: a move into the
  // column past the board's edge. The service checks the token before the column (as connect.py
  // --join does), so it answers token_required or token_rejected, or refuses the column, and it
  // never stores such a move. "unknown": no answer to go by.
  async verdict(token, signal) {
    try {
      await request("POST", playerPath(this.gameId, this.me),
        { body: { column: this.board.columns }, token, signal });
      return "accepted";
    } catch (error) {
      if (error.name === "AbortError") throw error;
      if (!(error instanceof Refused) || error.status >= 500) return "unknown";
      return ["token_required", "token_rejected"].includes(error.code) ? error.code : "accepted";
    }
  }

  // The creator's invite stays until the friend has moved (the page's sign that they joined),
  // folded away then, and can be opened again until the game ends.
  showInvite() {
    const invite = this.side >= 0 && JSON.parse(stored(inviteKey(this.gameId)) || "null");
    this.invite = Boolean(invite);
    this.inviteFolded = this.friendMoved;
    $("invite").hidden = !invite || this.board.over;
    if (invite) {
      $("invite-name").textContent = invite.friend;
      $("invite-link").value = invite.link;
      $("invite-command").value = invite.command;
      $("invite").open = !this.friendMoved;
    }
    $("watch-line").textContent = `Anyone can watch at ${location.origin}/#watch=${this.gameId}`;
  }

  get friendMoved() { return this.board.entries.some((entry) => entry.player !== this.side); }

  follow() {
    follow(this.gameId, () => this.board.entries.length,
      (entries, start) => { this.apply(entries, start, true); this.draw(); if (this.board.over) this.finish(); return this.board.over; },
      (failure) => {
        if (!failure) clearTrouble();
        else if (failure instanceof Refused && failure.code === "game_not_found") {
          trouble("This game is no longer on the service.", [NEW_GAME]);
        } else {
          trouble(failure instanceof Unreachable
            ? "The service cannot be reached; trying again…"
            : `The service has trouble (${failure.message}); trying again…`,
          [{ label: "Retry now", run: () => this.wake.dispatchEvent(new Event("wake")) }]);
        }
      },
      this.abort.signal, this.wake);
  }

  // Plays the move list's entries from number `start` on that this copy does not have yet.
  apply(entries, start, speak) {
    entries.forEach((entry, offset) => {
      if (start + offset < this.board.entries.length || this.board.over) return;
      const player = this.names.indexOf(entry.player);
      if (entry.type === "QUIT") this.board.quit(player);
      else this.board.play(entry.column);
      if (speak) announce(describeMove(this.names, this.board.entries.at(-1)) + ".");
    });
    if (speak && !this.board.over) announce(this.turnText());
    if (this.invite && this.friendMoved && !this.inviteFolded) {
      this.inviteFolded = true;
      $("invite").open = false;
    }
    if (this.invite && this.board.over) $("invite").hidden = true;
  }

  // No board yet (loading), or none at all (the game could not be shown): nothing to play.
  get myTurn() { return Boolean(this.board) && !this.board.over && this.board.toMove === this.side && !this.sending; }

  turnText() {
    const next = this.board.toMove;
    if (next === this.side) return `Your turn: you are ${MARKERS[next]} (${COLOURS[next]}).`;
    return `${this.names[next]}'s turn (${MARKERS[next]}, ${COLOURS[next]})`
      + (this.side >= 0 ? ": waiting for their move…" : ".");
  }

  draw() {
    boardView.draw(this.board, { enabled: this.myTurn });
    moveList(this.names, this.board.entries);
    if (!this.board.over) setStatus(this.turnText());
    const actions = [];
    if (this.board.over) actions.push(reviewAction(this.board, this.names));
    else if (this.side >= 0 && this.confirmingQuit) {
      const other = this.names[1 - this.side];
      actions.push({ label: `Yes, quit: ${other} wins`, run: () => this.quit() },
        { label: "No, keep playing", run: () => this.askQuit(false) });
    } else if (this.side >= 0) actions.push({ label: "Quit this game", run: () => this.askQuit(true) });
    if (!this.confirmingQuit || this.board.over) actions.push(NEW_GAME);
    setActions(actions);
  }

  // Quitting ends the game for both: one click asks, a second one quits.
  askQuit(asking) {
    this.confirmingQuit = asking;
    this.draw();
    if (asking) {
      announce(`Quit this game? ${this.names[1 - this.side]} would win.`);
      $("game-actions").querySelector("button:last-child")?.focus();
    }
  }

  async drop(column) {
    if (!this.myTurn || !this.board.canPlay(column)) return;
    const key = newKey();
    const send = async () => {
      this.sending = true;
      clearNotice();
      try {
        const answer = await request("POST", playerPath(this.gameId, this.me),
          { body: { column }, token: this.token, key, signal: this.abort.signal });
        const number = Number(answer.move.split("/").at(-1));
        this.sending = false;
        this.apply([{ type: "MOVE", player: this.me, column }], number, true);
        this.wake.dispatchEvent(new Event("wake"));   // the service is back: so is the move list
      } catch (error) {
        this.sending = false;
        if (error instanceof Unreachable) {
          notice("Your move could not be sent: the service cannot be reached.",
            [{ label: "Try again", run: send }, NEW_GAME]);
        } else if (error instanceof Refused && (error.status === 401 || error.status === 403)) {
          notice(`Your move was refused: this browser does not hold ${this.me}'s secret token. `
            + `Open the whole invite link that whoever created the game sent you.`, [NEW_GAME]);
        } else if (error.name !== "AbortError") {
          notice(`Your move was refused: ${error.message}.`, [{ label: "Reload the game", run: route }, NEW_GAME]);
        }
      }
      this.draw();
      if (this.board.over) this.finish();
    };
    this.draw();
    await send();
  }

  async quit() {
    this.confirmingQuit = false;
    this.draw();
    try {
      await request("DELETE", playerPath(this.gameId, this.me),
        { token: this.token, key: newKey(), signal: this.abort.signal });
    } catch (error) {
      failed(error, "You could not quit", () => this.quit());
    }
  }

  finish() {
    if (this.finished) return;   // the last move may come both from its POST and the move list
    this.finished = true;
    const { winner, quitter } = this.board;
    let text;
    if (quitter !== null) {
      text = quitter === this.side ? "You quit the game."
        : `${this.names[quitter]} quit the game: ${winner === this.side ? "you win" : `${this.names[winner]} wins`}.`;
    } else if (winner === null) text = "Game over: the board is full, a draw.";
    else text = winner === this.side ? "Game over: you win!" : `Game over: ${this.names[winner]} (${MARKERS[winner]}) wins.`;
    setStatus(text);
    announce(text);
    this.draw();
  }
}

// The finished game on the analysis board; `names`, for a game between people, go with it.
function reviewAction(board, names = null) {
  const moves = board.columnsPlayed.join(",");
  const address = { analysis: "", r: board.rows, c: board.columns, moves };
  if (names) Object.assign(address, { x: names[0], o: names[1] });
  return { label: "Review move by move", run: () => { location.hash = fragment(address); } };
}

// --- Against the computer: the game lives in this page (and its address), the service moves ---

class ComputerGame {
  constructor(params) {
    this.level = Number(params.get("computer"));
    this.you = Number(params.get("you")) === 1 ? 1 : 0;
    this.abort = new AbortController();
    const problem = this.setUp(params);
    if (problem) {
      showNothing();
      notice(`This address is no game against the computer: ${problem}.`, [NEW_GAME]);
      return;
    }
    this.names = this.you === 0 ? ["You", `Computer (level ${this.level})`] : [`Computer (level ${this.level})`, "You"];
    this.thinking = false;
    showView("play", true);
    $("invite").hidden = true;
    $("watch-line").textContent = "";
    playersHeading(this.names, this.you);
    this.next();
  }

  stop() { this.abort.abort(); }

  // Reads the address's level, board and moves; says in words what is wrong, or nothing.
  setUp(params) {
    if (!(this.level in LEVELS)) {
      return `there is no level “${params.get("computer")}”: the levels are 1 to 5`;
    }
    const [rows, columns] = [["r", 6], ["c", 7]]
      .map(([name, usual]) => (params.get(name) ? Number(params.get(name)) : usual));
    if (![rows, columns].every((value) => Number.isInteger(value) && value >= 1 && value <= MOST_SIZE)) {
      return `a board of ${params.get("r") || 6} rows × ${params.get("c") || 7} columns cannot be played here: `
        + `rows and columns are whole numbers from 1 to ${MOST_SIZE}`;
    }
    try {
      this.board = replayText(rows, columns, params.get("moves") ?? "");
    } catch (error) {
      return `its moves are no game on this ${rows} × ${columns} board: ${error.message}`;
    }
    return null;
  }

  save() {
    history.replaceState(null, "", fragment({ computer: this.level, r: this.board.rows, c: this.board.columns, you: this.you, moves: this.board.columnsPlayed.join(",") }));
  }

  get myTurn() { return Boolean(this.board) && !this.board.over && this.board.toMove === this.you && !this.thinking; }

  draw() {
    boardView.draw(this.board, { enabled: this.myTurn });
    moveList(this.names, this.board.entries);
    const actions = [];
    if (this.board.entries.some((e) => e.player === this.you) && !this.thinking) {
      actions.push({ label: "Take back", run: () => this.takeBack() });
    }
    actions.push({ label: "New game", run: home });
    if (this.board.over) actions.unshift(reviewAction(this.board));
    setActions(actions);
  }

  next() {
    if (this.board.over) return this.finish();
    if (this.board.toMove === this.you) {
      setStatus(`Your turn: you are ${MARKERS[this.you]} (${COLOURS[this.you]}).`);
      this.draw();
    } else this.think();
  }

  drop(column) {
    if (!this.myTurn || !this.board.canPlay(column)) return;
    this.board.play(column);
    announce(`You played column ${column}.`);
    this.save();
    this.next();
  }

  async think() {
    this.thinking = true;
    clearNotice();
    setStatus(`The computer is thinking…`);
    this.draw();
    try {
      const answer = await request("POST", "/computer_move", {
        body: { rows: this.board.rows, columns: this.board.columns, moves: this.board.columnsPlayed, level: this.level },
        signal: this.abort.signal,
      });
      this.thinking = false;
      this.board.play(answer.column);
      announce(`The computer played column ${answer.column}.`);
      this.save();
      this.next();
    } catch (error) {
      this.thinking = false;
      if (error.name === "AbortError") return;
      setStatus("The computer has not moved.");
      if (error instanceof Refused && error.code === "computer_busy") {
        notice("The computer is busy with other games right now.", [{ label: "Try again", run: () => this.think() }, NEW_GAME]);
      } else failed(error, "The computer could not move", () => this.think());
      this.draw();
    }
  }

  takeBack() {
    const moves = this.board.columnsPlayed;
    do moves.pop(); while (moves.length % 2 !== this.you);
    this.board = Board.replay(this.board.rows, this.board.columns, moves);
    announce(`Moves taken back: ${moves.length} played.`);
    this.save();
    this.next();
  }

  finish() {
    const { winner } = this.board;
    const text = winner === null ? "Game over: a draw." : winner === this.you ? "Game over: you win!" : "Game over: the computer wins.";
    setStatus(text);
    announce(text);
    this.draw();
  }
}

// --- Routing and keys ------------------------------------------------------------------------

function route() {
  view?.stop?.();
  view = null;
  clearNotice();
  clearTrouble();
  const params = new URLSearchParams(location.hash.slice(1));
  // A keyboard user whose control just vanished (Start, Create game) lands on the board.
  boardView.wantsFocus = document.activeElement === document.body
    || Boolean(document.activeElement?.closest("#home"));
  if (params.has("game") || params.has("watch")) view = new LiveGame(params);
  else if (params.has("computer")) view = new ComputerGame(params);
  else if (params.has("analysis")) view = new AnalysisView(params, boardView);
  else {
    $("title").textContent = "Play a friend or the computer, watch a game, study a position.";
    setStatus("");
    showView("home", false);
  }
}

document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || !view) return;
  if (event.target.closest?.("input, select, textarea, summary")) return;
  if (/^[0-9]$/.test(event.key)) {
    event.preventDefault();
    boardView.focusColumn = Number(event.key);
    view.drop?.(Number(event.key));
  } else if ((event.key === "ArrowDown" || event.key === "ArrowUp") && view.step) {
    event.preventDefault();
    view.step(event.key === "ArrowUp" ? 1 : -1);
  } else if (event.key === "Enter" && event.target === document.body) {
    event.preventDefault();
    view.drop?.(boardView.focusColumn);
  }
});

$("copy-link").addEventListener("click", async () => {
  const field = $("invite-link");
  field.select();
  try { await navigator.clipboard.writeText(field.value); announce("Link copied."); } catch {
    announce("Press Control C (or Command C) to copy the selected link.");
  }
});

// The fragment chooses the view, so the skip link moves the focus itself.
$("skip").addEventListener("click", (event) => {
  event.preventDefault();
  if (!$("board-area").hidden) boardView.focus();
  else document.querySelector(".view:not([hidden]) input, .view:not([hidden]) select")?.focus();
});

fillChoices();
window.addEventListener("hashchange", route);
route();
