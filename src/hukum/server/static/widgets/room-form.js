// Making a room: the form of a private room's rules for the game chosen (a preset, the level
// of the computer players, the match's length, the turn's time, every single rule), drawn
// from that game's rules schema (GET /api/rules, `games`), and the request that makes a
// table and opens it. On the lobby and on its own page (/rooms/new?game=<name>). A new
// game or a new option needs nothing here: its schema brings its fields.
import { getLang, has, t } from "../i18n.js";
import { lobbyOf } from "../games/index.js";
import { go, render } from "../router.js";
import { S, enterTable } from "../state.js";
import { api, errorText } from "./api.js";
import { esc, selectHTML } from "./html.js";
import { pref, tableName, typedName } from "./me.js";
import { message } from "./message.js";
import { loadRulesMeta, presetLabel, rulesMeta, valueLabel } from "./rules.js";

const app = document.getElementById("app");
const LENGTHS = ["p3", "p5", "p7", "p11", "d1", "d4", "d8"];
const TIMEOUTS = [15, 30, 60, 120, 300, 0]; // 0: no limit
/** The options the match's length sets (p: a target of points, d: a number of deals). */
const LENGTH_OPTIONS = { p: "target", d: "deals" };

/** Open page `page` (the lobby, /rooms/new: their forms come from the games' rules): drawn
 * at once, and again when the rules have come if it is still shown. */
export async function openWithRules(page) {
  enterTable(page, null);
  render();
  await loadRulesMeta();
  if (S.page === page) render();
}

/** Every game's rules, by name in the server's order: {title, options, presets,
 * default_preset, players, bots} (docs/protocol.md, GET /api/rules). */
export function gamesInfo() {
  return rulesMeta()?.games ?? {};
}

/** Game `name`'s rules (gamesInfo), or null. */
export function gameInfo(name) {
  return gamesInfo()[name] ?? null;
}

/** A game's name for people: its drawing's key (`lobby.name`), else the server's title. */
export function gameName(name) {
  const key = lobbyOf(name).name;
  return key ? t(key) : (gameInfo(name)?.title ?? name);
}

/** The game a form is for: `wanted` if the server offers it, else its first game. */
export function formGame(wanted) {
  const names = Object.keys(gamesInfo());
  return names.includes(wanted) ? wanted : names[0];
}

/** The name this browser plays under: the player's display name, or what is being typed
 * over it in the name field (widgets/me.js). */
export function playerName() {
  return tableName() || t("lobby.name.placeholder");
}

/** A game's computer players (its schema's `bots`). */
function botsOf(game) {
  return gameInfo(game).bots;
}

/** A game's computer players as <select> items. */
export function levelOptions(game) {
  return botsOf(game).map((l) => [l, t(`level.${l}`)]);
}

/** The level a game's choice starts at: its drawing's, else Good ("rules") if it has it. */
function defaultLevel(game) {
  const offered = botsOf(game);
  const wanted = lobbyOf(game).level ?? "rules";
  return offered.includes(wanted) ? wanted : offered[0];
}

/** The level last chosen for a game (kept in localStorage under `key`), if the game has it. */
export function savedLevel(game, key) {
  const level = localStorage.getItem(key);
  return botsOf(game).includes(level) ? level : defaultLevel(game);
}

/** An option's label: its translation key (`opt.<name>`), else its description. */
function optionLabel(o) {
  return has(o.label) ? t(o.label) : o.description || o.name;
}

/** An option's one-line description: the server's (naming the rule ids) in English, the
 * translation table's (`desc.<name>`) in other languages; each falls back to the other. */
function optionDescription(o) {
  const local = has(`desc.${o.name}`) ? t(`desc.${o.name}`) : "";
  return getLang() === "en" ? o.description || local : local || o.description;
}

/** Make a table (POST /api/tables) and open its page; on a refusal, say why here. Its
 * computer players play at the player's speed (the `bot_speed` preference). */
