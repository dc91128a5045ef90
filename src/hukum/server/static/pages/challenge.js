// The daily challenge, /challenge (today, UTC) and /challenge/<day> (issue 42; docs/protocol.md
// "Daily challenge"): the day's rules and the countdown to its close, its 8 deals, each with
// its state (play, resume, played with the player's percentage, locked), its commitment
// (short, the whole on demand) and, once the day has closed, its seed and the
// `hukum verify` command that checks it and the way to the player's board of it; the
// player's score of the day; the field's results of a deal the player finished (or of any
// deal after the close), from the deal's row. A guest is told to claim an account to play.
import { t } from "../i18n.js";
import { go } from "../router.js";
import { enterTable } from "../state.js";
import { api, errorText } from "../widgets/api.js";
import { DAY, dayText, percentText, shiftDay, tabsHTML, today } from "../widgets/challenge.js";
import { esc } from "../widgets/html.js";
import { me } from "../widgets/me.js";
import { message, messageHTML } from "../widgets/message.js";

const app = document.getElementById("app");
/** How many hex digits of a commitment the row shows before "…". */
const SHORT = 12;

/** What the page knows: the day asked (null: today), the server's answer (undefined: not
 * yet), its message, the fields of the deals asked (number -> {rows} | {error} |
 * {loading}), the deals whose field is shown, the request's AbortController, the timer. */
const C = { day: null, data: undefined, message: null, fields: new Map(), open: new Set(), ctrl: null, timer: null, busy: false, asks: 0, again: null, text: null };

/** While one of the player's deals is started and not finished (just ended, its result
 * being written; or played on another device), the day is asked again: soon at first, then
 * seldom. */
function againIn() {
  return C.asks < 10 ? 3000 : 30000;
}

function open({ day } = {}) {
  enterTable("challenge", null);
  C.ctrl?.abort();
  clearInterval(C.timer);
  clearTimeout(C.again);
  Object.assign(C, { day: day ?? null, data: undefined, message: null, fields: new Map(), open: new Set(), ctrl: new AbortController(), busy: false, asks: 0, text: null });
  C.timer = setInterval(tick, 1000);
  draw();
  if (day !== undefined && !DAY.test(day)) {
    C.data = null;
    C.message = message("error", () => errorText({ code: "unknown_challenge" }), { code: "unknown_challenge" });
    draw();
    return;
  }
  load(C.ctrl);
}

async function load(ctrl) {
  const path = C.day ? `/api/challenge/${encodeURIComponent(C.day)}` : "/api/challenge";
  try {
    const { data, text } = await api("GET", path, undefined, ctrl.signal);
    if (C.ctrl !== ctrl) return;
    const same = text === C.text;
    C.data = data;
    C.text = text;
    clearTimeout(C.again);
    if (!data.closed && data.deals.some((d) => d.played && !d.finished)) {
      C.again = setTimeout(() => C.ctrl === ctrl && !ctrl.signal.aborted && load(ctrl), againIn());
      C.asks += 1;
    }
    if (same) return; // asked again, nothing changed: the page stays as it is
  } catch (err) {
    if (err?.code === "aborted" || C.ctrl !== ctrl) return;
    if (C.data && err?.code === "network") {
      // Asked again and not answered: the day as last known stays; ask later.
      C.again = setTimeout(() => C.ctrl === ctrl && !ctrl.signal.aborted && load(ctrl), 30000);
      return;
    }
    C.data = null;
    C.message = message("error", () => errorText(err), { code: err?.code });
  }
  draw();
}

/** Seconds until the day closes (by this device's clock), or null. */
function secondsLeft() {
  if (!C.data || C.data.closed) return null;
  return Math.max(0, Math.floor((Date.parse(C.data.closes_at) - Date.now()) / 1000));
}

function countdownText() {
  const left = secondsLeft();
  if (left === null) return t("challenge.closed");
  const h = Math.floor(left / 3600);
  const m = Math.floor((left % 3600) / 60);
  const s = left % 60;
  return t("challenge.closes", { h, m: String(m).padStart(2, "0"), s: String(s).padStart(2, "0") });
}

/** Every second: the countdown; at the close, the day again from the server (its seeds). */
function tick() {
  const el = document.getElementById("challenge-countdown");
  if (el && C.data && !C.data.closed) el.textContent = countdownText();
  if (C.data && !C.data.closed && secondsLeft() === 0 && !C.busy) {
    C.busy = true;
    // The day shown stays the day shown (at /challenge, today becomes tomorrow).
    C.day = C.data.day;
    setTimeout(() => {
      C.busy = false;
      if (C.data) load(C.ctrl);
    }, 2000);
  }
}

