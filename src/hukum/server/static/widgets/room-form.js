// Making a room: the form of a private room's rules (a preset, the level of the computer
// players, the match's length, the turn's time, every single rule), and the request that
// makes a table and opens it. On the lobby and on its own page (/rooms/new).
import { t } from "../i18n.js";
import { go, render } from "../router.js";
import { S } from "../state.js";
import { api, errorText } from "./api.js";
import { esc, selectHTML } from "./html.js";
import { message } from "./message.js";
import { levels, optionDescription, optionLabel, presetLabel, rulesMeta, valueLabel } from "./rules.js";

const app = document.getElementById("app");
const LENGTHS = ["p3", "p5", "p7", "p11", "d1", "d4", "d8"];
const TIMEOUTS = [15, 30, 60, 120, 300, 0]; // 0: no limit

/** The name this browser plays under. */
export function playerName() {
  return (localStorage.getItem("hukum.name") || "").trim() || t("lobby.name.placeholder");
}

/** A game's computer players as <select> items. */
export function levelOptions(game) {
  return levels(game).map((l) => [l, t(`level.${l}`)]);
}

/** The level last chosen for a game (kept in localStorage under `key`), if the game has it. */
export function savedLevel(game, key) {
  const level = localStorage.getItem(key);
  return levels(game).includes(level) ? level : "rules";
}

/** Make a table (POST /api/tables) and open its page; on a refusal, say why here. */
export async function createTable(body) {
  try {
    const { data } = await api("POST", "/api/tables", body);
    localStorage.setItem(`hukum.token.${data.code}`, data.token);
    localStorage.setItem(`hukum.seat.${data.code}`, String(data.seat ?? 0));
    S.message = null;
    go(data.invite || `/t/${data.code}`);
  } catch (err) {
    S.message = message("error", errorText(err));
    render();
  }
}

function lengthLabel(code) {
  const n = Number(code.slice(1));
  if (code[0] === "p") return t("length.points", { n });
  return n === 1 ? t("length.deal") : t("length.deals", { n });
}

function optionField(o, value) {
  const id = `opt-${o.name}`;
  let input;
  if (Array.isArray(o.values) && o.values.length) {
    input = `<select id="${id}" data-option="${esc(o.name)}">${o.values
      .map((v) => `<option value="${esc(JSON.stringify(v))}" ${JSON.stringify(v) === JSON.stringify(value) ? "selected" : ""}>${esc(valueLabel(v))}</option>`)
      .join("")}</select>`;
  } else if (typeof value === "boolean" || typeof o.default === "boolean") {
    input = `<select id="${id}" data-option="${esc(o.name)}">${[true, false]
      .map((v) => `<option value="${v}" ${v === value ? "selected" : ""}>${esc(valueLabel(v))}</option>`)
      .join("")}</select>`;
  } else if (Array.isArray(value) || Array.isArray(o.default)) {
    input = `<input id="${id}" data-option="${esc(o.name)}" data-kind="list" value="${esc((value ?? o.default ?? []).join(", "))}">`;
  } else {
    input = `<input id="${id}" data-option="${esc(o.name)}" data-kind="number" type="number" min="1" value="${esc(value ?? "")}">`;
  }
  return `<label class="field"><span>${esc(optionLabel(o.name))}</span>${input}<small>${esc(optionDescription(o.name))}</small></label>`;
}

function customOptionsHTML(preset) {
  const meta = rulesMeta();
  const rules = meta.presets[preset] ?? {};
  return meta.options
    .filter((o) => o.name !== "target" && o.name !== "deals")
    .map((o) => optionField(o, rules[o.name] ?? o.default))
    .join("");
}

/** The room's form (rules metadata loaded). */
export function roomFormHTML() {
  const presets = Object.keys(rulesMeta().presets);
  const first = presets.includes("classic") ? "classic" : presets[0];
  return `<form id="create-form">
      <label class="field"><span>${esc(t("lobby.preset"))}</span>${selectHTML("preset", presets.map((p) => [p, presetLabel(p)]), first)}</label>
      <label class="field"><span>${esc(t("lobby.level"))}</span>${selectHTML("room-level", levelOptions("mindi"), "rules")}</label>
      <label class="field"><span>${esc(t("lobby.length"))}</span>${selectHTML("length", LENGTHS.map((l) => [l, lengthLabel(l)]), "p7")}</label>
      <label class="field"><span>${esc(t("lobby.timeout"))}</span>${selectHTML("timeout", TIMEOUTS.map((s) => [s, s ? t("lobby.seconds", { n: s }) : t("lobby.timeout.none")]), 60)}</label>
      <details id="custom"><summary>${esc(t("lobby.custom"))}</summary><div id="custom-options">${customOptionsHTML(first)}</div></details>
      <label class="check"><input type="checkbox" id="spectators"> <span>${esc(t("lobby.spectators"))}</span></label>
      <label class="check"><input type="checkbox" id="hints"> <span>${esc(t("lobby.hints"))}</span></label>
      <button id="create-room" class="primary" type="submit">${esc(t("lobby.create.button"))}</button>
    </form>`;
}

