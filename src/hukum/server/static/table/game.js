// A table's page during the match: the parts every game has (status, buttons, banners,
// rematch, the rules and the fair shuffle), with the game's own parts from its drawing
// (games/), drawn so that only the parts whose HTML changed are replaced.
import { t } from "../i18n.js";
import { after as motionAfter, before as motionBefore } from "../motion.js";
import { render } from "../router.js";
import { S } from "../state.js";
import { api, errorText } from "../widgets/api.js";
import { trickWon } from "../widgets/attention.js";
import { reasonHTML } from "../widgets/cardnames.js";
import { esc } from "../widgets/html.js";
import { messageHTML } from "../widgets/message.js";
import { rulesPanelHTML as rulesHTML } from "../widgets/rules.js";
import { hintsAllowed } from "./connection.js";
import { away, ctx, currentHint, drawing, myTeam, mySeat, seatName, seated, watching } from "./context.js";
import { drawTalk } from "./talk.js";

/** The table, deal and tricks played of the view drawn last: a trick has just been won
 * when the next view of the same deal has one more. */
let tricksSeen = null;

/** A trick has just been won by my side (my team, or me in a game without teams): its
 * sound (widgets/attention.js; only with the sound on). Not on a reload or a resync. */
function noteTrick(v) {
  const now = { key: `${S.code}|${v.deal_number}`, n: v.tricks_played ?? 0 };
  const was = tricksSeen;
  tricksSeen = now;
  if (!was || was.key !== now.key || now.n !== was.n + 1) return;
  const winner = v.last_trick?.winner;
  const me = mySeat();
  if (typeof winner !== "number" || me === null || watching()) return;
  const team = myTeam();
  if (team === null ? winner === me : winner % 2 === team) trickWon();
}

/** The game and rule set of the table, in a few words. */
export function tableLabel() {
  return drawing().label(ctx);
}

/** The Rules panel: each house rule of the table in words (widgets/rules.js). */
export function rulesPanelHTML() {
  return rulesHTML(S.table?.game, S.table?.rules, tableLabel(), location.pathname);
}

/** The suggested move and why, in one line, under the table's status. */
function hintHTML() {
  const h = currentHint();
  if (!h) return "";
  return `<p class="hint-line" id="hint-text" data-move="${esc(h.move)}"><span class="label">${esc(t("hint.label"))}:</span> ${drawing().hintText(ctx, h.move)} — <span id="hint-why">${reasonHTML(ctx, drawing(), h.reason) ?? esc(h.why)}</span></p>`;
}

/** The "Suggest a move" button, where hints are allowed and it is this seat's turn. */
function hintButtonHTML() {
  const v = S.view;
  if (!hintsAllowed() || v.turn !== v.seat || v.phase === "over" || away()) return "";
  const busy = S.hintAsked !== null;
  const off = busy || S.sending !== null ? "disabled" : "";
  return `<button id="hint" data-action="hint" ${off}>${esc(t(busy ? "hint.asking" : "hint.button"))}</button>`;
}

/** The table's status line (whose turn, the connection, a hint, the message) and its
 * buttons, apart: the status changes with every move, the buttons seldom, and a button
 * redrawn under the pointer would lose a click (e.g. taking a seat back while bots play). */
function controlsHTML() {
  const v = S.view;
  const myTurn = v.turn === v.seat && v.phase !== "over";
  const parts = [];
  let hint = "";
  const conn = S.wsState !== "open" ? `<span class="conn">${esc(t(S.wsState === "closed" ? "game.disconnected" : "game.connecting"))}</span>` : "";
  if (away()) {
    // One state, said once: a computer plays my seat (not "Your turn"), and the way back.
    return {
      status: `<div class="status"><span class="message warn" id="away">${esc(t("game.absent.you"))}</span> ${conn}</div>${messageHTML(S.message)}`,
      buttons: `<div class="controls"><button id="take-back" class="primary" data-action="take-back">${esc(t("game.takeback"))}</button></div>`,
    };
  }
  if (watching()) {
    hint = t("watch.hint"); // read-only: no cards, no buttons
  } else if (v.phase !== "over") {
    const g = drawing().controls(ctx);
    parts.push(...g.parts);
    hint = g.hint;
  } else if (S.table.status !== "over") {
    if (S.nextSent) hint = t("game.nextdeal.waiting");
    else parts.push(`<button id="next-deal" class="primary" data-action="next">${esc(t("game.nextdeal"))}</button>`);
  }
  if (!watching()) parts.push(hintButtonHTML());
  const turn =
    v.phase === "over" || v.turn === null || v.turn === undefined
      ? ""
      : myTurn
        ? `<span class="your-turn" id="your-turn">${esc(t("game.yourturn"))}</span>`
        : `<span class="their-turn">${esc(t("game.turnof", { name: seatName(v.turn) }))}</span>`;
  return {
    status: `<div class="status">${turn} ${conn} ${hint ? `<span class="hint">${esc(hint)}</span>` : ""}</div>
    ${hintHTML()}${messageHTML(S.message)}`,
    buttons: `<div class="controls">${parts.join(" ")}</div>`,
  };
}