function guest() {
  const player = me();
  return !player || !player.username;
}

/** The `hukum verify` command that checks a deal's seed against its commitment. */
function verifyCommand(deal) {
  return `hukum verify --seed ${deal.seed} --commitment ${deal.commitment} --dealer ${deal.dealer} --preset ${C.data.preset}`;
}

/** A deal's state: "played" (finished), "resume" (started, not finished), "play", or
 * "locked" (closed, or a guest's). */
function stateOf(deal) {
  if (deal.finished) return "played";
  if (C.data.closed) return deal.played ? "unfinished" : "locked";
  if (guest()) return "locked";
  return deal.played ? "resume" : "play";
}

function stateHTML(deal, state) {
  const n = deal.number;
  if (state === "played") return `<span class="ch-state ch-played">${esc(t("challenge.played", { p: percentText(deal.percent) }))}</span>`;
  if (state === "unfinished") return `<span class="ch-state ch-locked">${esc(t("challenge.unfinished"))}</span>`;
  if (state === "locked") return `<span class="ch-state ch-locked">🔒 ${esc(t(C.data.closed ? "challenge.locked.closed" : "challenge.locked.guest"))}</span>`;
  const label = t(state === "resume" ? "challenge.resume" : "challenge.play", { n });
  return `<button type="button" class="primary ch-play" id="play-${n}" data-play="${n}">${esc(label)}</button>`;
}

