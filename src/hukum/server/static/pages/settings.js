// The player's settings, /settings (issue 41): the display name, the language, the card
// style, the display (contrast, colour temperature, animations, as Cardavia offers them),
// the sounds and the computer players' speed. Each change applies at once and is saved with
// the player on the server (widgets/me.js), so that it survives a reload and follows the
// player to another device; offline it is kept here and saved once the network is back.
import { cardSVG } from "../cards.js";
import { LANGS, getLang, t } from "../i18n.js";
import { render } from "../router.js";
import { enterTable } from "../state.js";
import { errorText } from "../widgets/api.js";
import { esc, selectHTML } from "../widgets/html.js";
import { message, messageHTML } from "../widgets/message.js";
import { CHOICES, me, pref, saveName, savePrefs } from "../widgets/me.js";

const app = document.getElementById("app");

/** The preferences chosen from a list, in the page's order, each with its label's key. */
const LISTS = [
  ["cards", "settings.cards"],
  ["contrast", "settings.contrast"],
  ["temperature", "settings.temperature"],
  ["motion", "settings.motion"],
  ["bot_speed", "settings.bots"],
];

/** The cards that show the card style: one of each suit. */
const PREVIEW = ["AS", "KH", "QD", "JC"];

let note = null; // the page's message: the name saved, or a refusal

function open() {
  enterTable("settings", null);
  note = null;
  render();
}

/** A preference's <select>: its choices in the page's language. */
function listField(name, label) {
  const items = CHOICES[name].map((value) => [value, t(`${label}.${value}`)]);
  return `<label class="field"><span>${esc(t(label))}</span>${selectHTML(`set-${name}`, items, pref(name))}</label>`;
}

function draw() {
  const player = me();
  const typing = document.activeElement?.id === "set-name" ? document.activeElement.value : null;
  const langs = Object.entries(LANGS);
  app.innerHTML = `<section class="settings" data-page="settings">
  <h1>${esc(t("settings.title"))}</h1>
  <p class="hint">${esc(t("settings.intro"))}</p>
  ${navigator.onLine ? "" : `<p class="message warn" id="settings-offline">${esc(t("settings.offline"))}</p>`}
  ${messageHTML(note, false)}
  <form id="name-form" class="panel">
    <label class="field"><span>${esc(t("settings.name"))}</span>
      <span class="row"><input id="set-name" maxlength="40" autocomplete="nickname" value="${esc(typing ?? player?.name ?? "")}">
      <button type="submit" id="save-name">${esc(t("settings.name.save"))}</button></span></label>
  </form>
  <div class="panel">
    <label class="field"><span>${esc(t("settings.lang"))}</span>${selectHTML("set-lang", langs, getLang())}</label>
    ${listField("cards", "settings.cards")}
    <div class="settings-preview" id="settings-preview" aria-label="${esc(t("settings.preview"))}" role="img">
      ${PREVIEW.map((code) => `<span class="settings-card">${cardSVG(code)}</span>`).join("")}
    </div>
    ${LISTS.slice(1, 4).map(([name, label]) => listField(name, label)).join("")}
    <label class="check"><input type="checkbox" id="set-sound" ${pref("sound") ? "checked" : ""}> <span>${esc(t("settings.sound"))}</span></label>
    ${listField("bot_speed", "settings.bots")}
    <p class="hint">${esc(t("settings.bots.note"))}</p>
  </div>
</section>`;
  if (typing !== null) {
    const input = app.querySelector("#set-name");
    input.focus();
    input.setSelectionRange(typing.length, typing.length);
  }
}

/** A preference changed: saved (and applied) at once. */
async function change(e) {
  const id = e.target.id ?? "";
  if (!id.startsWith("set-") || id === "set-name") return;
  const name = id.slice(4);
  const value = name === "sound" ? e.target.checked : e.target.value;
  try {
    await savePrefs({ [name]: value });
    note = null;
  } catch (err) {
    note = message("error", errorText(err));
  }
  draw();
}

/** The display name: saved as the server cleans it up (shown as text everywhere). */
async function submit(e) {
  e.preventDefault();
  if (e.target.id !== "name-form") return;
  const input = app.querySelector("#set-name");
  try {
    await saveName(input.value);
    input.blur();
    note = message("ok", t("settings.name.saved"));
  } catch (err) {
    note = message("error", err?.code === "bad_name" ? t("settings.name.bad") : errorText(err));
  }
  draw();
}

export default { open, render: draw, change, submit, meChanged: draw };
