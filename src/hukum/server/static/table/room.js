// A table's page before its match: the room, its invite, its seats and who may take them.
import { t } from "../i18n.js";
import { S } from "../state.js";
import { esc } from "../widgets/html.js";
import { tableName } from "../widgets/me.js";
import { messageHTML } from "../widgets/message.js";
import { drawing, mySeat, seatName, seated, teamName, watching } from "./context.js";
import { rulesPanelHTML, tableLabel } from "./game.js";

export function inviteURL() {
  return `${location.origin}/t/${S.code}`;
}

/** Draw the room, replacing only the parts whose HTML changed, as the game does: a click in
 * progress on an unchanged part (e.g. "Fill with bots" while a friend's seat comes online)
 * is not lost, nor a name being typed. */
export function renderRoom(app) {
  let room = app.querySelector("#room");
  if (!room) {
    app.innerHTML = `<section class="room" id="room"><div id="r-head"></div><div id="r-seats"></div><div id="r-actions"></div><div id="r-panel"></div></section>`;
    room = app.querySelector("#room");
  }
  for (const [id, html] of Object.entries(roomParts())) {
    const el = room.querySelector(`#${id}`);
    if (el._html !== html) {
      el.innerHTML = html;
      el._html = html;
    }
  }
}

function roomParts() {
  const seats = S.table.seats ?? [];
  const me = mySeat();
  const waiting = S.table.status === "waiting";
  const empty = seats.some((s) => s.kind === "empty");
  const teams = drawing().teams;
  const rows = seats
    .map((s) => {
      let who;
      if (s.kind === "empty") {
        who = `<span class="empty">${esc(t("room.empty"))}</span>`;
        if (!seated() && waiting)
          who += ` <button class="small" data-action="sit" data-seat="${s.seat}" id="sit-${s.seat}">${esc(t("room.sit"))}</button>`;
      } else {
        who = `<b>${esc(seatName(s.seat))}</b>`;
        if (s.seat === me && seated()) who += ` <span class="tag you">${esc(t("room.you"))}</span>`;
        if (s.kind === "bot") who += ` <span class="tag bot">${esc(t("room.bot"))}</span>`;
        if (s.kind === "human" && !s.connected) who += ` <span class="tag off">${esc(t("room.offline"))}</span>`;
      }
      const team = teams ? ` · ${esc(teamName(s.seat % 2))}` : "";
      return `<li class="seat-row" data-seat="${s.seat}"><span class="seat-no">${esc(t("seat", { n: s.seat + 1 }))}${team}</span> ${who}</li>`;
    })
    .join("");
  let actions = "";
  if (seated() && waiting) {
    actions = `<div class="actions">
      ${empty ? `<button id="fill-bots" data-action="bots">${esc(t("room.bots"))}</button>` : ""}
      <button id="start" class="primary" data-action="start" ${empty ? "disabled" : ""}>${esc(t("room.start"))}</button>
    </div><p class="hint">${esc(t("room.waiting"))}</p>`;
  } else if (!seated() && waiting) {
    const name = tableName();
    actions = `<label class="field name"><span>${esc(t("lobby.name"))}</span>
      <input id="name" maxlength="24" placeholder="${esc(t("lobby.name.placeholder"))}" value="${esc(name)}"></label>
      <p class="hint">${esc(empty ? t("room.pick") : t("room.full"))}</p>`;
  } else if (!seated() && !watching()) {
    actions = `<p class="hint">${esc(t("game.spectator"))}</p>`;
  } else {
    actions = `<p class="hint">${esc(S.wsState === "open" ? t("loading") : t("game.connecting"))}</p>`;
  }
  if (watching()) actions += `<p class="hint" id="watching">${esc(t("watch.room"))}</p>`;
  else if (!seated() && S.table.spectators)
    actions += `<div class="actions"><button id="watch" data-action="watch">${esc(t("watch.button"))}</button></div>`;
  return {
    "r-head": `<h2>${esc(t("room.title", { code: S.code }))}</h2>
  ${messageHTML(S.message)}
  <div class="invite panel">
    <label class="field"><span>${esc(t("room.invite"))}</span>
      <span class="row"><input id="invite-link" readonly value="${esc(inviteURL())}">
      <button id="copy" data-action="copy">${esc(S.copied ? t("room.copied") : t("room.copy"))}</button></span></label>
    <p>${esc(t("room.code"))}: <code id="room-code">${esc(S.code)}</code> · ${esc(tableLabel())}
      · <button class="link" data-action="panel" data-panel="rules">${esc(t("nav.rules"))}</button></p>
  </div>`,
    "r-seats": `<h3>${esc(t("room.seats"))}</h3>
  <ul class="seats">${rows}</ul>`,
    "r-actions": actions,
    "r-panel": S.panel === "rules" ? rulesPanelHTML() : "",
  };
}