export async function createTable(body) {
  try {
    const { data } = await api("POST", "/api/tables", { bot_speed: pref("bot_speed"), ...body });
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
  return `<label class="field"><span>${esc(optionLabel(o))}</span>${input}<small>${esc(optionDescription(o))}</small></label>`;
}

/** The match's lengths game `game` offers: points if it has a target, deals if a number of
 * deals. */
function lengths(game) {
  const names = new Set(gameInfo(game).options.map((o) => o.name));
  return LENGTHS.filter((l) => names.has(LENGTH_OPTIONS[l[0]]));
}

/** The options the length field sets, in game `game` (none if it has no length field). */
function lengthOptions(game) {
  return new Set(lengths(game).map((l) => LENGTH_OPTIONS[l[0]]));
}

/** The length a game's default preset plays to (a target, else a number of deals). */
function defaultLength(game) {
  const info = gameInfo(game);
  const rules = info.presets[info.default_preset] ?? {};
  const offered = lengths(game);
  const own = rules.target != null ? `p${rules.target}` : `d${rules.deals}`;
  return offered.includes(own) ? own : offered[0];
}

function customOptionsHTML(game, preset) {
  const info = gameInfo(game);
  const rules = info.presets[preset] ?? {};
  const byLength = lengthOptions(game);
  return info.options
    .filter((o) => !byLength.has(o.name))
    .map((o) => optionField(o, rules[o.name] ?? o.default))
    .join("");
}

/** The preset a game's form starts at: the game's default one. */
function firstPreset(game) {
  const info = gameInfo(game);
  return info.presets[info.default_preset] ? info.default_preset : Object.keys(info.presets)[0];
}

/** The fields of game `game`'s own rules: its presets, computer players and lengths. */
function gameFieldsHTML(game) {
  const presets = Object.keys(gameInfo(game).presets);
  const first = firstPreset(game);
  const offered = lengths(game);
  const length = offered.length
    ? `<label class="field"><span>${esc(t("lobby.length"))}</span>${selectHTML("length", offered.map((l) => [l, lengthLabel(l)]), defaultLength(game))}</label>`
    : "";
  return `<label class="field"><span>${esc(t("lobby.preset"))}</span>${selectHTML("preset", presets.map((p) => [p, presetLabel(p)]), first)}</label>
      <label class="field"><span>${esc(t("lobby.level"))}</span>${selectHTML("room-level", levelOptions(game), defaultLevel(game))}</label>
      ${length}`;
}

/** The room's form for game `game` (rules metadata loaded; formGame chooses the game). With
 * more than one game, the form offers each (#room-game) and is drawn again for the one
 * chosen. */
export function roomFormHTML(game) {
  const names = Object.keys(gamesInfo());
  const choice = names.length > 1
    ? `<label class="field"><span>${esc(t("lobby.game"))}</span>${selectHTML("room-game", names.map((n) => [n, gameName(n)]), game)}</label>`
    : "";
  return `<form id="create-form" data-game="${esc(game)}">
      ${choice}
      <div id="game-fields">${gameFieldsHTML(game)}</div>
      <label class="field"><span>${esc(t("lobby.timeout"))}</span>${selectHTML("timeout", TIMEOUTS.map((s) => [s, s ? t("lobby.seconds", { n: s }) : t("lobby.timeout.none")]), 60)}</label>
      <details id="custom"><summary>${esc(t("lobby.custom"))}</summary><div id="custom-options">${customOptionsHTML(game, firstPreset(game))}</div></details>
      <label class="check"><input type="checkbox" id="spectators"> <span>${esc(t("lobby.spectators"))}</span></label>
      <label class="check"><input type="checkbox" id="hints"> <span>${esc(t("lobby.hints"))}</span></label>
      <label class="check"><input type="checkbox" id="chat"> <span>${esc(t("lobby.chat"))}</span></label>
      <button id="create-room" class="primary" type="submit">${esc(t("lobby.create.button"))}</button>
    </form>`;
}

/** The game the page's room form is for, or null when it has none. */
function shownGame() {
  return app.querySelector("#create-form")?.dataset.game ?? null;
}

/** Draw the page's room form for game `game` (its own fields and single rules, from its
 * default preset); the turn's time, watchers and hints stay as chosen. */
export function chooseFormGame(game) {
  const form = app.querySelector("#create-form");
  if (!form || !gameInfo(game)) return;
  form.dataset.game = game;
  const choice = app.querySelector("#room-game");
  if (choice) choice.value = game;
  app.querySelector("#game-fields").innerHTML = gameFieldsHTML(game);
  app.querySelector("#custom-options").innerHTML = customOptionsHTML(game, firstPreset(game));
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
  return {
    game: shownGame(),
    values,
    open: app.querySelector("#custom")?.open ?? false,
    note: app.querySelector("#deck-note")?.dataset.players ?? null,
  };
}

export function restoreChoices(kept) {
  if (!kept) return;
  const form = app.querySelector("#create-form");
  if (form && kept.game && kept.game !== shownGame()) chooseFormGame(kept.game);
  const game = shownGame();
  const preset = kept.values.preset;
  if (form && preset && gameInfo(game)?.presets[preset] && preset !== app.querySelector("#preset").value) {
    app.querySelector("#preset").value = preset;
    app.querySelector("#custom-options").innerHTML = customOptionsHTML(game, preset);
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

/** The form's changes: another game draws its fields; another preset fills the single
 * rules in again; 6 or 8 players. */
export function formChanged(e) {
  if (!rulesMeta()) return;
  if (e.target.id === "room-game") chooseFormGame(e.target.value);
  if (e.target.id === "preset") app.querySelector("#custom-options").innerHTML = customOptionsHTML(shownGame(), e.target.value);
  if (e.target.id === "opt-players") playersChosen(e.target);
}

function readOptions(game, preset) {
  const base = gameInfo(game).presets[preset] ?? {};
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
  const length = app.querySelector("#length")?.value;
  if (length) {
    // The option the length names is set, and the other (if the game has it) is none.
    for (const option of lengthOptions(game)) options[option] = null;
    options[LENGTH_OPTIONS[length[0]]] = Number(length.slice(1));
  }
  return options;
}

/** Make the room the form describes. */
export function createRoom() {
  const game = shownGame();
  const preset = app.querySelector("#preset").value;
  createTable({
    game,
    preset,
    options: readOptions(game, preset),
    bots: app.querySelector("#room-level").value,
    name: playerName(),
    turn_timeout: Number(app.querySelector("#timeout").value) || null,
    start_now: false,
    spectators: app.querySelector("#spectators").checked,
    hints: app.querySelector("#hints").checked,
    chat: app.querySelector("#chat").checked,
  });
}

/** The name field's input: the player's display name from now on (widgets/me.js). */
export function nameInput(e) {
  if (e.target.id === "name") typedName(e.target.value);
}
