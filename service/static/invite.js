// The creator's invite for their friend: the link and the terminal's join command, made when
// the game is created, kept in this browser, shown above the board until the game ends.

import { fragment } from "./address.js";
import { playerPath } from "./api.js";
import { TERMINAL_COLUMNS, TERMINAL_ROWS } from "./limits.js";
import { inviteKey, store, storedJSON } from "./storage.js";
import { $, announce } from "./ui.js";

/** @typedef {{friend: string, link: string, command: string}} Invite */

/** A word the shell reads as itself: quoted unless it is plain. */
function shellWord(/** @type {string} */ text) {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'"'"'`)}'`;
}

/**
 * Makes the friend's invite to game `gameId` and keeps it in this browser.
 * @param {{gameId: string, friend: string, token: string, rows: number, columns: number}} game
 */
export function keepInvite({ gameId, friend, token, rows, columns }) {
  const base = location.origin;
  let command = `CONNECT_FOUR_TOKEN=${token} python3 connect.py --join ${shellWord(`${base}${playerPath(gameId, friend)}`)}`;
  if (rows !== TERMINAL_ROWS || columns !== TERMINAL_COLUMNS) command += ` --rows ${rows} --columns ${columns}`;
  /** @type {Invite} */
  const invite = { friend, command, link: `${base}/${fragment({ game: gameId, me: friend, t: token })}` };
  store(inviteKey(gameId), JSON.stringify(invite));
}

/** @returns {value is Invite} */
function isInvite(/** @type {unknown} */ value) {
  if (typeof value !== "object" || value === null) return false;
  const fields = /** @type {Record<string, unknown>} */ (value);
  return ["friend", "link", "command"].every((name) => typeof fields[name] === "string");
}

/** The invite this browser keeps for game `gameId`, or null (a value it cannot read is dropped). */
export const keptInvite = (/** @type {string} */ gameId) => storedJSON(inviteKey(gameId), isInvite);

/**
 * Shows `invite` (null: none), open unless `folded`.
 * @param {Invite | null} invite
 * @param {boolean} folded
 */
export function showInvite(invite, folded) {
  const box = $("invite", HTMLDetailsElement);
  box.hidden = !invite;
  if (invite) {
    $("invite-name").textContent = invite.friend;
    $("invite-link", HTMLInputElement).value = invite.link;
    $("invite-command", HTMLInputElement).value = invite.command;
    box.open = !folded;
  }
}

export const foldInvite = () => {
  $("invite", HTMLDetailsElement).open = false;
};

export const hideInvite = () => {
  $("invite").hidden = true;
};

// "Copy link": the clipboard where the browser allows it; the selected link otherwise.
export function listenToCopy() {
  $("copy-link").addEventListener("click", async () => {
    const field = $("invite-link", HTMLInputElement);
    field.select();
    try {
      await navigator.clipboard.writeText(field.value);
      announce("Link copied.");
    } catch {
      announce("Press Control C (or Command C) to copy the selected link.");
    }
  });
}
