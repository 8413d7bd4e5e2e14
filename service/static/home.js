// The home view: four forms, each of which leads to an address (a new game on the service, a
// game against the computer, a game to watch or join, the analysis board).

import { fragment } from "./address.js";
import { request } from "./api.js";
import { fillChains, LEVEL_CHOICES, SIZES } from "./choices.js";
import { failed } from "./failure.js";
import { keepInvite } from "./invite.js";
import {
  CONNECT,
  DOT_NAMES,
  MAX_ANALYSIS_SIZE,
  MAX_CLOCK_DAYS,
  MAX_CLOCK_MINUTES,
  MAX_COMPUTER_SIZE,
  MAX_INCREMENT,
  MAX_NAME_LENGTH,
  MAX_SIZE,
  MIN_COMPUTER_SIZE,
  NAME_PATTERN,
} from "./limits.js";
import { store, tokenKey } from "./storage.js";
import { $, clearNotice, control, notice, setStatus, showView } from "./ui.js";

export function showHome() {
  $("title").textContent = "Play a friend or the computer, watch a game, study a position.";
  setStatus("");
  showView("home", false);
}

/** The value of the form's control `name` (a field, a list, a group of radio buttons). */
function field(/** @type {HTMLFormElement} */ form, /** @type {string} */ name) {
  const element = form.elements.namedItem(name);
  if (element instanceof RadioNodeList || element instanceof HTMLInputElement || element instanceof HTMLSelectElement) {
    return element.value;
  }
  throw new TypeError(`the form #${form.id} has no field ${name}`);
}

const sizeOf = (/** @type {HTMLFormElement} */ form) => field(form, "size").split("x").map(Number);

/**
 * Runs `onSubmit(form)` in place of the form `id`'s own submission.
 * @param {string} id
 * @param {(form: HTMLFormElement) => void} onSubmit
 */
function onSubmit(id, onSubmit) {
  const form = $(id, HTMLFormElement);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    onSubmit(form);
  });
}

/** @type {Record<string, [number, number]>} the sides each form's board may have, by form id */
const SIDES = {
  "friend-form": [1, MAX_SIZE],
  "computer-form": [MIN_COMPUTER_SIZE, MAX_COMPUTER_SIZE],
  "analysis-form": [1, MAX_ANALYSIS_SIZE],
};

function fillChoices() {
  for (const [id, [least, most]] of Object.entries(SIDES)) {
    const select = control(id, "size", HTMLSelectElement);
    for (const [rows, columns, text] of SIZES) {
      const fits = [rows, columns].every((side) => side >= least && side <= most);
      if (fits) select.append(new Option(text, `${rows}x${columns}`));
    }
  }
  fillChains(control("friend-form", "connect", HTMLSelectElement));
  const levels = $("levels", HTMLSelectElement);
  for (const [level, text] of LEVEL_CHOICES) levels.append(new Option(text, level));
  levels.value = "3";
}

const NAME = new RegExp(NAME_PATTERN, "u");

/** Why `name` cannot be a player's name (the service's rule, service/names.py), or "". */
function nameProblem(/** @type {string} */ name) {
  if (DOT_NAMES.includes(name)) return `A name cannot be “${name}”.`;
  return NAME.test(name) ? "" : "A name holds no “/” and no control character.";
}

/** The name fields take the service's length and characters (set here: limits.js holds them). */
function limitNames() {
  for (const name of ["me", "friend"]) {
    const input = control("friend-form", name, HTMLInputElement);
    input.maxLength = MAX_NAME_LENGTH;
    const check = () => input.setCustomValidity(input.value.trim() ? nameProblem(input.value.trim()) : "");
    input.addEventListener("input", check);
    check();
  }
}

/** The clock's fields: the service's bounds, and only those of the kind chosen shown. */
function limitClock() {
  const form = $("friend-form", HTMLFormElement);
  /** @type {[string, number, number, number | "any"][]} each field's least, most and step */
  const bounds = [
    ["minutes", 0.1, MAX_CLOCK_MINUTES, "any"],
    ["increment", 0, MAX_INCREMENT, "any"],
    ["days", 1, MAX_CLOCK_DAYS, 1],
  ];
  for (const [name, least, most, step] of bounds) {
    const input = control("friend-form", name, HTMLInputElement);
    [input.min, input.max, input.step] = [least, most, step].map(String);
  }
  const kind = control("friend-form", "clock", HTMLSelectElement);
  const show = () => {
    for (const label of form.querySelectorAll("[data-clock]")) {
      if (!(label instanceof HTMLElement)) continue;
      label.hidden = label.dataset.clock !== kind.value;
      const input = label.querySelector("input");
      if (input) input.disabled = label.hidden; // a hidden field is neither checked nor sent
    }
  };
  kind.addEventListener("change", show);
  show();
}

/** The creation body's clock: minutes and an increment, days a move, or none. */
function clockOf(/** @type {HTMLFormElement} */ form) {
  const kind = field(form, "clock");
  if (kind === "minutes")
    return { minutes: Number(field(form, "minutes")), increment: Number(field(form, "increment")) };
  if (kind === "days") return { days: Number(field(form, "days")) };
  return undefined;
}

/** Creates a game between two people on the service; keeps the creator's token and invite. */
function createGame(/** @type {HTMLFormElement} */ form) {
  const me = field(form, "me").trim();
  const friend = field(form, "friend").trim();
  if (!me || !friend || me === friend) {
    notice("The two players need two different names.", []);
    return;
  }
  const [rows, columns] = sizeOf(form);
  const connect = Number(field(form, "connect"));
  const players = field(form, "first") === "me" ? [me, friend] : [friend, me];
  const create = async () => {
    clearNotice();
    try {
      const clock = clockOf(form);
      const chain = connect === CONNECT ? {} : { connect };
      const body = { players, rows, columns, ...chain, tokens: true, ...(clock ? { clock } : {}) };
      const created = await request("POST", "/drop_token", { body });
      const gameId = created.gameId;
      store(tokenKey(gameId, me), created.tokens[me]);
      keepInvite({ gameId, friend, token: created.tokens[friend], rows, columns });
      location.hash = fragment({ game: gameId, me });
    } catch (error) {
      failed(error, "The game could not be created", create);
    }
  };
  create();
}

// A game id, a page link, or the join command a terminal (or this page) printed.
function openGame(/** @type {HTMLFormElement} */ form) {
  const text = field(form, "game").trim();
  const link = text.match(/#((?:game|watch)=.*)$/);
  const joined = text.match(/\/drop_token\/([0-9A-Za-z]+)\/([^\s/'"]+)/);
  const token = text.match(/(?:CONNECT_FOUR_TOKEN=|--token\s+)(\S+)/);
  if (link) location.hash = link[1];
  else if (joined && token) {
    location.hash = fragment({ game: joined[1], me: decodeURIComponent(joined[2]), t: token[1] });
  } else if (joined) location.hash = fragment({ watch: joined[1] });
  else location.hash = fragment({ watch: text });
}

/** Fills the forms' choices and listens to them. */
export function listenToHome() {
  fillChoices();
  limitNames();
  limitClock();
  onSubmit("friend-form", createGame);
  onSubmit("computer-form", (form) => {
    const [r, c] = sizeOf(form);
    location.hash = fragment({ computer: field(form, "level"), r, c, you: field(form, "you"), moves: "" });
  });
  onSubmit("watch-form", openGame);
  onSubmit("analysis-form", (form) => {
    const [r, c] = sizeOf(form);
    location.hash = fragment({ analysis: "", r, c, moves: field(form, "moves").trim() });
  });
}
