// The lobby view (#lobby): open challenges, "Play someone now", my games, live games and the
// leaderboard, each pushed by the service: the lobby's event stream (GET /lobby/events, the long
// poll GET /lobby if the stream fails) and the player's own long poll (GET /lobby/me, `since`).
// Names are other people's input: they only ever reach the page as text (textContent).

import { fragment } from "./address.js";
import { isAbort, Refused, request } from "./api.js";
import { CLASSIC_BOARD, fillChains, SIZES } from "./choices.js";
import { failed } from "./failure.js";
import { sleep } from "./follow.js";
import { forgetPlayer, keptPlayer, register, useKey } from "./identity.js";
import { store, tokenKey } from "./storage.js";
import { $, announce, button, clearNotice, control, notice, setStatus, showView } from "./ui.js";

const WAIT_SECONDS = 25; // one long poll's wait for the lobby's next change
const RETRY_MOST_MS = 15000;
const STREAM_FAILURES = 3; // the stream's failed connections in a row before the long poll
const FIRST_EVENT_MS = 10000; // a stream's first event comes at once, unless a proxy holds it

/** @type {[string, string][]} a clock's value in the forms (M+I, Nd or none), and its words */
const CLOCKS = [
  ["", "No clock"],
  ["1+0", "1 + 0, bullet"],
  ["3+2", "3 + 2, blitz"],
  ["5+3", "5 + 3, blitz"],
  ["10+5", "10 + 5, rapid"],
  ["1d", "1 day a move"],
];

/** The service's clock of a form's choice: null, {minutes, increment} or {days}. */
function clockOf(/** @type {string} */ value) {
  if (!value) return null;
  if (value.endsWith("d")) return { days: Number(value.slice(0, -1)) };
  const [minutes, increment] = value.split("+").map(Number);
  return { minutes, increment };
}

/** The form's game: board, chain, clock, and what it asks of the service. */
function gameOf(/** @type {HTMLFormElement} */ form) {
  const data = new FormData(form);
  const [rows, columns] = String(data.get("size")).split("x").map(Number);
  const connect = Number(data.get("connect"));
  const clock = String(data.get("clock") ?? "");
  return {
    body: { rows, columns, connect, clock: clockOf(clock), rated: data.get("rated") !== null },
    pool: `${rows}x${columns}c${connect} ${clock || "untimed"}`,
    colour: String(data.get("colour") ?? "random"),
  };
}

/** @type {LobbyView | null} the lobby shown, which the forms' handlers act for */
let current = null;

export class LobbyView {
  constructor() {
    this.abort = new AbortController();
    this.player = keptPlayer();
    /** @type {Set<string> | null} the games already known when the lobby opened */
    this.known = null;
    /** @type {Set<string> | null} the open challenges seen (announced, or there at first) */
    this.seen = null;
    this.pool = "";
  }

  start() {
    current = this;
    showView("lobby", false);
    $("title").textContent = "Play someone now, accept a challenge, watch a game.";
    setStatus("");
    this.pool = gameOf($("pair-form", HTMLFormElement)).pool;
    this.showPlayer();
    this.followLobby();
    if (this.player) this.followMe();
    else this.leaders();
  }

  stop() {
    this.abort.abort();
    if (current === this) current = null;
  }

  showPlayer() {
    const player = this.player;
    $("join-form").hidden = Boolean(player);
    $("key-show").hidden = !player;
    $("key-field", HTMLInputElement).value = player?.key ?? "";
    $("lobby-me").textContent = player ? `You play as ${player.name}.` : "Choose your name to play.";
  }

  /** The kept player, or a new one named in the name field; null if it has no name yet. */
  async ensurePlayer() {
    if (this.player) return this.player;
    const field = $("join-name-field", HTMLInputElement);
    const name = field.value.trim();
    if (!name) {
      notice("Choose your name first: this browser keeps a key for it, no password.", []);
      field.focus();
      return null;
    }
    this.player = await register(name);
    this.showPlayer();
    this.followMe();
    return this.player;
  }

