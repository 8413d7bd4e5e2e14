// A request that failed, said in a sentence, with a way on.

import { NEW_GAME } from "./address.js";
import { isAbort, messageOf, Refused, Unreachable } from "./api.js";
import { notice } from "./ui.js";

/**
 * Says that `what` failed and why, with "Try again" (`retry`) and "New game"; an aborted
 * request says nothing (its view has gone).
 * @param {unknown} error
 * @param {string} what
 * @param {() => void} retry
 */
export function failed(error, what, retry) {
  if (isAbort(error)) return;
  const ways = [{ label: "Try again", run: retry }, NEW_GAME];
  if (error instanceof Unreachable) {
    notice(`${what}: the service cannot be reached. Check your connection, or that the service is running.`, ways);
  } else if (error instanceof Refused && error.status === 503) {
    notice(`${what}: the service is busy (${error.message}).`, ways);
  } else {
    notice(`${what}: ${messageOf(error)}.`, ways);
  }
}
