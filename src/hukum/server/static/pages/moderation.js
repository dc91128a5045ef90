// The moderators' page, /moderation (docs/protocol.md, "Fair play"): the open (or closed)
// reports, each with the reported player's name, the reason and note, the table's record and
// analysis board, what was said there and the player's sanctions; warn, suspend for some
// days or close the account, each with the reason the player sees; lift a sanction; close
// a report. A report the fair-play screening made (reason "screening", no reporter) shows
// the player's tally and the decisions, each a link to its position on the board. Anyone
// else is told the page is for moderators.
import { moveHTML } from "../board/games/mindi.js";
import { t } from "../i18n.js";
import { render } from "../router.js";
import { S, enterTable } from "../state.js";
import { api, errorText } from "../widgets/api.js";
import { esc } from "../widgets/html.js";
import { message, messageHTML } from "../widgets/message.js";
import { loadSanctions, when } from "../widgets/sanction.js";

const app = document.getElementById("app");
let M = { reports: null, closed: false, refused: false };

async function load() {
  try {
    const { data } = await api("GET", `/api/moderation/reports${M.closed ? "?closed=true" : ""}`);
    M.reports = data.reports;
    M.refused = false;
  } catch (err) {
    M.reports = [];
    M.refused = err.code === "not_moderator" || err.code === "no_session";
    if (!M.refused) S.message = message("error", errorText(err), { code: err.code });
  }
  if (S.page === "moderation") render();
}

async function open() {
  enterTable("moderation", null);
  M = { reports: null, closed: false, refused: false };
  render();
  await load();
}

function sanctionHTML(s) {
  const until = s.until ? ` ${esc(t("mod.until", { when: when(s.until) }))}` : "";
  const lifted = s.lifted
    ? ` <span class="hint">${esc(t("mod.lifted", { reason: s.lift_reason }))}</span>`
    : ` <input class="lift-reason" aria-label="${esc(t("mod.lift.reason"))}" placeholder="${esc(t("mod.lift.reason"))}" maxlength="500"> <button class="small" data-action="lift" data-sanction="${s.id}">${esc(t("mod.lift"))}</button>`;
  return `<li data-sanction="${s.id}" data-kind="${esc(s.kind)}"><b>${esc(t(`mod.kind.${s.kind}`))}</b>${until} — ${esc(s.reason)} <span class="hint">${esc(t("mod.nick", { name: s.by }))}, ${esc(when(s.since))}</span>${lifted}</li>`;
}

function talkHTML(lines) {
  if (!lines.length) return `<p class="hint">${esc(t("talk.none"))}</p>`;
  const items = lines.map((l) => `<li><b>${esc(l.name)}</b> ${l.phrase !== undefined ? `<i>${esc(t(`talk.${l.phrase}`))}</i>` : esc(l.text)}</li>`);
  return `<ol class="talk-log">${items.join("")}</ol>`;
}

/** The fair-play screening's evidence: the tally and each hit decision, a link to the board
 * at the position before it, the card played (best only with the hidden hands) and what a
 * player seeing only their hand would choose. */
function screeningHTML(sc) {
  const card = (text) => moveHTML({ t, esc }, text);
  const tally = sc.tally ? `<p class="mod-tally">${esc(t("mod.tally", sc.tally))}</p>` : "";
  const items = sc.decisions.map(
    (d) => `<li class="mod-hit" data-table="${esc(d.table)}" data-deal="${d.deal}" data-number="${d.number}">
      <a href="${esc(d.board)}">${esc(t("mod.hit", d))}</a>: ${card(d.card)}
      <span class="hint">${esc(t("mod.viewed"))} ${d.viewed.map(card).join(" ")}</span></li>`,
  );
  return `${tally}<h4>${esc(t("mod.evidence"))}</h4><ol class="mod-evidence">${items.join("")}</ol>`;
}