/** The choices of the form's page (`.lobby[data-page=page]`) as they stand (every field,
 * whether the single rules are open, the pack note), to keep them when the page is drawn
 * again: after an error, in another language. Null when that page is not shown. */
export function keptChoices(page) {
  const root = app.querySelector(".lobby");
  if (!root || root.dataset.page !== page) return null;
  const values = {};
  for (const el of root.querySelectorAll("select[id], input[id]"))
    if (el.id !== "name") values[el.id] = el.type === "checkbox" ? el.checked : el.value;
  return { values, open: app.querySelector("#custom")?.open ?? false, note: app.querySelector("#deck-note")?.dataset.players ?? null };
}

export function restoreChoices(kept) {
  if (!kept) return;
  const preset = kept.values.preset;
  const form = app.querySelector("#create-form");
  if (form && preset && rulesMeta().presets[preset] && preset !== app.querySelector("#preset").value) {
    app.querySelector("#preset").value = preset;
    app.querySelector("#custom-options").innerHTML = customOptionsHTML(preset);
  }
  for (const [id, value] of Object.entries(kept.values)) {
    const el = document.getElementById(id);
    if (el && app.contains(el)) {
      if (el.type === "checkbox") el.checked = value === true;
      else el.value = value;
    }
  }
  if (form) app.querySelector("#custom").open = kept.open;
  if (kept.note) deckNote(kept.note);
}

/** 6 and 8 players play with 48 cards (M-2): choosing them switches the pack, and says so. */
function playersChosen(select) {
  const players = JSON.parse(select.value);
  const deck = app.querySelector("#opt-deck");
  app.querySelector("#deck-note")?.remove();
  if (players !== 4 && deck && JSON.parse(deck.value) !== 48) {
    deck.value = JSON.stringify(48);
    deckNote(players);
  }
}

function deckNote(players) {
  const deck = app.querySelector("#opt-deck");
  if (!deck) return;
  const note = document.createElement("p");
  note.id = "deck-note";
  note.className = "hint";
  note.setAttribute("role", "status");
  note.dataset.players = String(players);
  note.textContent = t("lobby.deck48", { n: players });
  deck.closest("label").after(note);
}

/** The form's changes: another preset fills the single rules in again; 6 or 8 players. */
export function formChanged(e) {
  if (e.target.id === "preset" && rulesMeta()) {
    app.querySelector("#custom-options").innerHTML = customOptionsHTML(e.target.value);
  }
  if (e.target.id === "opt-players") playersChosen(e.target);
}

function readOptions(preset) {
  const base = rulesMeta().presets[preset] ?? {};
  const options = {};
  for (const el of app.querySelectorAll("[data-option]")) {
    const name = el.dataset.option;
    let value;
    if (el.tagName === "SELECT") value = JSON.parse(el.value);
    // Words that are not numbers are sent as typed: the server's error then quotes them.
    else if (el.dataset.kind === "list") value = el.value.split(/[,\s]+/).filter(Boolean).map((w) => (/^-?\d+$/.test(w) ? Number(w) : w));
    else value = el.value === "" ? null : Number(el.value);
    if (JSON.stringify(value) !== JSON.stringify(base[name])) options[name] = value;
  }
  const length = app.querySelector("#length").value;
  const n = Number(length.slice(1));
  if (length[0] === "p") {
    options.target = n;
    options.deals = null;
  } else {
    options.target = null;
    options.deals = n;
  }
  return options;
}

/** Make the room the form describes. */
export function createRoom() {
  const preset = app.querySelector("#preset").value;
  createTable({
    preset,
    options: readOptions(preset),
    bots: app.querySelector("#room-level").value,
    name: playerName(),
    turn_timeout: Number(app.querySelector("#timeout").value) || null,
    start_now: false,
    spectators: app.querySelector("#spectators").checked,
    hints: app.querySelector("#hints").checked,
  });
}

/** The name field's input: kept for the next visit. */
export function nameInput(e) {
  if (e.target.id === "name") localStorage.setItem("hukum.name", e.target.value.trim());
}
