// A player's profile, /u/<username> (an account's, anyone may see it) and /profile (mine, a
// guest's too, whom no one else sees) (issue 43; docs/protocol.md "Ratings"): member since,
// the finish rate, each pool's rating with its uncertainty, a "?" while provisional and its
// history drawn by uPlot (widgets/chart.js), and the recent matches, each with its result,
// the rating's change, the other players and a link to the deal's board.
import { getLang, has, t } from "../i18n.js";
import { POOLS } from "../games/pools.js";
import { enterTable } from "../state.js";
import { api, errorText } from "../widgets/api.js";
import { drawHistory } from "../widgets/chart.js";
import { esc } from "../widgets/html.js";
import { refreshMe } from "../widgets/me.js";
import { message, messageHTML } from "../widgets/message.js";
import { ratingHTML } from "../widgets/rating.js";

const app = document.getElementById("app");

/** What the page knows: whose profile (null: mine), the server's answer (undefined: not
 * yet), its message, the charts drawn (destroyed before the page is drawn again). */
const F = { username: null, profile: undefined, message: null, ctrl: null, charts: [] };

function open({ username = null } = {}) {
  enterTable("profile", null);
  F.ctrl?.abort();
  Object.assign(F, { username, profile: undefined, message: null, ctrl: new AbortController() });
  draw();
  load(F.ctrl);
}

async function load(ctrl) {
  const path = F.username === null ? "/api/me/profile" : `/api/players/${encodeURIComponent(F.username)}`;
  try {
    if (F.username === null) await refreshMe(); // a first visit: a guest, with a profile
    F.profile = (await api("GET", path, undefined, ctrl.signal)).data;
  } catch (err) {
    if (err?.code === "aborted") return;
    F.profile = null;
    F.message = message("error", () => errorText(err), { code: err?.code });
  }
  if (F.ctrl === ctrl) draw();
}

/** Whether this browser names the months in the page's language (some builds of
 * chromium have no Punjabi names and write "M12"): else dates are written in figures. */
function monthNames() {
  const month = new Intl.DateTimeFormat(getLang(), { month: "long" }).format(new Date(2026, 11, 7));
  return !/^M\d/.test(month);
}

/** A date (and time) as the page's language writes it. */
function date(iso, time = false) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const named = monthNames();
  const day = named ? { dateStyle: time ? "medium" : "long" } : { year: "numeric", month: "2-digit", day: "2-digit" };
  const hour = !time ? {} : named ? { timeStyle: "short" } : { hour: "2-digit", minute: "2-digit" };
  return d.toLocaleString(getLang(), { ...day, ...hour });
}

/** The pools in the page's order (games/pools.js's), then any other the server names. */
function poolsOf(ratings) {
  const names = POOLS.map((p) => p.name).filter((name) => ratings[name]);
  return [...names, ...Object.keys(ratings).filter((name) => !names.includes(name))];
}

function poolName(name) {
  return has(`pool.${name}`) ? t(`pool.${name}`) : name;
}

function headHTML(p) {
  const finish =
    p.finish_rate === null || p.finish_rate === undefined
      ? t("profile.finish.none")
      : t("profile.finish", { p: Math.round(p.finish_rate * 100), finished: p.finished, left: p.left });
  return `<h1 id="profile-name">${esc(p.name)}</h1>
  ${p.username ? `<p class="hint" id="profile-username">@${esc(p.username)}</p>` : `<p class="hint" id="profile-guest">${esc(t("profile.guest"))}</p>`}
  <p id="profile-since">${esc(t("profile.since", { date: date(p.member_since) }))}</p>
  <p id="profile-finish" data-rate="${esc(p.finish_rate ?? "")}">${esc(finish)}</p>`;
}