  /**
   * Asks `path` (a feed) again and again, each answer as soon as it changes; retries pause.
   * @param {string} path
   * @param {(answer: any) => void} show
   */
  async feed(path, show) {
    const signal = this.abort.signal;
    let version = null;
    let failures = 0;
    while (!signal.aborted) {
      const query = version === null ? "" : `?since=${version}&wait=${WAIT_SECONDS}`;
      try {
        const answer = await request("GET", path + query, { token: this.player?.key, signal });
        version = answer.version;
        failures = 0;
        show(answer);
      } catch (error) {
        if (isAbort(error)) return;
        if (error instanceof Refused && error.status === 401) {
          if (this.player) this.forget();
          if (path === "/lobby/me") return; // a player's own feed, and there is none now
          continue; // the lobby's feed goes on without a key
        }
        failures += 1;
        await sleep(Math.min(1000 * 2 ** failures, RETRY_MOST_MS), signal);
      }
    }
  }

  /**
   * Follows the lobby through its event stream; the browser reconnects by itself (sending the
   * last event's id). Through the long poll instead when the stream fails again and again, or
   * its first event does not come (a proxy that buffers what it passes on).
   */
  followLobby() {
    const show = (/** @type {any} */ answer) => this.showLobby(answer);
    if (typeof EventSource === "undefined") {
      this.feed("/lobby", show);
      return;
    }
    const signal = this.abort.signal;
    const source = new EventSource("/lobby/events");
    let failures = 0;
    let heard = false;
    const fallBack = () => {
      source.close();
      clearTimeout(silence);
      if (!signal.aborted) this.feed("/lobby", show);
    };
    const silence = setTimeout(() => heard || fallBack(), FIRST_EVENT_MS);
    source.addEventListener("open", () => {
      failures = 0; // connected again (a server restarted): only failures in a row count
    });
    source.addEventListener("message", (event) => {
      heard = true;
      show(JSON.parse(event.data));
    });
    source.addEventListener("error", () => {
      failures += 1;
      if (source.readyState === EventSource.CLOSED || failures >= STREAM_FAILURES) fallBack();
    });
    signal.addEventListener("abort", () => {
      source.close();
      clearTimeout(silence);
    });
  }

  /** The kept key is not this service's (its players were reset): the player chooses a name again. */
  forget() {
    forgetPlayer();
    this.player = null;
    this.showPlayer();
    notice("This service does not know the key this browser kept: choose your name again.", []);
  }

  followMe() {
    this.feed("/lobby/me", (answer) => this.showMine(answer));
  }

  /** @param {any} answer  GET /lobby: seeks, live games, waiting, online */
  showLobby(answer) {
    const mine = this.player?.name;
    this.announceNewSeeks(answer.seeks, mine);
    $("seeks").replaceChildren(
      ...answer.seeks.map((/** @type {any} */ seek) => {
        const own = seek.by === mine;
        const item = entry(`${describeSeek(seek)}`, who(seek.by, seek.rating, seek.bot));
        item.append(
          button(
            own ? "Cancel" : "Accept",
            () => (own ? this.cancel(seek.id) : this.accept(seek.id)),
            `${own ? "Cancel your" : "Accept"} challenge ${describeSeek(seek)}`,
          ),
        );
        return item;
      }),
    );
    $("seeks-empty").hidden = answer.seeks.length > 0;
    $("live-games").replaceChildren(
      ...answer.live.map((/** @type {any} */ game) => {
        const link = document.createElement("a");
        link.href = fragment({ watch: game.gameId });
        link.append(who(game.players[0], game.ratings[0]), " – ", who(game.players[1], game.ratings[1]));
        const item = entry(` · ${game.pool}, ${game.rated ? "rated" : "casual"}, ${game.moves} moves`, link);
        return item;
      }),
    );
    $("live-empty").hidden = answer.live.length > 0;
    $("online").textContent = `${answer.online} online`;
    this.leaders();
  }

  /** Says others' new challenges in the live region, once each (those there at first are not news). */
  announceNewSeeks(/** @type {any[]} */ seeks, /** @type {string | undefined} */ mine) {
    const seen = this.seen;
    this.seen = new Set(seeks.map((seek) => seek.id)); // a seek gone never comes back: forget it
    if (seen === null) return;
    const news = seeks.filter((seek) => !seen.has(seek.id) && seek.by !== mine);
    if (news.length === 0) return;
    const words = news.map(
      (seek) =>
        `${seek.by} (${seek.bot ? "bot, " : ""}${Math.round(seek.rating)})${describeSeek(seek).replace(" · ", ": ")}`,
    );
    announce(`New challenge${news.length === 1 ? "" : "s"}: ${words.join("; ")}.`);
  }