/** The deal's result (the game's banner) and, once the match is over, the match's. */
function bannerHTML() {
  const d = drawing();
  const parts = [d.banner(ctx)];
  if (S.table.status === "over") {
    const { good, text } = d.matchOver(ctx);
    parts.push(`<div class="banner match ${good ? "good" : "bad"}" id="match-over"><strong>${esc(t("match.over"))}</strong>
      ${esc(text)}
      ${S.table.challenge ? challengeHTML() : rematchHTML()}${playAgainHTML()}<button data-action="lobby">${esc(t("match.new"))}</button>${S.table.challenge ? "" : reportLinkHTML() + dealLinksHTML()}</div>`);
  }
  return parts.join("");
}

/** A daily challenge's deal is over (issue 42): no rematch, the way back to its day, where
 * the player's percentage and the field's results are (its board and report open there
 * once the day closes, so none is linked here). */
function challengeHTML() {
  const day = String(S.table.challenge).split("/")[0];
  return `<a class="button primary" id="to-challenge" href="/challenge/${esc(encodeURIComponent(day))}">${esc(t("challenge.back"))}</a>`;
}

/** A quick-match table's match is over: its seated people may queue in its pool again. */
function playAgainHTML() {
  const pool = S.table.pool;
  if (!pool || !seated() || watching()) return "";
  return `<button id="play-again" data-action="play-again" data-pool="${esc(pool)}">${esc(t("match.play_again"))}</button>`;
}

/** The match is over: a rematch, the same seats at a new table. A seated person asks (one
 * click; bots agree by themselves) and sees whom it waits for; once everybody has asked,
 * the page goes to the new table (table/connection.js). A watcher, or a reload, gets a
 * link to it. */
function rematchHTML() {
  const table = S.table;
  if (table.rematch) {
    const label = seated() ? t("rematch.go") : t("rematch.watch");
    return `<button class="primary" id="rematch-link" data-action="go-rematch" data-code="${esc(table.rematch)}">${esc(label)}</button>`;
  }
  const seats = table.seats ?? [];
  const waiting = seats.filter((s) => s.kind === "human" && !s.rematch).map((s) => seatName(s.seat));
  const asked = seats.filter((s) => s.kind === "human" && s.rematch).map((s) => seatName(s.seat));
  const me = mySeat();
  if (!seated() || watching() || me === null) {
    return asked.length ? `<span class="hint" id="rematch-status">${esc(t("rematch.asked", { names: asked.join(", ") }))}</span>` : "";
  }
  if (seats[me]?.rematch || S.rematchSent) {
    const others = waiting.filter((name) => name !== seatName(me));
    return `<span class="hint" id="rematch-status">${esc(others.length ? t("rematch.waiting", { names: others.join(", ") }) : t("rematch.making"))}</span>`;
  }
  const note = asked.length ? ` <span class="hint" id="rematch-status">${esc(t("rematch.asked", { names: asked.join(", ") }))}</span>` : "";
  return `<button class="primary" id="rematch" data-action="rematch">${esc(t("rematch.button"))}</button>${note}`;
}

/** The match is over: a link to its report, for a game whose deals the server analyses. */
function reportLinkHTML() {
  if (!drawing().report?.(S.table)) return "";
  return `<a class="button" id="report-link" href="/t/${esc(encodeURIComponent(S.code))}/report">${esc(t("report.open"))}</a>`;
}

/** The match is over: a way to the analysis board of each of its deals. */
function dealLinksHTML() {
  const n = S.view?.phase === "over" ? S.view.deal_number : (S.view?.deal_number ?? 1) - 1;
  if (!(n >= 1)) return "";
  const links = [];
  for (let d = 1; d <= n; d++)
    links.push(`<button class="small" data-action="analyse" data-deal="${d}" aria-label="${esc(t("board.title", { n: d }))}">${d}</button>`);
  return `<span class="deal-links" id="deal-links">${esc(t(drawing().dealLinksKey))} ${links.join(" ")}</span>`;
}

/** Whether deal n of this table is over (only then is its seed shown, and checked). */
function dealOver(n) {
  const v = S.view;
  return !!v && (n < v.deal_number || (n === v.deal_number && v.phase === "over"));
}

