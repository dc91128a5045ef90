// The lobby, /: play at once (Mindi or Ganjifa, against computer players), make a private
// room, or join one by its code or invite.
import { t } from "../i18n.js";
import { go, render } from "../router.js";
import { S, enterTable } from "../state.js";
import { esc, selectHTML } from "../widgets/html.js";
import { message, messageHTML } from "../widgets/message.js";
import { loadRulesMeta, rulesMeta } from "../widgets/rules.js";
import {
  createRoom, createTable, formChanged, keptChoices, levelOptions, nameInput, playerName, restoreChoices, roomFormHTML,
  savedLevel,
} from "../widgets/room-form.js";
import { isCode } from "../table/connection.js";

const app = document.getElementById("app");

async function open() {
  enterTable("lobby", null);
  render();
  await loadRulesMeta();
  if (S.page === "lobby") render();
}

function renderLobby() {
  if (!rulesMeta()) {
    app.innerHTML = `<p class="loading">${esc(t("loading"))}</p>`;
    return;
  }
  const name = localStorage.getItem("hukum.name") || "";
  const kept = keptChoices("lobby");
  app.innerHTML = `
<section class="lobby" data-page="lobby">
  <p class="tagline">${esc(t("app.tagline"))}</p>
  ${messageHTML(S.message, false)}
  <label class="field name"><span>${esc(t("lobby.name"))}</span>
    <input id="name" maxlength="24" autocomplete="nickname" placeholder="${esc(t("lobby.name.placeholder"))}" value="${esc(name)}"></label>
  <div class="cards3">
  <article class="panel" id="play-panel">
    <h2>${esc(t("lobby.play.title"))}</h2>
    <p>${esc(t("lobby.play.text"))}</p>
    <label class="field"><span>${esc(t("lobby.level"))}</span>${selectHTML("level", levelOptions("mindi"), savedLevel("mindi", "hukum.level"))}</label>
    <button id="play-now" class="primary" data-action="play-now">${esc(t("lobby.play.button"))}</button>
  </article>
  <article class="panel" id="create-panel">
    <h2>${esc(t("lobby.create.title"))}</h2>
    <p>${esc(t("lobby.create.text"))}</p>
    ${roomFormHTML()}
  </article>
  <article class="panel" id="ganjifa-panel">
    <h2>${esc(t("g.lobby.title"))}</h2>
    <p>${esc(t("g.lobby.text"))}</p>
    <label class="field"><span>${esc(t("g.lobby.time"))}</span>${selectHTML("g-time", [["day", t("g.day")], ["night", t("g.night")]], localStorage.getItem("hukum.g.time") || "day")}</label>
    <label class="field"><span>${esc(t("lobby.level"))}</span>${selectHTML("g-level", levelOptions("ganjifa"), savedLevel("ganjifa", "hukum.g.level"))}</label>
    <label class="check"><input type="checkbox" id="g-spectators"> <span>${esc(t("lobby.spectators"))}</span></label>
    <div class="actions"><button id="play-ganjifa" class="primary" data-action="play-ganjifa">${esc(t("g.lobby.play"))}</button>
    <button id="ganjifa-room" data-action="ganjifa-room">${esc(t("g.lobby.room"))}</button></div>
  </article>
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

function playNow() {
  const level = app.querySelector("#level").value;
  localStorage.setItem("hukum.level", level);
  createTable({ preset: "classic", bots: level, name: playerName(), start_now: true });
}

/** Dashavatara Ganjifa: against two computer players at once, or a private room for three. */
function ganjifa(startNow) {
  const time = app.querySelector("#g-time").value;
  const level = app.querySelector("#g-level").value;
  localStorage.setItem("hukum.g.time", time);
  localStorage.setItem("hukum.g.level", level);
  const spectators = app.querySelector("#g-spectators").checked;
  createTable({ game: "ganjifa", options: { time }, bots: level, name: playerName(), start_now: startNow, spectators });
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
  const action = e.target.closest("[data-action]")?.dataset.action;
  if (action === "play-now") playNow();
  else if (action === "play-ganjifa") ganjifa(true);
  else if (action === "ganjifa-room") ganjifa(false);
}

function submit(e) {
  e.preventDefault();
  if (e.target.id === "create-form") createRoom();
  if (e.target.id === "join-form") joinRoom();
}

export default { open, render: renderLobby, click, submit, input: nameInput, change: formChanged };
