// A game on the service: played (a player's token known) or watched.
// Player names are other people's input: they only ever reach the page as text (textContent).

import { fragment, NEW_GAME, reviewAction } from "./address.js";
import { gamePath, isAbort, messageOf, newKey, playerPath, Refused, request, Unreachable } from "./api.js";
import { Board, COLOURS, describeMove, MARKERS } from "./board.js";
import { failed } from "./failure.js";
import { follow } from "./follow.js";
import { foldInvite, hideInvite, keptInvite, showInvite } from "./invite.js";
import { followStatus, friendAct, matchScore, offerWords } from "./match.js";
import { MatchView } from "./match_view.js";
import { PlayedGame, playersHeading, showNothing } from "./played_game.js";
import { chooseToken } from "./player_token.js";
import { store, tokenKey } from "./storage.js";
import { $, announce, clearNotice, clearTrouble, notice, setActions, setStatus, showView, trouble } from "./ui.js";

/** @typedef {import("./follow.js").MoveEntry} MoveEntry */
/** @typedef {import("./match.js").FriendStatus} FriendStatus */
/** @typedef {import("./ui.js").Action} Action */

export class LiveGame extends PlayedGame {
  /**
   * Reads the address (#game=ID&me=NAME&t=TOKEN, or #watch=ID); start() shows the game.
   * @param {URLSearchParams} params
   * @param {import("./board_view.js").BoardView} boardView
   * @param {() => void} reload  shows the address's view afresh
   */
  constructor(params, boardView, reload) {
    super(boardView);
    this.reload = reload;
    this.gameId = params.get("game") ?? params.get("watch");
    this.me = params.get("game") !== null ? params.get("me") : null;
    this.offered = this.me !== null ? params.get("t") : null;
    /** @type {string | null} */
    this.token = null;
    // Fired to end a retry's pause at once: the network is back, the tab has the focus.
    this.wake = new EventTarget();
    this.confirmingQuit = false;
    this.invite = false;
    this.inviteFolded = false;
    this.match = new MatchView();
    /** @type {FriendStatus | null} the game between friends' last status */
    this.status = null;
    /** @type {AbortController | null} the move list's following, stopped by a takeback */
    this.moves = null;
    this.resyncing = false;
    /** A sentence about the last offer's fate ("bob declined your draw offer."), until the next move. */
    this.news = "";
  }

  stop() {
    super.stop();
    this.match.hide();
  }

  start() {
    for (const name of ["online", "focus"]) {
      window.addEventListener(name, () => this.rouse(), { signal: this.abort.signal });
    }
    showNothing(this.boardView);
    if (!this.gameId) {
      notice("This link names no game: it needs a game id after “=”.", [NEW_GAME]);
      return;
    }
    if (this.offered) {
      // The token stays in this browser, out of the address bar, its history and bookmarks.
      history.replaceState(null, "", fragment({ game: this.gameId, me: this.me ?? "" }));
    }
    this.load(this.gameId);
  }

  rouse() {
    this.wake.dispatchEvent(new Event("wake"));
  }

  /** @param {string} gameId */
  async load(gameId) {
    const signal = this.abort.signal;
    showView("play", true);
    setStatus("Loading the game…");
    try {
      const [state, list] = await Promise.all([
        request("GET", gamePath(gameId), { signal }),
        request("GET", `${gamePath(gameId)}/moves`, { signal }),
      ]);
      this.names = state.players;
      const board = new Board(state.rows, state.columns, state.connect);
      this.board = board;
      this.side = this.me === null ? -1 : this.names.indexOf(this.me);
      if (this.me !== null && this.side < 0) {
        notice(`This game has no player called “${this.me}”: you are watching it.`, [NEW_GAME]);
      }
      if (this.names.length !== 2) {
        showNothing(this.boardView);
        notice("This page shows games of two players only.", [NEW_GAME]);
        return;
      }
      this.apply(list.moves, 0, false);
      if (this.me !== null && this.side >= 0 && !board.over) {
        const choice = await chooseToken({ gameId, player: this.me, columns: board.columns, signal }, this.offered);
        this.token = choice.token;
        if (!choice.plays) this.side = -1;
      }
      playersHeading(this.names, this.side, board.connect);
      this.showRatings(gameId);
      this.showInvite(gameId);
      this.draw();
      if (board.over) this.finish();
      else this.follow(gameId);
      this.followStatus(gameId);
    } catch (error) {
      if (isAbort(error)) return;
      showNothing(this.boardView);
      if (error instanceof Refused && error.code === "game_not_found") {
        notice("There is no game with this id on this service.", [NEW_GAME]);
      } else {
        failed(error, "The game could not be loaded", () => {
          clearNotice();
          this.load(gameId);
        });
      }
    }
  }

