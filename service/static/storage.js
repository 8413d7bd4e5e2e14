// What this browser keeps between visits (localStorage): players' secret tokens, the creator's
// invites. Private mode or a full store keeps nothing: the links still work. A kept value is
// never trusted: one that cannot be read (corrupted, or written by another version) is dropped.

export const tokenKey = (/** @type {string} */ gameId, /** @type {string} */ player) => `c4.token.${gameId}.${player}`;
export const inviteKey = (/** @type {string} */ gameId) => `c4.invite.${gameId}`;

export function store(/** @type {string} */ key, /** @type {string} */ value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // private mode, or no room: the link still works
  }
}

/** The text kept under `key`, or null. */
export function stored(/** @type {string} */ key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function forget(/** @type {string} */ key) {
  try {
    localStorage.removeItem(key);
  } catch {
    // nothing kept, nothing to forget
  }
}

/**
 * The value kept as JSON under `key` if `accept` takes it; otherwise null, and a value that is
 * no JSON or not of the expected shape is removed, so that it cannot trouble a later visit.
 * @template T
 * @param {string} key
 * @param {(value: unknown) => value is T} accept
 * @returns {T | null}
 */
export function storedJSON(key, accept) {
  const text = stored(key);
  if (text === null) return null;
  try {
    const value = JSON.parse(text);
    if (accept(value)) return value;
  } catch {
    // not JSON: dropped below
  }
  forget(key);
  return null;
}
