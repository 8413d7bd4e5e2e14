// A game between friends' status (GET /friend_game/{gameId}): presence, clocks, the offer
// pending, a claim allowed, the rematch and the match score, followed by long poll, and said
// in words. The playing side's own wait is what keeps this player present for the opponent.

import { isAbort, newKey, Refused, request } from "./api.js";
import { POLL_MS, RETRY_MOST_MS, sleep, WAIT_SECONDS } from "./follow.js";

/**
 * @typedef {{name: string, present: boolean, awayFor?: number, clock?: number}} FriendPlayer
 * @typedef {{
 *   state: "IN_PROGRESS" | "DONE", winner?: string | null, reason?: string, moves: number,
 *   toMove?: string, players: FriendPlayer[], clock?: {minutes?: number, increment?: number, days?: number},
 *   offer?: {kind: string, by: string}, previous?: string, rematch?: string,
 *   wins: Record<string, number>, draws: number, claimable: boolean, version: string
 * }} FriendStatus
 */

const friendPath = (/** @type {string} */ gameId) => `/friend_game/${encodeURIComponent(gameId)}`;

/**
 * A player's act in the game: an offer, an answer or a claim (a POST with their token).
 * @param {{gameId: string, me: string, token: string | null, signal: AbortSignal}} game
 * @param {"offer" | "answer" | "claim"} act
 * @param {Record<string, unknown>} body
 */
export function friendAct({ gameId, me, token, signal }, act, body) {
  const path = `${friendPath(gameId)}/${encodeURIComponent(me)}/${act}`;
  return request("POST", path, { body, token, key: newKey(), signal });
}

/**
 * Calls onStatus(status) with the game's status at once, then with each change (a move, an
 * offer, a player coming or going, a flag fall), until the signal aborts or onStatus returns
 * true. `me` (with `token`) is the playing side: their waits count as their presence. A service
 * without games between friends (404 for the path) is left alone: nothing to show.
 * @param {{gameId: string, me: string | null, token: string | null}} game
 * @param {(status: FriendStatus) => boolean} onStatus
 * @param {AbortSignal} signal
 * @param {EventTarget | null} [wake]
 */
export async function followStatus({ gameId, me, token }, onStatus, signal, wake = null) {
  /** @type {string | null} */
  let since = null;
  let failures = 0;
  while (!signal.aborted) {
    const query = new URLSearchParams();
    if (me !== null) query.set("player", me);
    if (since !== null && !failures) {
      query.set("since", since);
      query.set("wait", String(WAIT_SECONDS));
    }
    const began = performance.now();
    let pause = 0;
    try {
      /** @type {FriendStatus} */
      const status = await request("GET", `${friendPath(gameId)}?${query}`, { token, signal });
      failures = 0;
      // An answer at once that says nothing new: a service that does not wait; ask at a slow pace.
      const quick = status.version === since && performance.now() - began < WAIT_SECONDS * 500;
      since = status.version;
      if (onStatus(status)) return;
      if (quick) pause = POLL_MS;
    } catch (error) {
      if (isAbort(error)) return;
      if (error instanceof Refused && error.status === 404) return; // no such game, or no such API
      if (error instanceof Refused && (error.status === 401 || error.status === 403)) return;
      failures += 1;
      pause = Math.min(POLL_MS * 2 ** (failures - 1), RETRY_MOST_MS);
    }
    if (pause) await sleep(pause, signal, wake);
  }
}

/** @type {Record<string, string>} an offer of each kind, as its offerer's opponent reads it */
const OFFERED = {
  draw: "offers a draw",
  takeback: "asks to take back their last move",
  rematch: "offers a rematch, colours swapped",
};
/** @type {Record<string, string>} the same offer, as its offerer reads it */
const OFFERING = {
  draw: "You offered a draw",
  takeback: "You asked to take back your last move",
  rematch: "You offered a rematch, colours swapped",
};

/**
 * The offer pending in words, as player `me` (null: a watcher) reads it, or the claim that
 * `claims` allows them against `opponent`; "" for neither.
 * @param {FriendStatus} status
 * @param {string | null} me
 * @param {string} opponent
 * @param {boolean} claims
 */
export function offerWords(status, me, opponent, claims) {
  const offer = status.offer;
  if (offer && offer.by === me) return `${OFFERING[offer.kind]}: waiting for ${opponent}'s answer.`;
  if (offer) return `${offer.by} ${OFFERED[offer.kind]}.`;
  return claims ? `${opponent} has been away too long: you may claim the win or a draw.` : "";
}

/**
 * The match's score: the games before this one (the status's), and this one once it is over;
 * "" for a first game still being played.
 * @param {FriendStatus | null} status
 * @param {string[]} names
 */
export function matchScore(status, names) {
  if (!status || (!status.previous && status.state !== "DONE")) return "";
  const wins = { ...status.wins };
  let draws = status.draws;
  if (status.state === "DONE") {
    if (status.winner) wins[status.winner] = (wins[status.winner] ?? 0) + 1;
    else draws += 1;
  }
  const score = names.map((name) => `${name} ${wins[name] ?? 0}`).join(", ");
  return `Match: ${score}` + (draws ? `, ${draws} ${draws === 1 ? "draw" : "draws"}.` : ".");
}