function ratingsHTML(p) {
  const pools = poolsOf(p.ratings ?? {});
  if (!pools.length) return `<section class="panel"><h2>${esc(t("profile.ratings"))}</h2><p id="profile-norating">${esc(t("profile.noratings"))}</p></section>`;
  const cards = pools.map((name) => {
    const r = p.ratings[name];
    return `<article class="panel profile-rating" id="rating-${esc(name)}" data-pool="${esc(name)}">
      <h3>${esc(poolName(name))}</h3>
      <p class="profile-rating-line">${ratingHTML(r)} <span class="hint">${esc(t("profile.games", { games: r.games, wins: r.wins }))}</span></p>
      ${r.history?.length ? `<div class="chart" id="chart-${esc(name)}" role="img" aria-label="${esc(t("profile.chart", { pool: poolName(name) }))}"></div>` : ""}
    </article>`;
  });
  return `<section><h2>${esc(t("profile.ratings"))}</h2><div class="profile-ratings">${cards.join("")}</div></section>`;
}

function changeText(change) {
  if (change === null || change === undefined) return t("profile.unrated");
  return change > 0 ? `+${change}` : change < 0 ? `−${-change}` : "±0";
}

/** One seat of a match; the profile's owner's own seat (``seat``) marked. */
function playerHTML(player, seat) {
  const bot = player.bot ? ` <span class="tag bot">${esc(has(`level.${player.bot}`) ? t("bot.name", { level: t(`level.${player.bot}`) }) : t("room.bot"))}</span>` : "";
  return `<li${player.seat === seat ? ' class="owner"' : ""}>${esc(player.name)}${bot}</li>`;
}

function matchHTML(m) {
  const board = typeof m.board === "string" && m.board.startsWith("/t/") ? m.board : null;
  return `<li class="match result-${esc(m.result)}" data-room="${esc(m.room)}">
    <div class="match-head"><strong class="match-result">${esc(t(`profile.result.${m.result}`))}</strong>
      ${m.left ? `<span class="tag off">${esc(t("profile.left"))}</span>` : ""}
      <span class="match-change">${esc(changeText(m.change))}</span>
      <span class="hint">${esc(poolName(m.pool))} · ${esc(date(m.at, true))}</span></div>
    <ul class="match-players">${(m.players ?? []).map((p) => playerHTML(p, m.seat)).join("")}</ul>
    ${board ? `<a class="match-board" href="${esc(board)}">${esc(t("profile.board"))}</a>` : ""}
  </li>`;
}

function matchesHTML(p) {
  const matches = p.matches ?? [];
  const list = matches.length ? `<ul class="matches" id="profile-matches">${matches.map(matchHTML).join("")}</ul>` : `<p>${esc(t("profile.nomatches"))}</p>`;
  return `<section class="panel"><h2>${esc(t("profile.matches"))}</h2>${list}</section>`;
}

function draw() {
  for (const chart of F.charts) chart.destroy();
  F.charts = [];
  const p = F.profile;
  const body = p === undefined ? `<p class="loading">${esc(t("loading"))}</p>` : p ? `${headHTML(p)}${ratingsHTML(p)}${matchesHTML(p)}` : "";
  app.innerHTML = `<section class="profile" data-page="profile">
  ${p ? "" : `<h1>${esc(t(F.username === null ? "online.profile" : "profile.title"))}</h1>`}
  ${messageHTML(F.message, false)}
  ${body}
</section>`;
  if (p) drawCharts(p, F.ctrl);
}

async function drawCharts(p, ctrl) {
  for (const name of poolsOf(p.ratings ?? {})) {
    const el = document.getElementById(`chart-${name}`);
    if (!el) continue;
    try {
      const chart = await drawHistory(el, p.ratings[name].history, poolName(name));
      if (chart && F.ctrl === ctrl && el.isConnected) F.charts.push(chart);
      else chart?.destroy();
    } catch {
      el.hidden = true; // no chart (uPlot did not load): the numbers above say the rating
    }
  }
}

function leave() {
  F.ctrl?.abort();
  for (const chart of F.charts) chart.destroy();
  F.charts = [];
}

export default { open, leave, render: draw };
