// The match report, /t/<code>/report (GET /api/tables/<code>/report): for each player, the
// tens and points their mistakes cost their side over the match's deals, their mistakes,
// and their three costliest moves, each a link to the analysis board at the position
// before it (/t/<code>/deals/<n>?move=<k>). The deals are analysed on the server first:
// the page asks without waiting and shows how many are done until the report comes.
import { boardPath } from "../board.js";
import { drawing } from "../board/load.js";
import { t } from "../i18n.js";
import { enterTable, S } from "../state.js";
import { teamName } from "../table/context.js";
import { api, errorText } from "../widgets/api.js";
import { esc } from "../widgets/html.js";

const app = document.getElementById("app");

/** How often (ms) the page asks how far the analyses have got. */
const POLL_MS = 500;

/** What the page knows: the table, the report or its progress, why there is none. */
const R = { code: null, seq: 0, report: null, progress: null, busy: 0, error: null, game: null };

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function open({ code }) {
  enterTable("report", code);
  S.token = localStorage.getItem(`hukum.token.${code}`);
  const seq = ++R.seq;
  Object.assign(R, { code, report: null, progress: null, busy: 0, error: null, game: null });
  draw();
  const live = () => seq === R.seq && S.page === "report";
  const base = `/api/tables/${encodeURIComponent(code)}`;
  try {
    const { data } = await api("GET", base);
    if (!live()) return;
    S.table = data;
    R.game = await drawing(data.game).catch(() => null);
  } catch (err) {
    if (!live()) return;
    R.error = err;
    draw();
    return;
  }
  for (;;) {
    if (!live()) return;
    let answer;
    try {
      answer = await api("GET", `${base}/report?wait=false`);
    } catch (err) {
      if (!live()) return;
      if (err?.code !== "busy") {
        R.error = err;
        break;
      }
      R.busy = Math.max(1, Number(err.retry_after) || 5);
      draw();
      await sleep(R.busy * 1000);
      continue;
    }
    if (!live()) return;
    R.busy = 0;
    if (answer.data.status === "done") {
      R.report = answer.data;
      break;
    }
    R.progress = answer.data;
    draw();
    await sleep(POLL_MS);
  }
  draw();
}

/** Why there is no report, in the page's words. */
function errorHTML() {
  const code = R.error.code;
  let text;
  if (code === "unknown_table") text = t("room.notfound");
  else if (code === "match_not_over") text = t("report.notover");
  else if (code === "no_analysis") text = t("report.mindionly");
  else text = errorText(R.error);
  return `<p class="message error" role="alert" id="rp-error" data-code="${esc(code)}">${esc(text)}</p>`;
}

/** Where the analyses are while the report waits for them. */
function progressHTML() {
  let text;
  if (R.busy) text = t("board.busy", { s: R.busy });
  else if (!R.progress) text = t("report.analysing.start");
  else text = t("report.analysing", { k: R.progress.done, n: R.progress.deals });
  return `<p class="loading rp-progress" id="rp-progress" aria-live="polite">${esc(text)}</p>`;
}

/** A move's card as the board draws it (plain text if the game has no drawing here). */
function moveHTML(text) {
  return R.game ? R.game.moveHTML({ t, esc }, text) : esc(text);
}

/** What a move cost, the tens and the points it lost (a part that lost nothing unsaid). */
function costText(c) {
  const parts = [];
  if (c.tens) parts.push(t("report.cost.tens", { n: c.tens }));
  if (c.points) parts.push(t("report.cost.points", { n: c.points }));
  return parts.join(" · ");
}

/** One costly move: a link to the position before it on the board, what it cost, the
 * better cards. */
function costlyHTML(c) {
  const href = boardPath(R.code, c.deal, c.number - 1);
  const better = c.best.length ? ` <span class="rp-better">${esc(t("analysis.better"))} ${c.best.map(moveHTML).join(" ")}</span>` : "";
  return `<li class="rp-move" data-deal="${c.deal}" data-number="${c.number}">
    <a class="rp-link" href="${esc(href)}">${esc(t("report.where", { d: c.deal, n: c.number }))}: ${moveHTML(c.move)}</a>
    <span class="rp-cost">${esc(costText(c))}</span>${better}</li>`;
}

/** One player's part of the report. */
function seatHTML(s) {
  const who = s.kind === "bot" ? ` <small class="hint">${esc(t("report.computer"))}</small>` : "";
  const moves = s.costliest.length
    ? `<h4>${esc(t("report.costliest"))}</h4><ol class="rp-moves">${s.costliest.map(costlyHTML).join("")}</ol>`
    : `<p class="hint rp-clean">${esc(t("report.clean"))}</p>`;
  return `<li class="rp-seat team-${s.team}" id="rp-seat-${s.seat}" data-seat="${s.seat}">
    <h3><span class="rp-name">${esc(s.name)}</span>${who} <small class="rp-team">${esc(teamName(s.team))}</small></h3>
    <p class="rp-figures"><span class="rp-tens" data-tens="${s.tens}">${esc(t("report.tens", { n: s.tens }))}</span>
    <span class="rp-points" data-points="${s.points}">${esc(t("report.points", { n: s.points }))}</span>
    <span class="rp-mistakes" data-mistakes="${s.mistakes}">${esc(t("report.mistakes", { n: s.mistakes, m: s.analysed }))}</span></p>
    ${moves}</li>`;
}

function reportHTML() {
  const r = R.report;
  const partial = r.complete ? "" : `<p class="hint" id="rp-partial">${esc(t("report.partial"))}</p>`;
  return `<p class="hint rp-how">${esc(t("report.how"))}</p>${partial}
    <ol class="rp-seats" id="rp-seats">${r.seats.map(seatHTML).join("")}</ol>`;
}

function draw() {
  const table = `/t/${encodeURIComponent(R.code ?? "")}`;
  let body;
  if (R.error) body = errorHTML();
  else if (R.report) body = reportHTML();
  else body = progressHTML();
  const title = R.code ? `<small>${esc(t("room.title", { code: R.code }))}</small>` : "";
  app.innerHTML = `<section class="rp" id="match-report" data-ready="${R.report ? "1" : "0"}">
    <div class="rp-head"><h2>${esc(t("report.title"))} ${title}</h2>
    <a class="button small" href="${esc(table)}" id="rp-back">← ${esc(t("board.back"))}</a></div>
    ${body}</section>`;
}

export default {
  open,
  leave() {
    R.seq++;
  },
  render: draw,
};
