// The lobby's player in this browser: a name and a secret key (no password), made on first use
// and kept in localStorage; "Your key" shows it to copy, and takes one pasted from another device.

import { request } from "./api.js";
import { forget, store, storedJSON } from "./storage.js";

const PLAYER_KEY = "c4.player";

/** @typedef {{name: string, key: string}} Player */

/** @type {(value: unknown) => value is Player} */
const isPlayer = (value) =>
  typeof value === "object" &&
  value !== null &&
  typeof (/** @type {Player} */ (value).name) === "string" &&
  typeof (/** @type {Player} */ (value).key) === "string";

/** The player kept in this browser, or null before the first use. */
export function keptPlayer() {
  return storedJSON(PLAYER_KEY, isPlayer);
}

const keep = (/** @type {Player} */ player) => store(PLAYER_KEY, JSON.stringify(player));

/** Drops the kept player: the service no longer knows its key (its players were reset). */
export const forgetPlayer = () => forget(PLAYER_KEY);

/** Makes the player `name` on the service and keeps its key; the new player. */
export async function register(/** @type {string} */ name) {
  const made = await request("POST", "/players", { body: { name, bot: false } });
  const player = { name: made.name, key: made.key };
  keep(player);
  return player;
}

/** Takes a key from another device: the service says whose it is (or refuses it); then kept. */
export async function useKey(/** @type {string} */ key) {
  const me = await request("GET", "/players/me", { token: key });
  const player = { name: me.name, key };
  keep(player);
  return player;
}
