// The daily challenge's leaderboards (issue 42; docs/protocol.md "Daily challenge"): a day's,
// /challenge/<day>/leaderboard, and an ISO week's, /challenge/week/<week> (the mean of its
// seven days). Pages of their own rather than tabs drawn inside the challenge's page, so that
// each has an address to share and to go back to, and the tabs at the top (widgets/
// challenge.js) go between the day's deals and both boards: the top 100 (rank, name linking
// to the profile, score, deals played), the player's own row marked and their
// standing said; each says whether its scores are final (after the day's, or the week's last day's, close).
import { t } from "../i18n.js";
import { enterTable } from "../state.js";
import { api, errorText } from "../widgets/api.js";
import { DAY, WEEK, dayText, mondayOf, percentText, shiftDay, tabsHTML, today, weekOf } from "../widgets/challenge.js";
import { esc } from "../widgets/html.js";
import { me } from "../widgets/me.js";
import { message, messageHTML } from "../widgets/message.js";

const app = document.getElementById("app");

/** What the page knows: "day" or "week", the day or week, the server's answer (undefined:
 * not yet), its message, the request's AbortController. */
const L = { kind: "day", key: null, board: undefined, message: null, ctrl: null };

function openBoard(kind, key, valid) {
  enterTable("challenge-leaderboard", null);
  L.ctrl?.abort();
  Object.assign(L, { kind, key, board: undefined, message: null, ctrl: new AbortController() });
  draw();
  if (!valid.test(key)) {
    L.board = null;
    L.message = message("error", () => errorText({ code: "unknown_challenge" }), { code: "unknown_challenge" });
    draw();
    return;
  }
  load(L.ctrl);
}

async function load(ctrl) {
  const path = L.kind === "day" ? `/api/challenge/${encodeURIComponent(L.key)}/leaderboard` : `/api/challenge/week/${encodeURIComponent(L.key)}/leaderboard`;
  try {
    const { data } = await api("GET", path, undefined, ctrl.signal);
    if (L.ctrl !== ctrl) return;
    L.board = data;
  } catch (err) {
    if (err?.code === "aborted" || L.ctrl !== ctrl) return;
    L.board = null;
    L.message = message("error", () => errorText(err), { code: err?.code });
  }
  draw();
}

/** The day whose deals the tabs lead to: the day shown, or in a week today if it is in that
 * week, else the week's Sunday. */
function tabDay() {
  if (L.kind === "day") return L.key;
  const monday = mondayOf(L.key);
  const sunday = shiftDay(monday, 6);
  const now = today();
  return now >= monday && now <= sunday ? now : sunday;
}

function rowHTML(row) {
  const mine = Boolean(row.username) && row.username === me()?.username;
  const name = row.username ? `<a href="/u/${esc(encodeURIComponent(row.username))}">${esc(row.name)}</a>` : esc(row.name);
  return `<tr class="${mine ? "me" : ""}" data-username="${esc(row.username ?? "")}">
    <td class="rank">${esc(row.rank ?? "–")}</td><td class="name">${name}</td>
    <td class="num pct">${esc(percentText(row.score))}</td><td class="games">${esc(row.played)}</td></tr>`;
}

function tableHTML(rows) {
  return `<table class="board-table" id="board-top">
    <thead><tr><th class="rank">${esc(t("leaderboard.rank"))}</th><th class="name">${esc(t("leaderboard.player"))}</th>
    <th class="num pct">${esc(t("challenge.board.score"))}</th><th class="games">${esc(t("challenge.board.deals"))}</th></tr></thead>
    <tbody>${rows.map(rowHTML).join("")}</tbody></table>`;
}

function meHTML(b) {
  const mine = b.me;
  let text;
  if (!me()?.username) text = t("challenge.guest");
  else if (!mine) text = t(L.kind === "day" ? "challenge.board.you.none" : "challenge.board.you.noneweek");
  else if (mine.rank === null || mine.rank === undefined) text = t("challenge.board.you.score", { p: percentText(mine.score) });
  else text = t("challenge.board.you.rank", { rank: mine.rank, p: percentText(mine.score) });
  return `<p class="ch-score" id="board-me">${esc(text)}</p>`;
}

function otherHTML() {
  const links = [];
  if (L.kind === "day") {
    links.push(`<a href="/challenge/${esc(shiftDay(L.key, -1))}/leaderboard" id="board-prev">← ${esc(t("challenge.prev"))}</a>`);
    if (L.key < today()) links.push(`<a href="/challenge/${esc(shiftDay(L.key, 1))}/leaderboard" id="board-next">${esc(t("challenge.next"))} →</a>`);
  } else {
    const monday = mondayOf(L.key);
    links.push(`<a href="/challenge/week/${esc(weekOf(shiftDay(monday, -7)))}" id="board-prev">← ${esc(t("challenge.prevweek"))}</a>`);
    if (shiftDay(monday, 6) < today()) links.push(`<a href="/challenge/week/${esc(weekOf(shiftDay(monday, 7)))}" id="board-next">${esc(t("challenge.nextweek"))} →</a>`);
  }
  return `<nav class="actions ch-days" aria-label="${esc(t("challenge.days"))}">${links.join("")}</nav>`;
}

function draw() {
  const b = L.board;
  const valid = (L.kind === "day" ? DAY : WEEK).test(L.key ?? "");
  let body = "";
  if (b === undefined) body = `<p class="loading">${esc(t("loading"))}</p>`;
  else if (b) {
    const top = b.top.length ? tableHTML(b.top) : `<p id="board-empty">${esc(t("leaderboard.empty"))}</p>`;
    const final = `<p class="hint" id="board-final">${esc(t(`challenge.board.${b.final ? "final" : "notfinal"}${L.kind === "week" ? ".week" : ""}`))}</p>`;
    body = `<section class="panel" id="board-panel">${meHTML(b)}${top}${final}</section>
    <p class="hint">${esc(t(L.kind === "day" ? "challenge.board.note.day" : "challenge.board.note.week"))}</p>`;
  }
  let title;
  if (!valid) title = t("challenge.title");
  else if (L.kind === "day") title = t("challenge.board.title.day", { day: dayText(L.key) });
  else {
    const monday = mondayOf(L.key);
    title = t("challenge.board.title.week", { week: L.key, from: dayText(monday), to: dayText(shiftDay(monday, 6)) });
  }
  app.innerHTML = `<section class="leaderboard challenge" data-page="challenge-leaderboard" data-kind="${esc(L.kind)}" data-key="${esc(L.key)}">
  <h1>${esc(title)}</h1>
  ${valid ? tabsHTML(tabDay(), L.kind) : ""}
  ${messageHTML(L.message, false)}
  ${body}
  ${valid ? otherHTML() : ""}
</section>`;
}

function leave() {
  L.ctrl?.abort();
}

const common = { leave, render: draw, meChanged: () => L.board !== undefined && draw() };

/** A day's leaderboard, /challenge/<day>/leaderboard. */
export const dayBoard = { ...common, open: ({ day }) => openBoard("day", day, DAY) };

/** A week's leaderboard, /challenge/week/<week>. */
export const weekBoard = { ...common, open: ({ week }) => openBoard("week", week, WEEK) };
