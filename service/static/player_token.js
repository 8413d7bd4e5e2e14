// Which secret token this browser plays a live game with: the link's, or the one kept from before.

import { NEW_GAME } from "./address.js";
import { isAbort, playerPath, Refused, request } from "./api.js";
import { store, stored, tokenKey } from "./storage.js";
import { notice } from "./ui.js";

/** @typedef {"accepted" | "unknown" | "token_required" | "token_rejected"} Verdict */

/**
 * Whether the service takes `token` for `player`'s moves, without moving: a move into the
 * column past the board's edge. The service checks the token before the column (as connect.py
 * --join does), so it answers token_required or token_rejected, or refuses the column, and it
 * never stores such a move. "unknown": no answer to go by.
 * @param {{gameId: string, player: string, columns: number, signal: AbortSignal}} game
 * @param {string | null} token
 * @returns {Promise<Verdict>}
 */
async function verdict({ gameId, player, columns, signal }, token) {
  try {
    await request("POST", playerPath(gameId, player), { body: { column: columns }, token, signal });
    return "accepted";
  } catch (error) {
    if (isAbort(error)) throw error;
    if (!(error instanceof Refused) || error.status >= 500) return "unknown";
    return error.code === "token_required" || error.code === "token_rejected" ? error.code : "accepted";
  }
}

/**
 * Picks the token this browser plays with: the link's (`offered`) if the service takes it (then
 * kept), else the one kept from before; with neither, this browser watches (`plays` false), and
 * the page says why. A link's token is checked before it is kept: a wrong one must not replace
 * a good one.
 * @param {{gameId: string, player: string, columns: number, signal: AbortSignal}} game
 * @param {string | null} offered
 * @returns {Promise<{plays: boolean, token: string | null}>}
 */
export async function chooseToken(game, offered) {
  const name = game.player;
  const key = tokenKey(game.gameId, name);
  const kept = stored(key);
  let offeredVerdict = null;
  if (offered && offered !== kept) {
    offeredVerdict = await verdict(game, offered);
    if (offeredVerdict === "accepted" || (offeredVerdict === "unknown" && !kept)) {
      store(key, offered);
      return { plays: true, token: offered };
    }
  }
  const keptVerdict = await verdict(game, kept || null);
  if (keptVerdict !== "token_rejected" && keptVerdict !== "token_required") {
    if (offeredVerdict === "token_rejected") {
      notice(
        `This link's secret token is not ${name}'s. This browser still holds ${name}'s own token from before, and plays with it.`,
        [],
      );
    }
    return { plays: true, token: kept };
  }
  if (offeredVerdict === "token_rejected" || keptVerdict === "token_rejected") {
    notice(
      `This link's secret token is not ${name}'s, so you are watching, not playing. ` +
        `To play as ${name}, ask whoever created the game to send ${name}'s invite link again.`,
      [NEW_GAME],
    );
  } else {
    notice(
      `This link lacks ${name}'s secret token, so you are watching, not playing. ` +
        `To play as ${name}, open the whole invite link that whoever created the game sent you: ` +
        "it ends with “&t=” and the token.",
      [NEW_GAME],
    );
  }
  return { plays: false, token: null };
}