  /** A lobby game's ratings beside its players' names (a friend's game has none). */
  async showRatings(/** @type {string} */ gameId) {
    try {
      const record = await request("GET", `/lobby/games/${encodeURIComponent(gameId)}`, { signal: this.abort.signal });
      const ratings = record.ratings.before;
      const named = this.names.map((name, index) => `${name} (${Math.round(ratings[index].rating)})`);
      playersHeading(named, this.side, this.board?.connect);
    } catch {
      // not a lobby game, or no answer: the names alone
    }
  }

  // The creator's invite stays until the friend has moved (the page's sign that they joined),
  // folded away then, and can be opened again until the game ends.
  /** @param {string} gameId */
  showInvite(gameId) {
    const invite = this.side >= 0 ? keptInvite(gameId) : null;
    this.invite = Boolean(invite);
    this.inviteFolded = this.friendMoved;
    showInvite(this.board.over ? null : invite, this.friendMoved);
    $("watch-line").textContent = `Anyone can watch at ${location.origin}/#watch=${gameId}`;
  }

  get friendMoved() {
    return this.board.entries.some((entry) => entry.player !== this.side);
  }

  /** @param {string} gameId */
  follow(gameId) {
    this.moves?.abort();
    this.moves = new AbortController();
    follow(
      gameId,
      () => this.board.entries.length,
      (entries, start) => {
        this.apply(entries, start, true);
        this.draw();
        if (this.board.over) this.finish();
        return this.board.over;
      },
      (failure) => {
        if (!failure) clearTrouble();
        else if (failure instanceof Refused && failure.code === "game_not_found") {
          trouble("This game is no longer on the service.", [NEW_GAME]);
        } else {
          trouble(
            failure instanceof Unreachable
              ? "The service cannot be reached; trying again…"
              : `The service has trouble (${messageOf(failure)}); trying again…`,
            [{ label: "Retry now", run: () => this.rouse() }],
          );
        }
      },
      AbortSignal.any([this.abort.signal, this.moves.signal]),
      this.wake,
    );
  }

  /** @param {string} gameId */
  followStatus(gameId) {
    const me = this.side >= 0 ? this.me : null;
    followStatus(
      { gameId, me, token: me === null ? null : this.token },
      (status) => this.onStatus(status),
      this.abort.signal,
      this.wake,
    );
  }

  /**
   * A new status: the panel redrawn, a takeback or an agreed draw applied, news said, and a
   * rematch agreed followed to its game; true (stop following) once this page leaves.
   * @param {FriendStatus} status
   */
  onStatus(status) {
    const before = this.status;
    this.status = status;
    const board = this.board;
    if (status.moves < board.entries.length) this.resync();
    else if (
      status.state === "DONE" &&
      !board.over &&
      status.moves === board.entries.length &&
      (status.reason === "DRAW_AGREED" || status.reason === "DRAW_CLAIMED")
    ) {
      board.drawn = true; // no move says so: the status does
      this.moves?.abort();
      if (this.invite) hideInvite();
      this.finish();
    }
    if (status.rematch && this.side >= 0 && this.me !== null) {
      this.goToRematch(status.rematch);
      return true;
    }
    this.match.show(status, this.names, this.side);
    this.sayNews(before, status);
    this.match.offerLine(this.offerText(), this.offerActions());
    this.match.score(matchScore(this.status, this.names));
    setActions(this.actions());
    return false;
  }

  /** What changed that the other side did: an offer made or answered, the opponent gone or back. */
  sayNews(/** @type {FriendStatus | null} */ before, /** @type {FriendStatus} */ now) {
    if (!before) return;
    const offer = now.offer;
    if (offer && (offer.kind !== before.offer?.kind || offer.by !== before.offer?.by) && offer.by !== this.me) {
      announce(offerWords(now, this.me, "", false));
    }
    const gone = before.offer;
    if (gone && !offer && gone.by === this.me && now.moves === before.moves && now.state === before.state) {
      this.news = `${this.names[1 - this.side]} declined your ${gone.kind} offer.`;
      announce(this.news);
    }
    if (this.side < 0 || now.state === "DONE") return;
    const other = now.players[1 - this.side];
    const was = before.players[1 - this.side];
    if (other && was && other.present !== was.present) {
      announce(other.present ? `${other.name} is back.` : `${other.name} is away.`);
    }
    if (now.claimable && !before.claimable && this.claimsNow) {
      announce(`${other.name} has been away too long: you may claim the win or a draw.`);
    }
  }

