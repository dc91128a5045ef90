// Who is playing (issue 41): the player of this browser's session and their preferences.
// At boot the page asks GET /api/me; a first visit (no session) becomes a guest at once,
// POST /api/me/guest, with no form. The session is an HttpOnly cookie the server sets: the
// page never sees a token. The last known player (name and preferences, nothing secret) is
// kept in localStorage, so that the page draws at once and works offline with them; a change
// made offline is kept there too and sent once the network is back (the server's copy is the
// one that follows the player to another device).
import { api } from "./api.js";

const KEY = "hukum.me";
const PENDING_KEY = "hukum.me.pending";
/** The name the lobby's and the table's name fields show: the player's display name, kept
 * here as it is typed (before the server has it). */
const NAME_KEY = "hukum.name";
/** How long typing in a name field pauses before the name is saved as the display name. */
const NAME_SAVE_MS = 800;
let naming = null; // the pending save of a name being typed
let typing = null; // the name typed and not yet saved, else null

/** Each preference's value when the player has not chosen one (docs/protocol.md,
 * "Preferences"); `lang` has none: the browser's language is used until one is chosen. */
export const DEFAULTS = {
  cards: "two",
  contrast: "normal",
  temperature: "neutral",
  motion: "system",
  sound: false,
  bot_speed: "normal",
};

/** The choices of each preference the settings page offers. */
export const CHOICES = {
  cards: ["two", "four"],
  contrast: ["normal", "high"],
  temperature: ["neutral", "warm", "cool"],
  motion: ["system", "reduce", "full"],
  bot_speed: ["slow", "normal", "fast"],
};

function read(key) {
  try {
    const value = JSON.parse(localStorage.getItem(key) ?? "null");
    return value && typeof value === "object" ? value : null;
  } catch {
    return null;
  }
}

let player = read(KEY); // {name, username, guest, moderator, prefs, suspension} or null
let pending = read(PENDING_KEY) ?? {}; // preferences changed offline, not yet on the server
const listeners = new Set();
// The sound switch was once this browser's alone (issue 40): switched on, it goes with the
// player now.
if (localStorage.getItem("hukum.sound") === "on" && player?.prefs?.sound === undefined) pending.sound = true;
localStorage.removeItem("hukum.sound");

/** The player as last known ({name, prefs, …}), or null before the first answer. */
export function me() {
  return player;
}

/** Preference `name`: the player's choice, else its default. */
export function pref(name) {
  const value = { ...player?.prefs, ...pending }[name];
  return value ?? DEFAULTS[name];
}

/** Call `fn(player)` whenever the player or their preferences change (here or from the
 * server's answer). */
export function onMe(fn) {
  listeners.add(fn);
}

/** The display preferences as attributes of <html> (data-cards="four", …), for style.css. */
export function applyPrefs() {
  const root = document.documentElement;
  for (const name of ["cards", "contrast", "temperature", "motion"]) root.dataset[name] = pref(name);
}

function keep(next) {
  player = next;
  // A name typed and not yet saved stays: an answer to a request sent before the typing
  // (the first visit's, a preference's) does not put the old name back in the field.
  if (player?.name && typing === null) localStorage.setItem(NAME_KEY, player.name);
  localStorage.setItem(KEY, JSON.stringify(player));
  localStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  applyPrefs();
  for (const fn of listeners) fn(player);
}

let asking = null; // the refresh under way: one at a time, so that a first visit makes one guest

/** Ask the server who this is (a first visit becomes a guest), send what was changed
 * offline, and keep the answer. Offline it resolves with the last known player. */
export function refreshMe() {
  asking ??= ask().finally(() => (asking = null));
  return asking;
}

async function ask() {
  try {
    let { data } = await api("GET", "/api/me");
    if (!data.player) {
      ({ data } = await api("POST", "/api/me/guest"));
      // The name this browser played under before players had one (issue 40's name
      // field) becomes the new guest's, rather than the generated one.
      const typed = (localStorage.getItem(NAME_KEY) || "").trim();
      if (typed) ({ data } = await api("PATCH", "/api/me", { name: typed }).catch(() => ({ data })));
    }
    if (Object.keys(pending).length) data = (await inTurn(() => sendPending())) ?? data;
    keep(data.player);
  } catch {
    // No network (or no server): the page goes on with what it knew.
  }
  return player;
}

/** Change some preferences: applied at once, kept here, and saved with the player on the
 * server (offline: sent when the network is back). Throws the server's refusal. */
export async function savePrefs(partial) {
  pending = { ...pending, ...partial };
  keep({ ...player, prefs: { ...player?.prefs, ...partial } });
  let data;
  try {
    data = await inTurn(() => sendPending());
  } catch (err) {
    if (err?.code === "network") return player; // kept; sent once back online
    if (err?.code === "no_session") return refreshMe(); // becomes a guest, then sends them
    await refreshMe(); // refused: the server's copy again
    throw err;
  }
  // An answer that a later change, not yet sent, has overtaken is stale.
  if (data && !Object.keys(pending).length) keep(data.player);
  return player;
}

let sending = Promise.resolve(); // the preference changes sent, one after the other

/** Run `send` once the changes sent before it are answered: the server gets them in the
 * order they were made (two requests at once may be handled in either order, and the
 * older choice would be the one kept). */
function inTurn(send) {
  const turn = sending.then(send);
  sending = turn.catch(() => {});
  return turn;
}

/** Send the changes not yet sent (all of them at once); the server's answer, or null if
 * there were none (an earlier request took them). A refusal forgets them. */
async function sendPending() {
  const sent = pending;
  if (!Object.keys(sent).length) return null;
  try {
    const { data } = await api("PATCH", "/api/me", { prefs: sent });
    if (pending === sent) pending = {};
    return data;
  } catch (err) {
    if (err?.code !== "network" && err?.code !== "no_session" && pending === sent) pending = {};
    throw err;
  }
}

/** Change the display name (the server cleans it up); the player as now known. Throws the
 * server's refusal (e.g. bad_name). */
export async function saveName(name) {
  const { data } = await api("PATCH", "/api/me", { name }).then(
    (answer) => {
      if (typing === name) typing = null;
      return answer;
    },
    (err) => {
      if (typing === name && err?.code !== "network") typing = null; // refused: not kept
      throw err;
    },
  );
  keep(data.player);
  return player;
}

/** A name field's text (the lobby's, the table's): kept here at once, for the room about
 * to be made, and saved as the display name when the typing pauses. */
export function typedName(text) {
  const name = text.trim();
  localStorage.setItem(NAME_KEY, name);
  clearTimeout(naming);
  typing = null;
  if (name && name !== player?.name) {
    typing = name;
    naming = setTimeout(() => saveName(name).catch(() => {}), NAME_SAVE_MS);
  }
}

/** The name to sit down under: the one being typed, else the display name. */
export function tableName() {
  return (localStorage.getItem(NAME_KEY) || "").trim() || player?.name || "";
}

/** Once, at start: the last known preferences applied; the server asked; asked again
 * whenever the network comes back. */
export function startMe() {
  applyPrefs();
  window.addEventListener("online", () => refreshMe());
  return refreshMe();
}