/** The field of a deal (its results), as a table, the player's row marked. */
function fieldHTML(deal) {
  const f = C.fields.get(deal.number);
  if (!f || f.loading) return `<p class="loading">${esc(t("loading"))}</p>`;
  if (f.error) return `<p class="message error" role="alert">${esc(errorText(f.error))}</p>`;
  if (!f.rows.length) return `<p class="hint">${esc(t("challenge.field.empty"))}</p>`;
  const rows = f.rows
    .map(
      (r) => `<tr class="${r.you ? "me" : ""}"><td class="name">${r.username ? `<a href="/u/${esc(encodeURIComponent(r.username))}">${esc(r.name)}</a>` : esc(r.name)}</td>
      <td class="num">${esc(r.tens ?? "–")}</td><td class="num">${esc(r.tricks ?? "–")}</td><td class="num pct">${esc(percentText(r.percent))}</td></tr>`,
    )
    .join("");
  return `<table class="board-table ch-field" id="field-${deal.number}">
    <caption class="hint">${esc(t("challenge.field.caption", { n: deal.number }))}</caption>
    <thead><tr><th class="name">${esc(t("leaderboard.player"))}</th><th class="num">${esc(t("score.tens"))}</th>
    <th class="num">${esc(t("score.tricks"))}</th><th class="num pct">%</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function dealHTML(deal) {
  const n = deal.number;
  const state = stateOf(deal);
  const short = `${deal.commitment.slice(0, SHORT)}…`;
  const commitment = `<details class="ch-commit" id="commit-${n}"><summary>${esc(t("challenge.commitment"))} <code>${esc(short)}</code></summary>
    <code class="ch-long" id="commitment-${n}">${esc(deal.commitment)}</code></details>`;
  let reveal = "";
  if (C.data.closed && deal.seed) {
    reveal = `<div class="ch-reveal"><p>${esc(t("challenge.seed"))} <code class="ch-long" id="seed-${n}">${esc(deal.seed)}</code></p>
      <p>${esc(t("challenge.verify"))}</p><pre class="ch-command" id="verify-${n}"><code>${esc(verifyCommand(deal))}</code></pre></div>`;
  }
  const links = [];
  const mayField = deal.finished || C.data.closed;
  if (mayField && deal.field > 0) {
    const shown = C.open.has(n);
    links.push(`<button type="button" class="small ch-results" id="results-${n}" data-results="${n}" aria-expanded="${shown}" aria-controls="field-box-${n}">${esc(t(shown ? "challenge.results.hide" : "challenge.results"))}</button>`);
  }
  if (C.data.closed && deal.room && deal.finished) {
    links.push(`<a class="button small" id="board-${n}" href="/t/${esc(encodeURIComponent(deal.room))}/deals/1">${esc(t("challenge.board"))}</a>`);
  }
  const field = C.open.has(n) ? `<div class="ch-field-box" id="field-box-${n}">${fieldHTML(deal)}</div>` : "";
  return `<li class="ch-deal" id="deal-${n}" data-number="${n}" data-state="${state}">
    <div class="ch-deal-head"><h3>${esc(t("challenge.deal", { n }))}</h3>
      <span class="hint">${esc(t(`challenge.dealer.${deal.dealer}`))} · ${esc(t(deal.field === 0 ? "challenge.field.none" : deal.field === 1 ? "challenge.field.one" : "challenge.field.count", { n: deal.field }))}</span></div>
    <div class="ch-deal-state">${stateHTML(deal, state)}</div>
    ${commitment}${reveal}
    ${links.length ? `<div class="actions ch-links">${links.join("")}</div>` : ""}
    ${field}
  </li>`;
}

function scoreHTML(d) {
  if (guest()) {
    return `<p class="message warn ch-guest" id="challenge-guest">${esc(t("challenge.guest"))} <a href="/account" id="challenge-claim">${esc(t("challenge.claim"))}</a></p>`;
  }
  const text = d.score === null || d.score === undefined ? t("challenge.score.none") : t("challenge.score", { p: percentText(d.score) });
  return `<p class="ch-score" id="challenge-score">${esc(text)}</p>`;
}

function draw() {
  const d = C.data;
  const day = d?.day ?? C.day;
  let body = "";
  if (d === undefined) body = `<p class="loading">${esc(t("loading"))}</p>`;
  else if (d) {
    const nav = [`<a href="/challenge/${esc(shiftDay(d.day, -1))}" id="challenge-prev">← ${esc(t("challenge.prev"))}</a>`];
    if (d.day < today()) nav.push(`<a href="/challenge/${esc(shiftDay(d.day, 1))}" id="challenge-next">${esc(t("challenge.next"))} →</a>`);
    body = `${tabsHTML(d.day, "deals")}
    <section class="panel ch-rules" id="challenge-rules">
      <p><b>${esc(t("challenge.rules.preset"))}</b> ${esc(t(`preset.${d.preset}`))}</p>
      <p>${esc(t("challenge.rules"))}</p>
      <p class="ch-countdown" id="challenge-countdown" role="timer">${esc(countdownText())}</p>
      ${scoreHTML(d)}
    </section>
    <ol class="ch-deals" id="challenge-deals">${d.deals.map(dealHTML).join("")}</ol>
    <p class="hint">${esc(t(d.closed ? "challenge.note.closed" : "challenge.note.open"))}</p>
    <nav class="actions ch-days" aria-label="${esc(t("challenge.days"))}">${nav.join("")}</nav>`;
  }
  const focused = document.activeElement?.id;
  const opened = [...app.querySelectorAll("details[open]")].map((el) => el.id);
  app.innerHTML = `<section class="challenge" data-page="challenge" data-day="${esc(day ?? "")}" data-closed="${d ? String(Boolean(d.closed)) : ""}">
  <h1>${esc(day ? t("challenge.title.day", { day: dayText(day) }) : t("challenge.title"))}</h1>
  ${messageHTML(C.message, false)}
  ${body}
</section>`;
  for (const id of opened) document.getElementById(id)?.setAttribute("open", "");
  if (focused) document.getElementById(focused)?.focus({ preventScroll: true });
}

/** Show or hide the field of deal `n`; shown, its results are asked (again). */
async function toggleField(n) {
  if (C.open.has(n)) {
    C.open.delete(n);
    draw();
    return;
  }
  C.open.add(n);
  C.fields.set(n, { loading: true });
  draw();
  const ctrl = C.ctrl;
  try {
    const { data } = await api("GET", `/api/challenge/${encodeURIComponent(C.data.day)}/deals/${n}/results`, undefined, ctrl.signal);
    if (C.ctrl !== ctrl) return;
    C.fields.set(n, { rows: Array.isArray(data) ? data : (data.results ?? []) });
  } catch (err) {
    if (err?.code === "aborted" || C.ctrl !== ctrl) return;
    C.fields.set(n, { error: err });
  }
  draw();
}

async function play(n, button) {
  button.disabled = true;
  try {
    const { data } = await api("POST", `/api/challenge/${encodeURIComponent(C.data.day)}/deals/${n}/play`, {});
    go(`/t/${encodeURIComponent(data.code)}`);
  } catch (err) {
    C.message = message("error", () => errorText(err), { code: err?.code });
    draw();
  }
}

function click(e) {
  const playing = e.target.closest?.("[data-play]");
  if (playing && !playing.disabled) {
    play(Number(playing.dataset.play), playing);
    return;
  }
  const results = e.target.closest?.("[data-results]");
  if (results) toggleField(Number(results.dataset.results));
}

function leave() {
  C.ctrl?.abort();
  clearInterval(C.timer);
  clearTimeout(C.again);
}

export default { open, leave, render: draw, click, meChanged: () => C.data !== undefined && draw() };
