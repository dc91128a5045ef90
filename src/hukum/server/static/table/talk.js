// The talk panel of a table (docs/protocol.md, "Fair play"): what was said (quick phrases in
// the page's language, free lines as text), the quick-phrase buttons, a free line where the
// room's chat is on, and the other players: block or unblock one, report one once the match
// is over. A blocked player's lines are kept from this browser by the server (its socket
// gets them "hidden", POST /api/tables/<code>/talk leaves them out); the page hides that
// seat's lines too, from the moment it blocks.
import { t } from "../i18n.js";
import { render } from "../router.js";
import { S } from "../state.js";
import { api, errorText } from "../widgets/api.js";
import { esc } from "../widgets/html.js";
import { message } from "../widgets/message.js";
import { send } from "./connection.js";
import { mySeat, seatName, seated, watching } from "./context.js";

/** The quick phrases, by key (hukum.online.fairplay.PHRASES). */
export const PHRASES = ["gl", "wp", "thanks", "oops", "bye"];
/** The reasons of a report (hukum.online.fairplay.REASONS). */
export const REASONS = ["cheating", "abuse", "stalling", "bad_name", "other"];
/** The lines shown at most. */
const SHOWN = 60;

/** What the panel knows of the table shown: made afresh for each table. */
function fresh(code) {
  return { code, lines: new Map(), blocked: new Map(), reporting: null, reported: new Set() };
}
let T = fresh(null);

/** A line said: kept by its event number (the history and the socket may both tell it). */
function keep(line) {
  if (line.hidden || (line.phrase === undefined && line.text === undefined)) return;
  T.lines.set(line.event, { event: line.event, seat: line.seat, name: line.name, phrase: line.phrase, text: line.text });
}

/** Open the panel for table `code`: what was said there, and whom this browser blocked. */
export async function openTalk(code) {
  T = fresh(code);
  try {
    const [talk, blocks] = await Promise.all([
      api("POST", `/api/tables/${encodeURIComponent(code)}/talk`, S.token ? { token: S.token } : {}),
      api("GET", `/api/blocks?table=${encodeURIComponent(code)}`).catch(() => null),
    ]);
    if (T.code !== code) return;
    for (const line of talk.data.lines ?? []) keep(line);
    for (const b of blocks?.data.seats ?? []) T.blocked.set(b.seat, b.handle);
  } catch {
    return; // the table's page says what went wrong with the table itself
  }
  render();
}

// A `said` event on the table's socket (table/connection.js tells it so).
document.addEventListener("hukum:said", (e) => {
  const msg = e.detail;
  if (T.code !== S.code) return;
  keep({ ...msg, name: S.table?.seats?.[msg.seat]?.name ?? "" });
});

/** A line in the page's words: a phrase translated, a free line as text (escaped). */
function lineHTML(line) {
  const words = line.phrase !== undefined ? `<i>${esc(t(`talk.${line.phrase}`))}</i>` : esc(line.text);
  return `<li data-seat="${line.seat}" data-event="${line.event}"><b>${esc(line.name || seatName(line.seat))}</b> ${words}</li>`;
}

function logHTML() {
  const lines = [...T.lines.values()].filter((l) => !T.blocked.has(l.seat)).sort((a, b) => a.event - b.event).slice(-SHOWN);
  if (!lines.length) return `<p class="hint" id="talk-none">${esc(t("talk.none"))}</p>`;
  return `<ol class="talk-log" id="talk-log" aria-live="polite">${lines.map(lineHTML).join("")}</ol>`;
}

/** Whether this page may say something: it holds a seat. */
function mayTalk() {
  return seated() && !watching() && mySeat() !== null;
}

function formHTML() {
  if (!mayTalk()) return "";
  const buttons = PHRASES.map((k) => `<button type="button" class="small" data-action="say" data-phrase="${k}">${esc(t(`talk.${k}`))}</button>`).join(" ");
  const free = S.table?.chat
    ? `<form id="talk-form" class="talk-form"><input id="talk-text" maxlength="200" autocomplete="off" aria-label="${esc(t("talk.text"))}" placeholder="${esc(t("talk.text"))}"><button type="submit">${esc(t("talk.send"))}</button></form>`
    : "";
  return `<div class="talk-phrases" role="group" aria-label="${esc(t("talk.phrases"))}">${buttons}</div>${free}`;
}

function reportHTML(seat) {
  const options = REASONS.map((r) => `<option value="${r}">${esc(t(`reason.${r}`))}</option>`).join("");
  return `<form id="report-form" class="report-form" data-seat="${seat}">
    <strong>${esc(t("talk.report.title", { name: seatName(seat) }))}</strong>
    <label class="field"><span>${esc(t("talk.report.reason"))}</span><select id="report-reason">${options}</select></label>
    <label class="field"><span>${esc(t("talk.report.note"))}</span><textarea id="report-note" maxlength="500" rows="2"></textarea></label>
    <button type="submit" class="primary" id="report-send">${esc(t("talk.report.send"))}</button>
    <button type="button" data-action="report-cancel">${esc(t("talk.report.cancel"))}</button></form>`;
}

