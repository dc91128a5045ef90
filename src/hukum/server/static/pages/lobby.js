// The lobby, /: "Play online" at the top (widgets/online.js: quick match, a party, the
// leaderboards, the profile); a panel for every game the server offers (GET /api/rules,
// `games`, in its order) to play it at once against computer players or set up its private
// room; the room's form; joining a room by its code or invite. What is a game's own (its
// panel's ids and words, the options asked on it) comes from its drawing's `lobby`
// (games/<name>.js); a game without one gets a panel from its rules alone.
import { t } from "../i18n.js";
import { lobbyOf } from "../games/index.js";
import { go, render } from "../router.js";
import { S } from "../state.js";
import { esc, selectHTML } from "../widgets/html.js";
import { tableName } from "../widgets/me.js";
import { message, messageHTML } from "../widgets/message.js";
import { onlineClick, onlineHTML } from "../widgets/online.js";
import { rulesMeta, valueLabel } from "../widgets/rules.js";
import {
  chooseFormGame, createRoom, createTable, formChanged, formGame, gameInfo, gameName, gamesInfo, keptChoices,
  levelOptions, nameInput, openWithRules, playerName, restoreChoices, roomFormHTML, savedLevel,
} from "../widgets/room-form.js";
import { isCode } from "../table/connection.js";

const app = document.getElementById("app");

function open() {
  return openWithRules("lobby");
}

/** The ids of game `name`'s panel: its drawing's, else made from its name. `prefix` starts
 * the ids of the panel's fields (`<prefix>level`, `<prefix><option>`, `<prefix>watch`). */
function panelIds(name) {
  return { panel: `${name}-panel`, play: `play-${name}`, room: `${name}-room`, prefix: `${name}-`, ...lobbyOf(name).ids };
}

/** Where this browser keeps a panel's choice `field` ("level", an option's name): hukum.level,
 * hukum.g.time, … (the prefix's dash a dot). */
function storageKey(name, field) {
  return `hukum.${panelIds(name).prefix.replace(/-$/, ".")}${field}`;
}

/** The options game `name` asks on its panel (its drawing's `quick`), each with the server's
 * schema of it; only options with choices. */
function quickOptions(name) {
  const options = gameInfo(name).options;
  return (lobbyOf(name).quick ?? [])
    .map((q) => ({ ...q, option: options.find((o) => o.name === q.name) }))
    .filter((q) => q.option && Array.isArray(q.option.values) && q.option.values.length);
}

function quickField(name, q) {
  const { prefix } = panelIds(name);
  const info = gameInfo(name);
  const preset = info.presets[info.default_preset] ?? {};
  const values = q.option.values.map(String);
  const saved = localStorage.getItem(storageKey(name, q.name));
  const chosen = values.includes(saved) ? saved : String(preset[q.name] ?? q.option.default);
  const items = q.option.values.map((v) => [String(v), q.value ? t(q.value(v)) : valueLabel(v)]);
  const label = q.label ? t(q.label) : q.option.description;
  return `<label class="field"><span>${esc(label)}</span>${selectHTML(`${prefix}${q.name}`, items, chosen)}</label>`;
}

/** Game `name`'s panel: play it now against computer players, or set up its private room. */
function panelHTML(name) {
  const lobby = lobbyOf(name);
  const ids = panelIds(name);
  return `<article class="panel game-panel" id="${esc(ids.panel)}" data-game="${esc(name)}">
    <h2>${esc(lobby.title ? t(lobby.title) : gameName(name))}</h2>
    ${lobby.text ? `<p>${esc(t(lobby.text))}</p>` : ""}
    ${quickOptions(name).map((q) => quickField(name, q)).join("")}
    <label class="field"><span>${esc(t("lobby.level"))}</span>${selectHTML(`${ids.prefix}level`, levelOptions(name), savedLevel(name, storageKey(name, "level")))}</label>
    <label class="check"><input type="checkbox" id="${esc(ids.prefix)}watch"> <span>${esc(t("lobby.spectators"))}</span></label>
    <div class="actions"><button id="${esc(ids.play)}" class="primary" data-action="play" data-game="${esc(name)}">${esc(t(lobby.playButton ?? "lobby.play.button"))}</button>
    <button id="${esc(ids.room)}" data-action="room" data-game="${esc(name)}">${esc(t(lobby.roomButton ?? "lobby.room"))}</button></div>
  </article>`;
}