  /** @param {any} answer  GET /lobby/me: my games, my seeks, my pairing */
  showMine(answer) {
    const name = answer.name;
    const games = /** @type {any[]} */ (answer.games);
    if (this.known === null) this.known = new Set(games.map((game) => game.gameId));
    const started = games.find((game) => game.state === "IN_PROGRESS" && game.token && !this.known?.has(game.gameId));
    if (started) {
      this.play(started);
      return;
    }
    $("my-games").replaceChildren(
      ...games.map((game) => {
        const link = document.createElement("a");
        const running = game.state === "IN_PROGRESS";
        if (running && game.token) store(tokenKey(game.gameId, name), game.token);
        link.href = running ? fragment({ game: game.gameId, me: name }) : fragment({ watch: game.gameId });
        link.textContent = `${game.players[0]} – ${game.players[1]}`;
        return entry(` · ${game.pool}, ${running ? "playing" : resultWords(game, name)}`, link);
      }),
    );
    $("my-empty").hidden = games.length > 0;
    const waiting = answer.pairing;
    $("pair-line").textContent = waiting ? `Looking for an opponent (${waiting})…` : "";
    $("stop-pairing").hidden = !waiting;
    this.rating();
  }

  async rating() {
    if (!this.player) return;
    try {
      const me = await request("GET", "/players/me", { token: this.player.key, signal: this.abort.signal });
      const rating = me.ratings?.[this.pool];
      $("lobby-me").textContent =
        `You play as ${me.name}` + (rating ? `, rated ${Math.round(rating.rating)} in ${this.pool}.` : ".");
    } catch {
      // the line keeps the name alone; the feed retries
    }
  }

  async leaders() {
    try {
      const pool = encodeURIComponent(this.pool);
      const answer = await request("GET", `/lobby/leaderboard?pool=${pool}&limit=10`, { signal: this.abort.signal });
      $("leaders-pool").textContent = this.pool;
      $("leaders").replaceChildren(
        ...answer.players.map((/** @type {any} */ leader) =>
          entry(` · ${leader.games} game${leader.games === 1 ? "" : "s"}`, who(leader.name, leader.rating, leader.bot)),
        ),
      );
      $("leaders-empty").hidden = answer.players.length > 0;
    } catch {
      // the next change of the lobby asks again
    }
  }

  /** Goes to the game of `ticket` as its player, its token kept for the game's view. */
  play(/** @type {any} */ ticket) {
    store(tokenKey(ticket.gameId, ticket.you), ticket.token);
    announce(`Your game against ${ticket.players.find((/** @type {string} */ name) => name !== ticket.you)} starts.`);
    location.hash = fragment({ game: ticket.gameId, me: ticket.you });
  }

  /**
   * Runs `act` as the player (made first if need be), saying `what` failed if it does.
   * @param {string} what
   * @param {(key: string) => Promise<void>} act
   */
  async act(what, act) {
    clearNotice();
    try {
      const player = await this.ensurePlayer();
      if (player) await act(player.key);
    } catch (error) {
      if (error instanceof Refused && error.code === "name_taken") {
        notice("That name is taken on this service: choose another.", []);
      } else failed(error, what, () => this.act(what, act));
    }
  }

  accept(/** @type {string} */ id) {
    this.act("The challenge could not be accepted", async (key) => {
      try {
        this.play(await request("POST", `/lobby/seeks/${encodeURIComponent(id)}/accept`, { body: {}, token: key }));
      } catch (error) {
        if (!(error instanceof Refused && error.code === "seek_gone")) throw error;
        notice("Someone else accepted that challenge first.", []);
      }
    });
  }

  cancel(/** @type {string} */ id) {
    this.act("The challenge could not be taken back", async (key) => {
      await request("DELETE", `/lobby/seeks/${encodeURIComponent(id)}`, { token: key });
    });
  }

  seek(/** @type {HTMLFormElement} */ form) {
    const game = gameOf(form);
    this.act("The challenge could not be opened", async (key) => {
      await request("POST", "/lobby/seeks", { body: { ...game.body, colour: game.colour }, token: key });
      announce("Your challenge is open.");
    });
  }

