// A pool's leaderboard, /leaderboard/<pool> (issue 43; docs/protocol.md "Ratings"): a tab
// per pool, the top 100 (rank, name linking to the profile, rating with its uncertainty and
// a "?" while provisional, games) and the rows around the player, theirs highlighted.
import { t } from "../i18n.js";
import { POOLS, poolNamed } from "../games/pools.js";
import { enterTable } from "../state.js";
import { api, errorText } from "../widgets/api.js";
import { esc } from "../widgets/html.js";
import { me } from "../widgets/me.js";
import { message, messageHTML } from "../widgets/message.js";
import { ratingHTML } from "../widgets/rating.js";

const app = document.getElementById("app");

/** What the page knows: the pool, the server's answer (undefined: not yet), its message. */
const L = { pool: null, board: undefined, message: null, ctrl: null };

function open({ pool }) {
  enterTable("leaderboard", null);
  L.ctrl?.abort();
  Object.assign(L, { pool, board: undefined, message: null, ctrl: new AbortController() });
  draw();
  if (!poolNamed(pool)) {
    L.board = null;
    L.message = message("error", () => errorText({ code: "unknown_pool" }), { code: "unknown_pool" });
    draw();
    return;
  }
  load(L.ctrl);
}

async function load(ctrl) {
  try {
    const { data } = await api("GET", `/api/leaderboard/${encodeURIComponent(L.pool)}`, undefined, ctrl.signal);
    L.board = data;
  } catch (err) {
    if (err?.code === "aborted") return;
    L.board = null;
    L.message = message("error", () => errorText(err), { code: err?.code });
  }
  if (L.ctrl === ctrl) draw();
}

function tabsHTML() {
  const tabs = POOLS.map(
    (p) => `<a class="tab" id="tab-${esc(p.name)}" href="/leaderboard/${esc(p.name)}"${p.name === L.pool ? ' aria-current="page"' : ""}>${esc(t(`pool.${p.name}`))}</a>`,
  );
  return `<nav class="tabs" aria-label="${esc(t("leaderboard.pools"))}">${tabs.join("")}</nav>`;
}

/** A row of the board; the player's own highlighted. */
function rowHTML(row) {
  const mine = Boolean(row.username) && row.username === me()?.username;
  const name = row.username ? `<a href="/u/${esc(encodeURIComponent(row.username))}">${esc(row.name)}</a>` : esc(row.name);
  return `<tr class="${mine ? "me" : ""}" data-username="${esc(row.username ?? "")}">
    <td class="rank">${esc(row.rank ?? "–")}</td><td class="name">${name}</td>
    <td class="rating-cell">${ratingHTML(row)}</td><td class="games">${esc(row.games)}</td></tr>`;
}

function tableHTML(id, rows) {
  return `<table class="board-table" id="${id}">
    <thead><tr><th class="rank">${esc(t("leaderboard.rank"))}</th><th class="name">${esc(t("leaderboard.player"))}</th>
    <th class="rating-cell">${esc(t("leaderboard.rating"))}</th><th class="games">${esc(t("leaderboard.games"))}</th></tr></thead>
    <tbody>${rows.map(rowHTML).join("")}</tbody></table>`;
}

function meHTML(b) {
  const mine = b.me;
  let text;
  if (!mine) text = `<p id="board-me">${esc(t("leaderboard.you.none"))}</p>`;
  else if (mine.rank === null) {
    text = `<p id="board-me">${esc(t("leaderboard.you.unranked"))} ${ratingHTML(mine)}</p>`;
  } else text = `<p id="board-me">${esc(t("leaderboard.you.rank", { rank: mine.rank }))} ${ratingHTML(mine)}</p>`;
  const around = b.around?.length ? tableHTML("board-around", b.around) : "";
  return `<section class="panel" id="around-panel"><h2>${esc(t("leaderboard.around"))}</h2>${text}${around}</section>`;
}

function draw() {
  const b = L.board;
  let body = "";
  if (b === undefined) body = `<p class="loading">${esc(t("loading"))}</p>`;
  else if (b) {
    const top = b.top.length ? tableHTML("board-top", b.top) : `<p id="board-empty">${esc(t("leaderboard.empty"))}</p>`;
    body = `<section class="panel"><h2>${esc(t("leaderboard.top"))}</h2>${top}</section>${meHTML(b)}
    <p class="hint">${esc(t("leaderboard.note"))}</p>`;
  }
  const title = poolNamed(L.pool) ? t("leaderboard.title", { pool: t(`pool.${L.pool}`) }) : t("online.leaderboards");
  app.innerHTML = `<section class="leaderboard" data-page="leaderboard" data-pool="${esc(L.pool)}">
  <h1>${esc(title)}</h1>
  ${tabsHTML()}
  ${messageHTML(L.message, false)}
  ${body}
</section>`;
}

function leave() {
  L.ctrl?.abort();
}

export default { open, leave, render: draw, meChanged: () => L.board !== undefined && draw() };