function renderLobby() {
  if (!rulesMeta()) {
    app.innerHTML = `<p class="loading">${esc(t("loading"))}</p>`;
    return;
  }
  const name = tableName();
  const kept = keptChoices("lobby");
  const games = Object.keys(gamesInfo());
  app.innerHTML = `
<section class="lobby" data-page="lobby">
  <p class="tagline">${esc(t("app.tagline"))}</p>
  ${messageHTML(S.message, false)}
  ${onlineHTML()}
  <label class="field name"><span>${esc(t("lobby.name"))}</span>
    <input id="name" maxlength="24" autocomplete="nickname" placeholder="${esc(t("lobby.name.placeholder"))}" value="${esc(name)}"></label>
  <div class="cards3">
  ${games.map(panelHTML).join("\n  ")}
  ${games.length ? `<article class="panel" id="create-panel">
    <h2>${esc(t("lobby.create.title"))}</h2>
    <p>${esc(t("lobby.create.text"))}</p>
    ${roomFormHTML(formGame(null))}
  </article>` : ""}
  <article class="panel" id="join-panel">
    <h2>${esc(t("lobby.join.title"))}</h2>
    <p>${esc(t("lobby.join.text"))}</p>
    <form id="join-form">
      <input id="join-code" autocomplete="off" placeholder="${esc(t("lobby.join.placeholder"))}" aria-label="${esc(t("lobby.join.placeholder"))}">
      <button id="join" type="submit">${esc(t("lobby.join.button"))}</button>
    </form>
  </article>
  </div>
</section>`;
  restoreChoices(kept);
}

/** Play game `name` at once against computer players: its default preset, the options asked
 * on its panel and the level chosen there (each kept for the next visit). */
function playNow(name) {
  const ids = panelIds(name);
  const options = {};
  for (const q of quickOptions(name)) {
    const chosen = app.querySelector(`#${ids.prefix}${q.name}`).value;
    options[q.name] = q.option.values.find((v) => String(v) === chosen);
    localStorage.setItem(storageKey(name, q.name), chosen);
  }
  const level = app.querySelector(`#${ids.prefix}level`).value;
  localStorage.setItem(storageKey(name, "level"), level);
  createTable({
    game: name,
    preset: gameInfo(name).default_preset,
    options,
    bots: level,
    name: playerName(),
    start_now: true,
    spectators: app.querySelector(`#${ids.prefix}watch`).checked,
  });
}

/** Set up a private room of game `name`: the room's form is drawn for it and shown. */
function roomOf(name) {
  chooseFormGame(name);
  app.querySelector("#create-panel").scrollIntoView({ block: "nearest" });
  app.querySelector("#preset").focus({ preventScroll: true });
}

function joinRoom() {
  const text = app.querySelector("#join-code").value.trim();
  const m = text.match(/\/t\/([^/?#\s]+)/);
  const code = (m ? m[1] : text).toLowerCase();
  if (!isCode(code)) {
    S.message = message("error", t("lobby.join.bad"));
    render();
    return;
  }
  go(`/t/${code}`);
}

function click(e) {
  if (
    onlineClick(e, (m) => {
      S.message = m;
      render();
    })
  )
    return;
  const button = e.target.closest("[data-action]");
  const name = button?.dataset.game;
  if (!name || !gameInfo(name)) return;
  if (button.dataset.action === "play") playNow(name);
  else if (button.dataset.action === "room") roomOf(name);
}

function submit(e) {
  e.preventDefault();
  if (e.target.id === "create-form") createRoom();
  if (e.target.id === "join-form") joinRoom();
}

export default { open, render: renderLobby, click, submit, input: nameInput, change: formChanged };
