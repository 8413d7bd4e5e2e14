// A live game's move list, followed as it grows: long polls, a slow pace where the service
// cannot wait, and retries that a person (or the network coming back) can cut short.

import { gamePath, isAbort, Refused, request } from "./api.js";

export const WAIT_SECONDS = 25; // one long-poll's wait for the next move
export const POLL_MS = 2000; // the pace of asking where the service cannot wait
export const RETRY_MOST_MS = 5000; // the longest pause between two tries of a failed request

/** @typedef {{type: string, player: string, column?: number | null}} MoveEntry  one entry of a move list */

/**
 * Calls onMoves(entries, start) with each new stretch of the move list from `start` on, until
 * onMoves returns true (the game is over) or the signal aborts. The service holds each request
 * until a move exists (`wait`); a service without that answers 400/422, or at once, and is then
 * asked every POLL_MS. onTrouble(error | null) reports a failure being retried, and recovery:
 * after a failure one quick request (no wait) tells at once that the service is back. Retries
 * wait at most RETRY_MOST_MS, and no longer once `wake` fires "wake" (the network came back,
 * the tab got the focus, a person asked): a service back is seen within seconds.
 * @param {string} gameId
 * @param {() => number} nextIndex
 * @param {(entries: MoveEntry[], start: number) => boolean} onMoves
 * @param {(failure: unknown) => void} onTrouble
 * @param {AbortSignal} signal
 * @param {EventTarget | null} [wake]
 */
export async function follow(gameId, nextIndex, onMoves, onTrouble, signal, wake = null) {
  let waits = true;
  let failures = 0;
  const recovered = () => {
    if (failures) {
      failures = 0;
      onTrouble(null);
    }
  };
  while (!signal.aborted) {
    const start = nextIndex();
    const waiting = waits && !failures;
    const began = performance.now();
    let pause = 0;
    try {
      const query = `?start=${start}` + (waiting ? `&wait=${WAIT_SECONDS}` : "");
      const answer = await request("GET", `${gamePath(gameId)}/moves${query}`, { signal });
      recovered();
      if (answer.moves.length && onMoves(answer.moves, start)) return;
      if (!answer.moves.length && !waits) pause = POLL_MS;
    } catch (error) {
      if (isAbort(error)) return;
      if (error instanceof Refused && (error.status === 400 || error.status === 422) && waiting) {
        waits = false; // the service has no long-poll yet: ask at a slow pace
        continue;
      }
      if (error instanceof Refused && error.code === "move_not_found") {
        recovered();
        // No move numbered `start` yet: ask again at once after a wait that timed out, or
        // after the quick request that found the service back; at a slow pace where the
        // service does not wait (it answered a waiting request at once, or refuses `wait`).
        if (!waits || (waiting && performance.now() - began < WAIT_SECONDS * 500)) pause = POLL_MS;
      } else {
        failures += 1;
        onTrouble(error);
        if (error instanceof Refused && error.code === "game_not_found") return;
        pause = Math.min(POLL_MS * 2 ** (failures - 1), RETRY_MOST_MS);
      }
    }
    if (pause) await sleep(pause, signal, failures ? wake : null);
  }
}

/**
 * Waits `ms`, or less if the signal aborts or `wake` fires "wake"; either way it leaves no
 * listener behind (a long game pauses thousands of times on one signal).
 * @param {number} ms
 * @param {AbortSignal | null} [signal]
 * @param {EventTarget | null} [wake]
 * @returns {Promise<void>}
 */
export function sleep(ms, signal = null, wake = null) {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      wake?.removeEventListener("wake", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    wake?.addEventListener("wake", done);
  });
}