  // A claim is this player's while the opponent, on their turn, has been away long enough.
  get claimsNow() {
    const status = this.status;
    return Boolean(
      status?.claimable &&
        status.state === "IN_PROGRESS" &&
        this.side >= 0 &&
        status.toMove === this.names[1 - this.side],
    );
  }

  offerText() {
    if (!this.status) return "";
    const opponent = this.side >= 0 ? this.names[1 - this.side] : "";
    return offerWords(this.status, this.me, opponent, this.claimsNow) || this.news;
  }

  // A takeback accepted shortened the move list: the board is read again from it.
  async resync() {
    const gameId = this.gameId;
    if (this.resyncing || !gameId) return;
    this.resyncing = true;
    this.moves?.abort();
    try {
      const list = await request("GET", `${gamePath(gameId)}/moves`, { signal: this.abort.signal });
      this.board = new Board(this.board.rows, this.board.columns, this.board.connect);
      this.ended = null;
      this.news = "";
      this.apply(list.moves, 0, false);
      announce(`A move was taken back. ${this.turnText()}`);
      this.draw();
      if (this.board.over) this.finish();
      else this.follow(gameId);
    } catch (error) {
      if (!isAbort(error)) failed(error, "The game could not be read again", () => this.resync());
    } finally {
      this.resyncing = false;
    }
  }

  /** Both players agreed to a rematch: this player's token goes with them to its game. */
  goToRematch(/** @type {string} */ gameId) {
    if (this.me === null) return;
    if (this.token) store(tokenKey(gameId, this.me), this.token);
    location.hash = fragment({ game: gameId, me: this.me });
  }

  /**
   * This player's offer, answer or claim; `after` takes the service's answer.
   * @param {"offer" | "answer" | "claim"} act
   * @param {Record<string, unknown>} body
   * @param {string} what  the act in words, for a refusal
   */
  async act(act, body, what) {
    if (!this.gameId || this.me === null) return;
    clearNotice();
    try {
      const answer = await friendAct(
        { gameId: this.gameId, me: this.me, token: this.token, signal: this.abort.signal },
        act,
        body,
      );
      if (answer?.rematch) this.goToRematch(answer.rematch);
      else if (answer?.version) this.onStatus(answer);
    } catch (error) {
      if (isAbort(error)) return;
      failed(error, `${what} failed`, () => this.act(act, body, what));
    }
  }

  /**
   * Plays the move list's entries from number `start` on that this copy does not have yet.
   * @param {MoveEntry[]} entries
   * @param {number} start
   * @param {boolean} speak  whether to say them (they are news, not the game as loaded)
   */
  apply(entries, start, speak) {
    const board = this.board;
    entries.forEach((entry, offset) => {
      if (start + offset < board.entries.length || board.over) return;
      if (entry.type === "MOVE") board.play(Number(entry.column));
      else board.quit(this.names.indexOf(entry.player), entry.type === "QUIT" ? undefined : entry.type);
      const last = board.entries.at(-1);
      if (speak && last) announce(`${describeMove(this.names, last)}.`);
    });
    if (speak && !board.over) announce(this.turnText());
    if (speak && entries.length) this.news = "";
    if (this.invite && this.friendMoved && !this.inviteFolded) {
      this.inviteFolded = true;
      foldInvite();
    }
    if (this.invite && board.over) hideInvite();
  }

  turnText() {
    const next = this.board.toMove;
    if (next === this.side) return this.yourTurnText();
    return (
      `${this.names[next]}'s turn (${MARKERS[next]}, ${COLOURS[next]})` +
      (this.side >= 0 ? ": waiting for their move…" : ".")
    );
  }

  draw() {
    super.draw();
    if (!this.board.over) setStatus(this.turnText());
  }

  actions() {
    /** @type {Action[]} */
    const actions = [];
    const status = this.status;
    const offer = status?.offer;
    if (this.board.over) {
      if (this.side >= 0 && status?.state === "DONE" && !offer && !status.rematch) {
        actions.push({ label: "Offer a rematch", run: () => this.act("offer", { kind: "rematch" }, "Your offer") });
      }
      const rematch = status?.rematch;
      if (this.side < 0 && rematch) {
        actions.push({ label: "Watch the rematch", run: () => (location.hash = fragment({ watch: rematch })) });
      }
      actions.push(reviewAction(this.board, this.names));
    } else if (this.side >= 0 && this.confirmingQuit) {
      const other = this.names[1 - this.side];
      actions.push(
        { label: `Yes, quit: ${other} wins`, run: () => this.quit() },
        { label: "No, keep playing", run: () => this.askQuit(false) },
      );
    } else if (this.side >= 0) {
      if (status && !offer) {
        actions.push({ label: "Offer a draw", run: () => this.act("offer", { kind: "draw" }, "Your offer") });
        if (this.board.entries.some((entry) => entry.player === this.side)) {
          actions.push({
            label: "Ask to take back",
            run: () => this.act("offer", { kind: "takeback" }, "Your request"),
          });
        }
      }
      actions.push({ label: "Quit this game", run: () => this.askQuit(true) });
    }
    if (!this.confirmingQuit || this.board.over) actions.push(NEW_GAME);
    return actions;
  }