/** The commitment, seed and check of deal n; the current deal's parts carry ids. */
function fairDealHTML(n, current) {
  const commitment = S.commitments[n] ?? (current ? S.view.commitment : null);
  if (!commitment) return "";
  const id = (name) => (current ? `id="${name}"` : "");
  const seed = dealOver(n) ? S.seeds[n] : undefined;
  const result = S.verify[n];
  const d = drawing();
  let out = "";
  if (result) {
    if (result.error) out = `<p class="message error">${esc(result.error)}</p>`;
    else {
      out = `<p class="message ${result.hash ? "ok" : "error"}" ${id("verify-hash")}>${esc(t(result.hash ? "fair.ok" : "fair.bad"))}</p>`;
      if (result.server) {
        const ok = result.server.commitment_ok;
        out += `<p class="${ok ? "ok" : "error"}">${esc(t(ok ? "fair.server.ok" : "fair.server.bad"))}</p>`;
        if (ok && result.server.hands)
          out += `<ul class="hands" ${id("verify-hands")}>${result.server.hands
            .map((h, s) => `<li><b>${esc(seatName(s))}</b>: ${d.sort(h).map(d.cardText).join(" ")}</li>`)
            .join("")}</ul>`;
      }
    }
  }
  const head = current ? "" : `<h4>${esc(t("game.deal", { n }))}</h4>`;
  return `<div class="fair-deal" data-deal="${n}">${head}
    <p><span class="label">${esc(t("fair.commitment"))}:</span> <code class="hash" ${id("commitment")}>${esc(commitment)}</code></p>
    <p><span class="label">${esc(t("fair.seed"))}:</span> ${seed ? `<code class="seed" ${id("seed")}>${esc(seed)}</code>` : `<i>${esc(t(S.table.challenge ? "challenge.seed.hidden" : "fair.seed.hidden"))}</i>`}</p>
    ${seed ? `<button ${id("verify")} data-action="verify" data-deal="${n}">${esc(t("fair.verify"))}</button>` : ""}${out}</div>`;
}

/** The fair-shuffle panel: this deal, and the one before it once its seed is known (so
 * that it can still be checked after the next deal has begun). */
function fairHTML() {
  const n = S.view.deal_number;
  const now = fairDealHTML(n, true);
  if (!now) return "";
  const before = n > 1 && S.seeds[n - 1] ? fairDealHTML(n - 1, false) : "";
  return `<section class="panel fair" id="fair"><h3>${esc(t("fair.title"))}</h3>${now}${before}</section>`;
}

/** Check deal n's seed against its commitment, here (SHA-256) and by the server (which
 * also deals the hands again). */
export async function verifyDeal(n) {
  const v = S.view;
  const seed = S.seeds[n];
  if (!seed || !dealOver(n)) return;
  const code = S.code;
  const commitment = S.commitments[n] ?? v.commitment;
  const result = { hash: false, server: null };
  try {
    if (!crypto?.subtle) throw new Error(t("fair.nocrypto"));
    const bytes = new TextEncoder().encode(`hukum-deal:${seed}`);
    const digest = await crypto.subtle.digest("SHA-256", bytes);
    const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
    result.hash = hex === commitment;
  } catch (e) {
    result.error = String(e.message ?? e);
  }
  try {
    const q = new URLSearchParams({
      commitment,
      seed,
      rules: JSON.stringify(S.table.rules ?? {}),
      dealer: String(S.dealers[n] ?? v.dealer),
      game: drawing().name,
    });
    const { data } = await api("GET", `/api/verify?${q}`);
    result.server = data;
  } catch (err) {
    result.error = errorText(err);
  }
  if (S.code !== code) return; // another table by now: its own checks only
  S.verify[n] = result;
  render();
}

/** Draw the game, replacing only the parts whose HTML changed (a click in progress on an
 * unchanged part, e.g. the hand while a bot plays, is not lost). */
export function renderGame(app) {
  const v = S.view;
  let game = app.querySelector("#game");
  if (!game) {
    app.innerHTML = `<section class="game" id="game">
  <div class="main-col"><div id="g-top"></div><div id="g-board"></div><div id="g-banner"></div>
    <div id="g-status"></div><div id="g-controls"></div><div id="g-hand"></div></div>
  <aside class="side-col"><div id="g-talk"></div><div id="g-side"></div></aside></section>`;
    game = app.querySelector("#game");
  }
  const d = drawing();
  game.dataset.phase = v.phase;
  game.dataset.turn = v.turn ?? "";
  game.dataset.seat = v.seat;
  game.dataset.myTurn = String(v.turn === v.seat);
  game.dataset.game = d.name;
  game.dataset.need = v.need ?? 1;
  const panelButtons = `<button class="small" data-action="panel" data-panel="last" id="show-last" aria-pressed="${S.panel === "last"}">${esc(t("game.lasttrick"))}</button>
    <button class="small" data-action="panel" data-panel="rules" id="show-rules" aria-pressed="${S.panel === "rules"}">${esc(t("nav.rules"))}</button>`;
  const panel = S.panel === "rules" ? rulesPanelHTML() : S.panel === "last" ? d.lastTrick(ctx) : "";
  const controls = controlsHTML();
  const parts = {
    "g-top": `<div class="topline">${d.trump(ctx)}<span class="spacer"></span>${panelButtons}</div>`,
    "g-board": d.board(ctx),
    "g-banner": bannerHTML(),
    "g-status": controls.status,
    "g-controls": controls.buttons,
    "g-hand": d.hand(ctx),
    "g-side": panel + d.score(ctx) + fairHTML(),
  };
  const moved = motionBefore(game); // where the cards are now: new ones move from there (motion.js)
  for (const [id, html] of Object.entries(parts)) {
    const el = game.querySelector(`#${id}`);
    if (el._html !== html) {
      el.innerHTML = html;
      el._html = html;
    }
  }
  motionAfter(game, moved, v);
  noteTrick(v);
  drawTalk(game.querySelector("#g-talk"));
}
