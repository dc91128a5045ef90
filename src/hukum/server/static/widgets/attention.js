// Your turn, when you look away (issue 40 item 13). The table page tells `yourTurn(bool)`
// whenever its view changes; then the tab's title ("● Your turn — Hukum") and icon (a
// dot) say it until the turn is over, and, if the player switched them on in the header,
// a notification after a few seconds of the turn with the page hidden, and a short tone.
// Nothing is asked of the browser on load: the notifications' permission is asked only
// when the player switches them on. The sound switch is the player's `sound` preference
// (widgets/me.js, kept on the server with the player); with it on, a tone on your turn and
// a chime when your side wins a trick (`trickWon`, told by table/game.js). Both are
// synthesised with the Web Audio API: no sound file, so no licence.
import { t } from "../i18n.js";
import { pref, savePrefs } from "./me.js";

const ICON = "/static/favicon.svg";
const TURN_ICON = "/static/favicon-turn.svg";
/** How long the turn waits with the page hidden before the notification. */
export const NOTIFY_AFTER_MS = 4000;
const NOTIFY_KEY = "hukum.notify";
const TAG = "hukum-turn";

const BELL = '<path d="M12 3a5 5 0 0 0-5 5v4l-2 3h14l-2-3V8a5 5 0 0 0-5-5zM10 18a2 2 0 0 0 4 0"/>';
const SPEAKER = '<path d="M4 9h4l5-4v14l-5-4H4z"/>';
const WAVES = '<path d="M16 9a4 4 0 0 1 0 6M18.5 6.5a8 8 0 0 1 0 11"/>';
const SLASH = '<path d="M4 4l16 16"/>';

let title = ""; // the page's own title
let mine = false; // whether the table waits for this seat
let decisionWaited = null; // which of its moves it waits for (yourTurn's decision)
let timer = null; // the notification's countdown
let shown = null; // the notification shown (made by the page), to close when the turn ends
let audio = null; // the AudioContext, made on the player's gesture

const canNotify = () => "Notification" in window;
const notifyOn = () => canNotify() && localStorage.getItem(NOTIFY_KEY) === "on" && Notification.permission === "granted";
const soundOn = () => pref("sound") === true;

/** The title and the icon: the page's own, or "your turn". */
function show() {
  document.title = mine ? t("attention.title", { title }) : title;
  const link = document.querySelector('link[rel="icon"]');
  const href = mine ? TURN_ICON : ICON;
  if (link && link.getAttribute("href") !== href) link.setAttribute("href", href);
}

/** The table waits for this seat's move (true) or not (false): called on every view.
 * `decision` names the move it waits for (e.g. the deal and the cards left in the hand): a
 * new one while it stays this seat's turn (its card won a trick, and it leads the next) is
 * a new turn, with its own tone and countdown. */
export function yourTurn(now, decision = null) {
  const waited = now ? decision : null;
  if (Boolean(now) === mine && waited === decisionWaited) return;
  const again = mine && Boolean(now);
  mine = Boolean(now);
  decisionWaited = waited;
  if (!again) show();
  if (mine) {
    if (soundOn()) tone();
    arm();
  } else {
    disarm();
  }
}

/** Count down to the notification if the page is hidden during the turn. */
function arm() {
  clearTimeout(timer);
  timer = mine && document.hidden && notifyOn() ? setTimeout(notify, NOTIFY_AFTER_MS) : null;
}

/** No countdown, and no notification left once the turn is over or the page is seen. */
function disarm() {
  clearTimeout(timer);
  timer = null;
  shown?.close();
  shown = null;
  navigator.serviceWorker?.getRegistration().then((reg) => reg?.getNotifications({ tag: TAG })).then((list) => list?.forEach((n) => n.close())).catch(() => {});
}

/** "Your turn": through the service worker where there is one (a phone allows no other),
 * else the page's own. */
async function notify() {
  timer = null;
  if (!mine || !document.hidden || !notifyOn()) return;
  const options = { body: t("attention.notify.body"), icon: "/static/icons/icon-192.png", tag: TAG, data: { url: location.href } };
  const reg = await navigator.serviceWorker?.getRegistration().catch(() => null);
  if (reg?.active) {
    await reg.showNotification(t("attention.notify.title"), options).catch(() => {});
    return;
  }
  shown = new Notification(t("attention.notify.title"), options);
  shown.onclick = () => {
    window.focus();
    shown?.close();
  };
}

