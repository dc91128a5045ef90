// A private room's rules on a page of their own, /rooms/new: the lobby's room form (a link
// to it can be shared, e.g. "make a room and invite us"); /rooms/new?game=<name> starts it
// at that game.
import { t } from "../i18n.js";
import { S } from "../state.js";
import { esc } from "../widgets/html.js";
import { tableName } from "../widgets/me.js";
import { messageHTML } from "../widgets/message.js";
import { rulesMeta } from "../widgets/rules.js";
import {
  createRoom, formChanged, formGame, keptChoices, nameInput, openWithRules, restoreChoices, roomFormHTML,
} from "../widgets/room-form.js";

const app = document.getElementById("app");

function open() {
  return openWithRules("new-room");
}

function draw() {
  if (!rulesMeta()) {
    app.innerHTML = `<p class="loading">${esc(t("loading"))}</p>`;
    return;
  }
  const kept = keptChoices("new-room");
  const name = tableName();
  const game = formGame(new URLSearchParams(location.search).get("game"));
  app.innerHTML = `<section class="lobby" data-page="new-room">
  ${messageHTML(S.message, false)}
  <label class="field name"><span>${esc(t("lobby.name"))}</span>
    <input id="name" maxlength="24" autocomplete="nickname" placeholder="${esc(t("lobby.name.placeholder"))}" value="${esc(name)}"></label>
  ${game ? `<article class="panel" id="create-panel">
    <h2>${esc(t("lobby.create.title"))}</h2>
    <p>${esc(t("lobby.create.text"))}</p>
    ${roomFormHTML(game)}
  </article>` : ""}
  <p><a href="/" id="to-lobby">${esc(t("room.back"))}</a></p>
</section>`;
  restoreChoices(kept);
}

function submit(e) {
  e.preventDefault();
  if (e.target.id === "create-form") createRoom();
}

export default { open, render: draw, submit, input: nameInput, change: formChanged };
