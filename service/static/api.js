// Requests to this service. Every failure becomes one of two errors with a sentence for people.

export class Unreachable extends Error {}       // no answer at all: network down, service stopped

export class Refused extends Error {            // an answer, but an error: {error, detail}
  constructor(status, code, detail) {
    super(detail || `the service answered ${status}`);
    this.status = status;
    this.code = code;
  }
}

export async function request(method, path, { body, token, key, signal } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  if (key) headers["Idempotency-Key"] = key;
  let response;
  try {
    response = await fetch(path, {
      method, headers, signal, cache: "no-store",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new Unreachable("the service cannot be reached");
  }
  const text = await response.text().catch(() => "");
  let answer = null;
  try { answer = text ? JSON.parse(text) : null; } catch { answer = null; }
  if (!response.ok) {
    throw new Refused(response.status, answer?.error ?? `http_${response.status}`,
      typeof answer?.detail === "string" ? answer.detail : "");
  }
  return answer;
}

// A key unique to one request, to retry it safely (crypto.randomUUID needs https off 127.0.0.1).
export function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export const gamePath = (gameId) => `/drop_token/${encodeURIComponent(gameId)}`;
export const playerPath = (gameId, player) => `${gamePath(gameId)}/${encodeURIComponent(player)}`;

export const WAIT_SECONDS = 25;   // one long-poll's wait for the next move
export const POLL_MS = 2000;      // the pace of asking where the service cannot wait
export const RETRY_MOST_MS = 5000;  // the longest pause between two tries of a failed request

// Calls onMoves(entries, start) with each new stretch of the move list from `start` on, until
// onMoves returns true (the game is over) or the signal aborts. The service holds each request
// until a move exists (`wait`); a service without that answers 400/422, or at once, and is then
// asked every POLL_MS. onTrouble(error | null) reports a failure being retried, and recovery:
// after a failure one quick request (no wait) tells at once that the service is back. Retries
// wait at most RETRY_MOST_MS, and no longer once `wake` fires "wake" (the network came back,
// the tab got the focus, a person asked): a service back is seen within seconds.
export async function follow(gameId, nextIndex, onMoves, onTrouble, signal, wake = null) {
  let waits = true, failures = 0;
  const recovered = () => { if (failures) { failures = 0; onTrouble(null); } };
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
      if (error.name === "AbortError") return;
      if (error instanceof Refused && (error.status === 400 || error.status === 422) && waiting) {
        waits = false;            // the service has no long-poll yet: ask at a slow pace
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

// Waits `ms`, or less if the signal aborts or `wake` (an EventTarget) fires "wake".
export function sleep(ms, signal, wake = null) {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      wake?.removeEventListener("wake", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    wake?.addEventListener("wake", done);
  });
}