  // Quitting ends the game for both: one click asks, a second one quits.
  askQuit(/** @type {boolean} */ asking) {
    this.confirmingQuit = asking;
    this.draw();
    if (asking) {
      announce(`Quit this game? ${this.names[1 - this.side]} would win.`);
      const button = $("game-actions").querySelector("button:last-child");
      if (button instanceof HTMLButtonElement) button.focus();
    }
  }

  /** @returns {Action[]} the buttons that answer the opponent's offer, or make the claim allowed */
  offerActions() {
    const offer = this.status?.offer;
    if (this.side >= 0 && offer && offer.by !== this.me) {
      return [
        { label: `Accept the ${offer.kind}`, run: () => this.act("answer", { accept: true }, "Your answer") },
        { label: `Decline the ${offer.kind}`, run: () => this.act("answer", { accept: false }, "Your answer") },
      ];
    }
    if (!offer && this.claimsNow) {
      return [
        { label: "Claim the win", run: () => this.act("claim", { result: "win" }, "Your claim") },
        { label: "Claim a draw", run: () => this.act("claim", { result: "draw" }, "Your claim") },
      ];
    }
    if (!offer && this.news) {
      const dismiss = () => {
        this.news = "";
        this.match.offerLine("");
      };
      return [{ label: "Dismiss", run: dismiss }];
    }
    return [];
  }

  /** @param {number} column */
  async drop(column) {
    if (!this.myTurn || !this.board.canPlay(column) || !this.gameId || this.me === null) return;
    const [gameId, me] = [this.gameId, this.me];
    const key = newKey();
    const send = async () => {
      this.busy = true;
      clearNotice();
      try {
        const answer = await request("POST", playerPath(gameId, me), {
          body: { column },
          token: this.token,
          key,
          signal: this.abort.signal,
        });
        const number = Number(answer.move.split("/").at(-1));
        this.busy = false;
        this.apply([{ type: "MOVE", player: me, column }], number, true);
        this.rouse(); // the service is back: so is the move list
      } catch (error) {
        this.busy = false;
        if (error instanceof Unreachable) {
          notice("Your move could not be sent: the service cannot be reached.", [
            { label: "Try again", run: send },
            NEW_GAME,
          ]);
        } else if (error instanceof Refused && (error.status === 401 || error.status === 403)) {
          notice(
            `Your move was refused: this browser does not hold ${me}'s secret token. ` +
              `Open the whole invite link that whoever created the game sent you.`,
            [NEW_GAME],
          );
        } else if (!isAbort(error)) {
          notice(`Your move was refused: ${messageOf(error)}.`, [
            { label: "Reload the game", run: this.reload },
            NEW_GAME,
          ]);
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
    if (!this.gameId || this.me === null) return;
    try {
      await request("DELETE", playerPath(this.gameId, this.me), {
        token: this.token,
        key: newKey(),
        signal: this.abort.signal,
      });
    } catch (error) {
      failed(error, "You could not quit", () => this.quit());
    }
  }

  endText() {
    const { winner, quitter, drawn } = this.board;
    const reason = this.board.entries.at(-1)?.reason;
    if (drawn) {
      return this.status?.reason === "DRAW_CLAIMED"
        ? "Game over: a draw, claimed while a player was away."
        : "Game over: a draw, agreed by both players.";
    }
    if (quitter !== null && winner !== null && reason) {
      const result = winner === this.side ? "you win" : `${this.names[winner]} wins`;
      if (reason === "TIMEOUT") {
        return quitter === this.side
          ? `Your time ran out: ${result}.`
          : `${this.names[quitter]} ran out of time: ${result}.`;
      }
      return quitter === this.side
        ? `You were away too long: ${result} by claim.`
        : `${this.names[quitter]} was away too long: ${result} by claim.`;
    }
    if (quitter !== null && winner !== null) {
      if (quitter === this.side) return "You quit the game.";
      return `${this.names[quitter]} quit the game: ${winner === this.side ? "you win" : `${this.names[winner]} wins`}.`;
    }
    if (winner === null) return "Game over: the board is full, a draw.";
    return winner === this.side ? "Game over: you win!" : `Game over: ${this.names[winner]} (${MARKERS[winner]}) wins.`;
  }
}
