// The player's switches, kept in this browser: the digit keys (WCAG 2.1.4), and a chime.

import { store, stored } from "./storage.js";
import { $ } from "./ui.js";

const KEYS = "c4.pref.keys";
const SOUND = "c4.pref.sound";

/** Whether the digit keys drop: on unless turned off. */
export const shortcutsOn = () => $("pref-keys", HTMLInputElement).checked;

/** @type {AudioContext | null} */
let audio = null;

// A short rising chime, made here (no sound file): only when the player turned sound on.
export function chime() {
  if (!$("pref-sound", HTMLInputElement).checked) return;
  try {
    audio ??= new AudioContext();
    const [tone, volume, now] = [audio.createOscillator(), audio.createGain(), audio.currentTime];
    tone.frequency.setValueAtTime(660, now);
    tone.frequency.setValueAtTime(880, now + 0.12);
    volume.gain.setValueAtTime(0.08, now);
    volume.gain.exponentialRampToValueAtTime(0.001, now + 0.35);
    tone.connect(volume).connect(audio.destination);
    tone.start(now);
    tone.stop(now + 0.35);
  } catch {
    // no audio here: the title says it
  }
}

// Each switch shows what this browser kept, and keeps what the player chooses.
export function listenToPrefs() {
  const keys = $("pref-keys", HTMLInputElement);
  const sound = $("pref-sound", HTMLInputElement);
  keys.checked = stored(KEYS) !== "off";
  sound.checked = stored(SOUND) === "on";
  keys.addEventListener("change", () => store(KEYS, keys.checked ? "on" : "off"));
  sound.addEventListener("change", () => {
    store(SOUND, sound.checked ? "on" : "off");
    chime(); // what it sounds like, and the browser's permission to play it later
  });
}
