// The player's two switches, kept in this browser: the digit keys (WCAG 2.1.4: single-key
// shortcuts can be turned off) and a chime when it becomes your turn (off until asked for).

import { store, stored } from "./storage.js";
import { $ } from "./ui.js";

const KEYS = "c4.pref.keys";
const SOUND = "c4.pref.sound";

/** Whether the digit keys drop: on unless turned off. */
export const shortcutsOn = () => $("pref-keys", HTMLInputElement).checked;

/** @type {AudioContext | null} */
let audio = null;

// A short two-note chime, made here (no sound file): only when the player turned sound on.
export function chime() {
  if (!$("pref-sound", HTMLInputElement).checked) return;
  try {
    audio ??= new AudioContext();
    const now = audio.currentTime;
    [660, 880].forEach((pitch, index) => {
      if (!audio) return;
      const tone = audio.createOscillator();
      const volume = audio.createGain();
      tone.frequency.value = pitch;
      volume.gain.setValueAtTime(0.08, now + index * 0.12);
      volume.gain.exponentialRampToValueAtTime(0.001, now + index * 0.12 + 0.25);
      tone.connect(volume).connect(audio.destination);
      tone.start(now + index * 0.12);
      tone.stop(now + index * 0.12 + 0.25);
    });
  } catch {
    // no audio here: the title and the live region still say it
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