/** The page's AudioContext (made once), woken if the browser holds it until a gesture. */
function sound() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  audio ??= new Context();
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

/** A short rising two-note tone (0.3 s), synthesised. */
function tone() {
  const ac = sound();
  if (!ac) return;
  const now = ac.currentTime;
  const osc = ac.createOscillator();
  const gain = ac.createGain();
  osc.type = "sine";
  osc.frequency.setValueAtTime(660, now);
  osc.frequency.setValueAtTime(880, now + 0.12);
  gain.gain.setValueAtTime(0.0001, now);
  gain.gain.exponentialRampToValueAtTime(0.2, now + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.3);
  osc.connect(gain).connect(ac.destination);
  osc.start(now);
  osc.stop(now + 0.32);
}

/** Your side won a trick: a short bright chime (two notes, the higher just after the
 * lower, 0.35 s in all), synthesised; only with the sound on. */
export function trickWon() {
  if (!soundOn()) return;
  const ac = sound();
  if (!ac) return;
  const now = ac.currentTime;
  const gain = ac.createGain();
  gain.gain.setValueAtTime(0.0001, now);
  gain.gain.exponentialRampToValueAtTime(0.16, now + 0.015);
  gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.35);
  gain.connect(ac.destination);
  for (const [freq, at] of [[784, 0], [1175, 0.06]]) {
    const osc = ac.createOscillator();
    osc.type = "triangle";
    osc.frequency.setValueAtTime(freq, now + at);
    osc.connect(gain);
    osc.start(now + at);
    osc.stop(now + 0.37);
  }
}

/** The notifications' switch: on asks the browser's permission (this click is the
 * player's consent), off forgets it. */
async function toggleNotify() {
  if (localStorage.getItem(NOTIFY_KEY) === "on") {
    localStorage.setItem(NOTIFY_KEY, "off");
  } else if (Notification.permission !== "denied") {
    const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
    if (answer === "granted") localStorage.setItem(NOTIFY_KEY, "on");
  }
  drawNotify();
  arm();
}

/** The sound's switch (the player's preference, saved with them); switched on, it plays
 * the tone once, so the player knows it. */
function toggleSound() {
  savePrefs({ sound: !soundOn() }).catch(() => {});
  if (soundOn()) tone();
  drawSound();
}

/** The bell: on, off, or blocked (the browser was told never to show the site's). */
function drawNotify() {
  let label = t(notifyOn() ? "attention.notify.on" : "attention.notify.off");
  if (canNotify() && Notification.permission === "denied") label = t("attention.notify.blocked");
  drawSwitch("notify-toggle", notifyOn(), label, BELL);
}

function drawSound() {
  drawSwitch("sound-toggle", soundOn(), t(soundOn() ? "attention.sound.on" : "attention.sound.off"), SPEAKER + WAVES);
}

function drawSwitch(id, on, label, icon) {
  const button = document.getElementById(id);
  if (!button) return;
  button.setAttribute("aria-pressed", String(on));
  button.setAttribute("aria-label", label);
  button.title = label;
  button.innerHTML = `<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">${on ? icon : icon.replace(WAVES, "") + SLASH}</svg>`;
}

/** The shell's part, drawn in the page's language: its title and the two switches. */
export function drawAttention(pageTitle) {
  title = pageTitle;
  show();
  const bell = document.getElementById("notify-toggle");
  if (bell) bell.hidden = !canNotify();
  if (canNotify()) drawNotify();
  drawSound();
}

/** Once, at start: the switches, and the page hidden or seen again. */
export function startAttention() {
  document.getElementById("notify-toggle")?.addEventListener("click", toggleNotify);
  document.getElementById("sound-toggle")?.addEventListener("click", toggleSound);
  document.addEventListener("visibilitychange", () => (document.hidden ? arm() : disarm()));
  // A browser starts sound only after a gesture: the first one after a reload wakes it.
  const wake = () => soundOn() && sound();
  document.addEventListener("pointerdown", wake);
  document.addEventListener("keydown", wake);
}