function reportHTML(r) {
  const actions = r.closed
    ? ""
    : `<form class="mod-act" data-report="${r.id}">
      <label class="field"><span>${esc(t("mod.reason"))}</span><input name="reason" maxlength="500" required></label>
      <label class="field days"><span>${esc(t("mod.days"))}</span><input name="days" type="number" min="1" max="3650" value="7"></label>
      <div class="controls"><button type="submit" name="kind" value="warn">${esc(t("mod.warn"))}</button>
      <button type="submit" name="kind" value="suspend">${esc(t("mod.suspend"))}</button>
      <button type="submit" name="kind" value="close" class="danger">${esc(t("mod.closeaccount"))}</button>
      <button type="button" data-action="close-report" data-report="${r.id}">${esc(t("mod.closereport"))}</button></div></form>`;
  const seat = r.seat === null ? "?" : r.seat + 1;
  return `<article class="panel mod-report" data-report="${r.id}">
    <h3>${esc(t("mod.report", { name: r.reported.name, seat }))} — ${esc(t(`reason.${r.reason}`))}</h3>
    <p class="hint">${esc(r.screening ? t("mod.byscreening") : t("mod.by", { name: r.reporter }))}, ${esc(when(r.since))}</p>
    ${r.note ? `<blockquote>${esc(r.note)}</blockquote>` : ""}
    <p><a href="${esc(r.record)}">${esc(t("mod.record"))}</a> · <a href="${esc(r.board)}">${esc(t("mod.board"))}</a></p>
    ${r.screening ? screeningHTML(r.screening) : ""}
    <details><summary>${esc(t("mod.talk"))}</summary>${talkHTML(r.talk)}</details>
    <h4>${esc(t("mod.sanctions"))}</h4><ul class="mod-sanctions">${r.sanctions.map(sanctionHTML).join("")}</ul>
    ${actions}</article>`;
}

function renderPage() {
  const head = `<h2>${esc(t("mod.title"))}</h2>`;
  if (M.refused) {
    app.innerHTML = `<section class="moderation">${head}<p class="message error" id="mod-only">${esc(t("mod.only"))}</p></section>`;
    return;
  }
  if (M.reports === null) {
    app.innerHTML = `<section class="moderation">${head}<p class="loading">${esc(t("loading"))}</p></section>`;
    return;
  }
  const tabs = `<div class="controls"><button data-action="tab" data-closed="0" aria-pressed="${!M.closed}">${esc(t("mod.open"))}</button>
    <button data-action="tab" data-closed="1" aria-pressed="${M.closed}">${esc(t("mod.closed"))}</button></div>`;
  const list = M.reports.length ? M.reports.map(reportHTML).join("") : `<p class="hint" id="mod-none">${esc(t("mod.none"))}</p>`;
  app.innerHTML = `<section class="moderation">${head}${tabs}${messageHTML(S.message)}${list}</section>`;
}

async function act(path, body) {
  try {
    await api("POST", path, body);
    S.message = null;
  } catch (err) {
    S.message = message("error", errorText(err), { code: err.code });
  }
  await load();
  loadSanctions(); // the header's link and banner stay true (e.g. a moderator's role revoked)
}

function click(e) {
  const el = e.target.closest("[data-action]");
  if (!el) return;
  if (el.dataset.action === "tab") {
    M.closed = el.dataset.closed === "1";
    load();
  } else if (el.dataset.action === "close-report") {
    act(`/api/moderation/reports/${el.dataset.report}/close`);
  } else if (el.dataset.action === "lift") {
    const reason = el.parentElement.querySelector(".lift-reason").value.trim();
    if (reason) act(`/api/moderation/sanctions/${el.dataset.sanction}/lift`, { reason });
    else el.parentElement.querySelector(".lift-reason").focus();
  }
}

function submit(e) {
  const form = e.target.closest("form.mod-act");
  if (!form) return;
  e.preventDefault();
  const kind = e.submitter?.value ?? "warn";
  const body = { kind, reason: form.elements.reason.value.trim() };
  if (kind === "suspend") body.days = Number(form.elements.days.value);
  act(`/api/moderation/reports/${form.dataset.report}/sanctions`, body);
}

export default { open, render: renderPage, click, submit };