function peopleHTML() {
  const me = mySeat();
  const others = (S.table?.seats ?? []).filter((s) => s.kind === "human" && s.seat !== me);
  if (!others.length || !seated()) return "";
  const over = S.table.status === "over";
  const rows = others.map((s) => {
    const blocked = T.blocked.has(s.seat);
    const block = blocked
      ? `<button class="small" data-action="unblock" data-seat="${s.seat}">${esc(t("talk.unblock"))}</button> <span class="hint">${esc(t("talk.blocked"))}</span>`
      : `<button class="small" data-action="block" data-seat="${s.seat}">${esc(t("talk.block"))}</button>`;
    const report = over && !T.reported.has(s.seat) ? ` <button class="small" data-action="report" data-seat="${s.seat}">${esc(t("talk.report"))}</button>` : "";
    return `<li data-seat="${s.seat}"><b>${esc(seatName(s.seat))}</b> ${block}${report}</li>`;
  });
  const open = T.reporting !== null || T.blocked.size ? "open" : "";
  const form = T.reporting !== null ? reportHTML(T.reporting) : "";
  return `<details class="talk-people" id="talk-people" ${open}><summary>${esc(t("talk.people"))}</summary><ul>${rows.join("")}</ul>${form}</details>`;
}

/** Draw the panel into `box`, each part only when it changed (a line being typed is kept). */
export function drawTalk(box) {
  if (!box) return;
  if (!box.firstChild) {
    box.innerHTML = `<section class="panel talk" id="talk"><h3>${esc(t("talk.title"))}</h3><div id="talk-lines"></div><div id="talk-say"></div><div id="talk-who"></div></section>`;
  }
  const parts = { "talk-lines": logHTML(), "talk-say": formHTML(), "talk-who": peopleHTML() };
  for (const [id, html] of Object.entries(parts)) {
    const el = box.querySelector(`#${id}`);
    if (el._html !== html) {
      el.innerHTML = html;
      el._html = html;
      if (id === "talk-lines") el.querySelector(".talk-log")?.lastElementChild?.scrollIntoView?.({ block: "nearest" });
    }
  }
  box.querySelector("h3").textContent = t("talk.title");
}

function fail(err) {
  S.message = message("error", errorText(err), { code: err.code });
  render();
}

async function block(seat) {
  try {
    const { data } = await api("POST", "/api/blocks", { table: S.code, seat });
    T.blocked.set(seat, data.block.handle);
    render();
  } catch (err) {
    fail(err);
  }
}

async function unblock(seat) {
  try {
    await api("DELETE", `/api/blocks/${encodeURIComponent(T.blocked.get(seat))}`);
    T.blocked.delete(seat);
    await openTalk(S.code); // the lines kept from this page meanwhile
  } catch (err) {
    fail(err);
  }
}

/** A click of the panel; whether it was one. */
export function talkClick(e) {
  const el = e.target.closest("[data-action]");
  if (!el || el.disabled || !el.closest("#talk")) return false;
  const seat = Number(el.dataset.seat);
  switch (el.dataset.action) {
    case "say":
      send({ type: "say", phrase: el.dataset.phrase });
      return true;
    case "block":
      block(seat);
      return true;
    case "unblock":
      unblock(seat);
      return true;
    case "report":
      T.reporting = seat;
      render();
      return true;
    case "report-cancel":
      T.reporting = null;
      render();
      return true;
    default:
      return false;
  }
}

async function report(form) {
  const seat = Number(form.dataset.seat);
  const body = { table: S.code, seat, reason: form.querySelector("#report-reason").value, note: form.querySelector("#report-note").value };
  try {
    await api("POST", "/api/reports", body);
    T.reported.add(seat);
    T.reporting = null;
    S.message = message("ok", () => t("talk.report.sent"));
  } catch (err) {
    if (err.code === "already_reported") T.reported.add(seat);
    S.message = message("error", errorText(err), { code: err.code });
  }
  render();
}

/** A form of the panel sent; whether it was one. */
export function talkSubmit(e) {
  const form = e.target.closest?.("#talk-form, #report-form");
  if (!form) return false;
  e.preventDefault();
  if (form.id === "report-form") {
    report(form);
    return true;
  }
  const input = form.querySelector("#talk-text");
  const text = input.value.trim();
  if (text && send({ type: "say", text }) !== null) input.value = "";
  return true;
}