  pair(/** @type {HTMLFormElement} */ form) {
    const game = gameOf(form);
    this.act("Pairing failed", async (key) => {
      const answer = await request("POST", "/lobby/pair", { body: game.body, token: key });
      if (answer?.gameId) this.play(answer);
      else {
        $("pair-line").textContent = `Looking for an opponent (${game.pool})…`;
        $("stop-pairing").hidden = false;
        announce("Looking for an opponent.");
      }
    });
  }

  stopPairing() {
    this.act("Pairing could not be stopped", async (key) => {
      await request("DELETE", "/lobby/pair", { token: key });
      $("pair-line").textContent = "";
      $("stop-pairing").hidden = true;
    });
  }

  /** Plays as the player of a key pasted from another device, once the service knows it. */
  async usePastedKey(/** @type {string} */ key) {
    clearNotice();
    try {
      this.player = await useKey(key);
    } catch (error) {
      failed(error, "That key could not be used", () => this.usePastedKey(key));
      return;
    }
    this.stop();
    location.reload();
  }
}

/** A seek in words: the board, the chain, the clock, rated or casual, the colour asked for. */
function describeSeek(/** @type {any} */ seek) {
  const control = seek.pool.split(" ")[1] ?? "untimed";
  return ` · ${seek.rows} × ${seek.columns}, ${seek.connect} in a row, ${control}, ${seek.rated ? "rated" : "casual"}, colour ${seek.colour}`;
}

/** "won", "lost" or "drawn" for `name`, and how. */
function resultWords(/** @type {any} */ game, /** @type {string} */ name) {
  const result = game.winner === null ? "drawn" : game.winner === name ? "won" : "lost";
  return game.reason ? `${result} (${String(game.reason).toLowerCase()})` : result;
}

/** A name and its rating (and "bot"), as text. */
function who(/** @type {string} */ name, /** @type {number} */ rating, /** @type {boolean} */ bot = false) {
  const span = document.createElement("span");
  const strong = document.createElement("strong");
  strong.textContent = name;
  const mark = document.createElement("span");
  mark.className = "rating";
  mark.textContent = `${Math.round(rating)}${bot ? " · bot" : ""}`;
  span.append(strong, " ", mark);
  return span;
}

function entry(/** @type {string} */ text, /** @type {HTMLElement} */ first) {
  const item = document.createElement("li");
  item.append(first, text);
  return item;
}

/** Fills the lobby's choices and listens to its forms (once: they act for the lobby shown). */
export function listenToLobby() {
  for (const form of ["pair-form", "seek-form"]) {
    const select = control(form, "size", HTMLSelectElement);
    const clocks = control(form, "clock", HTMLSelectElement);
    const chains = control(form, "connect", HTMLSelectElement);
    fillChains(chains);
    for (const [rows, columns, text] of SIZES) select.append(new Option(text, `${rows}x${columns}`));
    select.value = CLASSIC_BOARD.join("x");
    for (const [value, text] of CLOCKS) clocks.append(new Option(text, value));
  }
  /** @type {[string, (view: LobbyView, form: HTMLFormElement) => void][]} */
  const forms = [
    ["pair-form", (view, form) => view.pair(form)],
    ["seek-form", (view, form) => view.seek(form)],
    ["join-form", (view) => view.act("You could not enter the lobby", async () => {})],
    ["key-form", (view, form) => view.usePastedKey(String(new FormData(form).get("key")).trim())],
  ];
  for (const [id, run] of forms) {
    const form = $(id, HTMLFormElement);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (current) run(current, form);
    });
  }
  $("pair-form").addEventListener("change", () => {
    if (!current) return;
    current.pool = gameOf($("pair-form", HTMLFormElement)).pool;
    current.leaders();
    current.rating();
  });
  $("stop-pairing").addEventListener("click", () => current?.stopPairing());
  $("copy-key").addEventListener("click", async () => {
    const field = $("key-field", HTMLInputElement);
    field.select();
    try {
      await navigator.clipboard.writeText(field.value);
      announce("Key copied.");
    } catch {
      announce("Press Control C (or Command C) to copy the selected key.");
    }
  });
}
