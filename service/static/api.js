// Requests to this service. Every failure becomes one of two errors with a sentence for people.

export class Unreachable extends Error {} // no answer at all: network down, service stopped

// An answer, but an error: {error, detail}.
export class Refused extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} detail
   */
  constructor(status, code, detail) {
    super(detail || `the service answered ${status}`);
    this.status = status;
    this.code = code;
  }
}

/** Whether `error` is an aborted request or pause: the view that asked has gone, nothing to say. */
export function isAbort(/** @type {unknown} */ error) {
  return (error instanceof Error || error instanceof DOMException) && error.name === "AbortError";
}

/** The sentence an error carries. */
export function messageOf(/** @type {unknown} */ error) {
  return error instanceof Error ? error.message : String(error);
}

/**
 * @typedef {object} RequestOptions
 * @property {unknown} [body] sent as JSON
 * @property {string | null} [token] a player's secret token
 * @property {string} [key] the Idempotency-Key of a request that may be sent again
 * @property {AbortSignal} [signal]
 */

/**
 * Sends one request; the answer's JSON, or Unreachable / Refused.
 * @param {string} method
 * @param {string} path
 * @param {RequestOptions} [options]
 * @returns {Promise<any>}
 */
export async function request(method, path, { body, token, key, signal } = {}) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  if (key) headers["Idempotency-Key"] = key;
  let response;
  let text;
  try {
    response = await fetch(path, {
      method,
      headers,
      signal,
      cache: "no-store",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    text = await response.text(); // cut short: no answer (never null)
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new Unreachable("the service cannot be reached");
  }
  let answer = null;
  try {
    answer = text ? JSON.parse(text) : null;
  } catch {} // not JSON: no answer
  if (!response.ok) {
    throw new Refused(
      response.status,
      answer?.error ?? `http_${response.status}`,
      typeof answer?.detail === "string" ? answer.detail : "",
    );
  }
  return answer;
}

// A key unique to one request, to retry it safely (crypto.randomUUID needs https off 127.0.0.1).
export function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export const gamePath = (/** @type {string} */ gameId) => `/drop_token/${encodeURIComponent(gameId)}`;
export const playerPath = (/** @type {string} */ gameId, /** @type {string} */ player) =>
  `${gamePath(gameId)}/${encodeURIComponent(player)}`;
