// The analysis board: a finished deal replayed move by move with every hand face up, at
// /t/<code>/deals/<n>?move=<k> (k moves made: a link shares the position). For Mindi, each
// move shows what perfect play gave the mover's team before and after it, mistakes are
// marked and the better cards shown in the hand.
//
// The data: GET /api/tables/<code>/deals/<n> (the engine's replay: each move with its seat
// and trick, each position with every hand, the trick, trump, tricks and tens), so nothing
// here knows the rules; and GET /api/tables/<code>/deals/<n>/analysis (Mindi, 4 players).
// Both answer only once the deal is over.
import { SYMBOL, cardSVG, cardText, parseCard, sortHand, suitSVG } from "./cards.js";
import { emblemSVG, gCardText, roundCardSVG, sortG, standingG } from "./ganjifa.js";

/** The board's address: deal n of a table, at position `move` (moves made) if given. */
export function boardPath(code, n, move) {
  const path = `/t/${encodeURIComponent(code)}/deals/${n}`;
  return move === undefined ? path : `${path}?move=${move}`;
}

const B = {
  code: null,
  n: 0,
  data: null, // GET /api/tables/<code>/deals/<n>
  analysis: null, // {loading: true} | {data} | {error}; null: none asked (Ganjifa)
  byNumber: new Map(), // move number -> its analysis
  move: 0, // the position shown: moves made, 0 (as dealt) … data.moves.length
  error: null, // why there is no board: {code, message}
  copied: false,
  seq: 0, // the board being loaded (an older answer is dropped)
};

// Where each seat sits: slots of a 3×3 grid round the trick, from the bottom (the viewer, or
// the first seat) in the direction of play; anticlockwise, the next player is on the right.
const AREAS = ["s", "se", "e", "ne", "n", "nw", "w", "sw"];
const RING = { 3: [0, 3, 5], 4: [0, 2, 4, 6], 6: [0, 1, 3, 4, 5, 7], 8: [0, 1, 2, 3, 4, 5, 6, 7] };
const MIRROR = { s: "s", se: "sw", e: "w", ne: "nw", n: "n", nw: "ne", w: "e", sw: "se" };

const ICONS = {
  first: '<path d="M4 3h2v14H4zM17 3v14L7 10z"/>',
  prev: '<path d="M15 3v14L5 10z"/>',
  next: '<path d="M5 3v14l10-7z"/>',
  last: '<path d="M14 3h2v14h-2zM3 3v14l10-7z"/>',
};

function icon(name) {
  return `<svg width="18" height="18" viewBox="0 0 20 20" fill="currentColor" aria-hidden="true">${ICONS[name]}</svg>`;
}

function isG() {
  return B.data?.game === "ganjifa";
}

function moves() {
  return B.data?.moves ?? [];
}

// ---------------------------------------------------------------- loading

/** Open the board of deal `number` (the text of the address) of table `code`. */
export async function openBoard(ctx, code, number) {
  const { S, api } = ctx;
  const seq = ++B.seq;
  // Whether this board is still the page: another board, or the table, may have been opened
  // while an answer was on its way.
  const live = () => seq === B.seq && S.page === "board" && S.code === code;
  S.page = "board";
  S.code = code;
  S.token = localStorage.getItem(`hukum.token.${code}`);
  S.table = null;
  S.view = null;
  Object.assign(B, { code, n: Number(number), data: null, analysis: null, byNumber: new Map(), move: 0, error: null, copied: false });
  ctx.render();
  if (!/^[1-9]\d{0,5}$/.test(number)) {
    B.error = { code: "unknown_deal" };
    ctx.render();
    return;
  }
  const base = `/api/tables/${encodeURIComponent(code)}`;
  try {
    const [table, deal] = await Promise.all([api("GET", base), api("GET", `${base}/deals/${B.n}`)]);
    if (!live()) return;
    S.table = table.data;
    B.data = deal.data;
  } catch (err) {
    if (!live()) return;
    B.error = err;
    ctx.render();
    return;
  }
  const asked = Number(new URLSearchParams(location.search).get("move"));
  B.move = Number.isInteger(asked) ? Math.max(0, Math.min(asked, moves().length)) : 0;
  if (isG()) {
    ctx.render();
    return;
  }
  B.analysis = { loading: true };
  ctx.render();
  // The analysis takes seconds: asked without waiting, it answers at once with its progress
  // (202) until it is done; a busy server says when to ask again.
  for (;;) {
    let data;
    try {
      ({ data } = await api("GET", `${base}/deals/${B.n}/analysis?wait=false`));
    } catch (err) {
      if (!live()) return;
      if (err?.code !== "busy") {
        B.analysis = { error: err };
        break;
      }
      const s = Math.max(1, Number(err.retry_after) || 5);
      B.analysis = { loading: true, busy: s };
      ctx.render();
      await sleep(s * 1000);
      if (!live()) return;
      continue;
    }
    if (!live()) return;
    if (data.status === "done") {
      B.analysis = { data };
      B.byNumber = new Map(data.moves.map((m) => [m.number, m]));
      break;
    }
    B.analysis = { loading: true, progress: data };
    ctx.render();
    await sleep(POLL_MS);
    if (!live()) return;
  }
  ctx.render();
}

/** How often (ms) the board asks how far the analysis has got. */
const POLL_MS = 500;

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The board's clicks and keys (once, at start). */
export function initBoard(ctx) {
  ctx.app.addEventListener("click", (e) => {
    if (ctx.S.page !== "board") return;
    const el = e.target.closest("[data-bd]");
    if (!el || el.disabled) return;
    const what = el.dataset.bd;
    if (what === "link") {
      if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return; // a new tab
      e.preventDefault();
      ctx.go(el.getAttribute("href"));
    } else if (what === "go") step(ctx, Number(el.dataset.move));
    else if (what === "first") step(ctx, 0);
    else if (what === "prev") step(ctx, B.move - 1);
    else if (what === "next") step(ctx, B.move + 1);
    else if (what === "last") step(ctx, moves().length);
    else if (what === "copy") copyLink(ctx);
  });
  document.addEventListener("keydown", (e) => {
    if (ctx.S.page !== "board" || !B.data) return;
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return; // e.g. Alt+← goes back
    const target = e.target;
    if (target.isContentEditable || ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
    const to = { ArrowLeft: B.move - 1, ArrowRight: B.move + 1, Home: 0, End: moves().length }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    step(ctx, to);
  });
}

/** Show position `to` (clamped), and say it in the address. */
function step(ctx, to) {
  const move = Math.max(0, Math.min(to, moves().length));
  if (move === B.move) return;
  B.move = move;
  B.copied = false;
  history.replaceState(null, "", boardPath(B.code, B.n, move));
  ctx.render();
  // The move in the list stays in its view (the list scrolls, never the page).
  const list = ctx.app.querySelector("#bd-list");
  const current = list?.querySelector(".bd-move.current");
  if (list && current && list.scrollHeight > list.clientHeight) {
    const top = current.offsetTop - list.offsetTop;
    if (top < list.scrollTop) list.scrollTop = top - 8;
    else if (top + current.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top + current.offsetHeight - list.clientHeight + 8;
  }
}

async function copyLink(ctx) {
  const url = location.origin + boardPath(B.code, B.n, B.move);
  try {
    await navigator.clipboard.writeText(url);
  } catch {
    const area = document.createElement("textarea");
    area.value = url;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    document.execCommand?.("copy");
    area.remove();
  }
  B.copied = true;
  ctx.render();
}

// ---------------------------------------------------------------- words

/** A card as plain text ("10♠"), for labels. */
function plainCard(code) {
  if (isG()) return code;
  const { rank, suit } = parseCard(code);
  return `${rank}${SYMBOL[suit]}`;
}

/** A move in the list: its cards (coloured), and what kind of move it is if not a card. */
function moveHTML(ctx, text) {
  const { t, esc } = ctx;
  const [word, ...rest] = text.split(" ");
  if (isG()) {
    if (word === "dukal") return `<small>${esc(t("g.dukal"))}</small> ${rest.map(gCardText).join(" ")}`;
    if (word === "give") return rest.map(gCardText).join(" ");
    return gCardText(text);
  }
  if (word === "hide") return `${cardText(rest[0])} <small>${esc(t("board.move.hide"))}</small>`;
  if (word === "reveal") return `<small>${esc(t("game.reveal"))}</small>`;
  if (word === "announce") return `<small>${esc(t("board.move.announce"))}</small> ${suitSVG(rest[0], 14)}`;
  return cardText(text);
}

/** The same as plain text, for labels. */
function moveWords(ctx, text) {
  const { t } = ctx;
  const [word, ...rest] = text.split(" ");
  if (word === "dukal") return `${t("g.dukal")} ${rest.join(" ")}`;
  if (word === "give") return rest.join(" ");
  if (word === "hide") return `${plainCard(rest[0])} ${t("board.move.hide")}`;
  if (word === "reveal") return t("game.reveal");
  if (word === "announce") return `${t("board.move.announce")} ${SYMBOL[rest[0]]}`;
  return plainCard(text);
}

/** A forecast of the analysis ({tens, winner, kind}) from one team's side, e.g. "wins 3–1". */
function standingText(t, f, team) {
  const mine = f.tens[team];
  const theirs = f.tens[1 - team];
  const text = t(`analysis.${f.winner === team ? "wins" : "loses"}.${f.kind}`, { a: mine, b: theirs });
  return mine === theirs ? text + t("analysis.tiebreak") : text;
}

/** What a move cost its team, from the forecasts before and after it (as hukum.analysis.verdict). */
function verdictText(t, before, after, team) {
  const parts = [];
  const lost = before.tens[team] - after.tens[team];
  if (before.winner === team && after.winner !== team) parts.push(t("analysis.lost.win"));
  else if (before.kind !== after.kind && before.winner === after.winner) {
    const side = before.winner === team ? "win" : "loss";
    parts.push(t("analysis.turned", { a: t(`analysis.${side}.${before.kind}`), b: t(`analysis.${side}.${after.kind}`) }));
  }
  if (lost === 1) parts.push(t("analysis.lost.mindi"));
  else if (lost > 1) parts.push(t("analysis.lost.mindis", { n: lost }));
  if (!parts.length) parts.push(t("analysis.lost.tiebreak"));
  return parts.join(", ");
}

/** The first trick the analysis covers (tricks before it were beyond the solver's budget),
 * or null when no analysis is at hand. */
function firstAnalysedTrick() {
  const data = B.analysis?.data;
  if (!data) return null;
  return data.moves.length ? data.moves[0].trick : null;
}

// ---------------------------------------------------------------- drawing

/** Draw the board, replacing only the parts whose HTML changed; the focused control keeps
 * the focus. */
export function renderBoard(ctx) {
  const { S, t, esc, app } = ctx;
  if (B.error) {
    app.innerHTML = errorHTML(ctx);
    return;
  }
  if (!B.data || !S.table) {
    app.innerHTML = `<p class="loading">${esc(t("loading"))}</p>`;
    return;
  }
  const key = `${B.code}/${B.n}`;
  let root = app.querySelector("#analysis-board");
  if (!root || root.dataset.key !== key) {
    app.innerHTML = `<section class="bd" id="analysis-board" data-key="${esc(key)}">
  <div id="bd-head"></div>
  <div class="bd-main">
    <div class="bd-play"><div id="bd-facts"></div><div id="bd-table"></div><div id="bd-controls"></div><div id="bd-verdict" aria-live="polite"></div></div>
    <aside class="bd-side"><div id="bd-note"></div><div id="bd-list"></div><div id="bd-result"></div></aside>
  </div></section>`;
    root = app.querySelector("#analysis-board");
  }
  const focused = document.activeElement?.id;
  root.dataset.move = String(B.move);
  root.dataset.moves = String(moves().length);
  root.dataset.game = B.data.game;
  const parts = {
    "bd-head": headHTML(ctx),
    "bd-facts": factsHTML(ctx),
    "bd-table": tableHTML(ctx),
    "bd-controls": controlsHTML(ctx),
    "bd-verdict": verdictHTML(ctx),
    "bd-note": noteHTML(ctx),
    "bd-list": listHTML(ctx),
    "bd-result": resultHTML(ctx),
  };
  for (const [id, html] of Object.entries(parts)) {
    const el = root.querySelector(`#${id}`);
    if (el._html !== html) {
      el.innerHTML = html;
      el._html = html;
    }
  }
  if (focused && document.activeElement?.id !== focused) document.getElementById(focused)?.focus({ preventScroll: true });
}

function errorHTML(ctx) {
  const { t, esc, errorText } = ctx;
  const code = B.error.code;
  let text;
  if (code === "unknown_table") text = t("room.notfound");
  else if (code === "unknown_deal") text = t("board.unknown", { n: Number.isInteger(B.n) && B.n > 0 ? B.n : "?" });
  else if (code === "deal_not_over") text = t("board.notover", { n: B.n });
  else text = errorText(B.error);
  const back =
    code === "unknown_table"
      ? `<a class="button" href="/" data-bd="link">${esc(t("room.back"))}</a>`
      : `<a class="button" href="/t/${esc(encodeURIComponent(B.code))}" data-bd="link" id="bd-back">${esc(t("board.back"))}</a>`;
  return `<section class="bd bd-missing" id="analysis-board"><p class="message error" role="alert" id="bd-error" data-code="${esc(code)}">${esc(text)}</p>${back}</section>`;
}

function headHTML(ctx) {
  const { t, esc } = ctx;
  const table = `/t/${encodeURIComponent(B.code)}`;
  const deals = [];
  for (let n = 1; n <= (B.data.deals ?? B.n); n++) {
    deals.push(
      n === B.n
        ? `<span class="bd-deal current" aria-current="page">${n}</span>`
        : `<a class="bd-deal" href="${esc(boardPath(B.code, n))}" data-bd="link">${n}</a>`,
    );
  }
  const others = deals.length > 1 ? `<nav class="bd-deals" aria-label="${esc(t("board.deals"))}"><span>${esc(t("board.deals"))}:</span> ${deals.join(" ")}</nav>` : "";
  return `<div class="bd-head">
    <h2>${esc(t("board.title", { n: B.n }))} <small>${esc(t("room.title", { code: B.code }))}</small></h2>
    <div class="bd-links"><a class="button small" href="${esc(table)}" data-bd="link" id="bd-back">← ${esc(t("board.back"))}</a>
    <button class="small" id="bd-copy" data-bd="copy">${esc(t(B.copied ? "board.copied" : "board.copy"))}</button>${others}</div></div>`;
}

/** The position shown. */
function position() {
  return B.data.positions[B.move];
}

/** Trump, and each team's tricks and tens (Mindi) or the trump suit (Ganjifa). */
function factsHTML(ctx) {
  const { t, esc, seatName, teamName } = ctx;
  const p = position();
  if (isG()) {
    const time = ctx.S.table.rules?.time ?? "day";
    return `<div class="bd-facts"><span class="trump" id="bd-trump"><span class="label">${esc(t("game.trump"))}:</span> ${emblemSVG(p.trump, 20)} ${esc(t(`avatar.${p.trump}`))} <span class="hint">(${esc(t(`val.${time}`))})</span></span></div>`;
  }
  let trump;
  if (p.trump) {
    trump = `${suitSVG(p.trump, 18)} ${esc(t(`suit.${p.trump}`))}`;
    if (p.face_down) trump += ` <span class="hint">(${esc(t("board.facedown", { name: seatName(p.chooser) }))}: ${cardText(p.face_down)})</span>`;
    else if (p.reveal) trump += ` <span class="hint">(${esc(t("board.revealed", { n: p.reveal.trick + 1 }))})</span>`;
    if (p.shown_card) trump += ` <span class="hint">(${esc(t("game.trump.shown"))} ${cardText(p.shown_card)})</span>`;
  } else trump = esc(t("game.trump.unknown"));
  const teams = [0, 1]
    .map((team) => {
      const tens = p.tens[team].map(cardText).join(" ");
      const tricks = t(p.tricks_won[team] === 1 ? "board.trick" : "board.tricks", { n: p.tricks_won[team] });
      return `<span class="bd-team team-${team}${team === ctx.myTeam() ? " ours" : ""}" data-team="${team}"><b>${esc(teamName(team))}</b>: <span class="bd-tricks">${esc(tricks)}</span>${tens ? ` · ${tens}` : ""}</span>`;
    })
    .join("");
  const pile = p.pile?.length ? `<span class="bd-pile">${esc(t("game.pile", { n: p.pile.length }))}</span>` : "";
  return `<div class="bd-facts"><span class="trump" id="bd-trump"><span class="label">${esc(t("game.trump"))}:</span> ${trump}</span>${teams}${pile}</div>`;
}

/** Move `number` (from 1), or null. */
function moveAt(number) {
  return number >= 1 ? (moves()[number - 1] ?? null) : null;
}

/** The analysis of the move just made (the move that led to the position shown), if any. */
function judged() {
  return B.byNumber.get(B.move) ?? null;
}

/** The seat everyone sees at the bottom: the viewer's own seat at this table, or the first. */
function bottomSeat(ctx) {
  const me = ctx.mySeat();
  return me === null || me === undefined || Number.isNaN(me) ? 0 : me;
}

function seatArea(ctx, seat, n) {
  const k = (seat - bottomSeat(ctx) + n) % n;
  const slot = RING[n]?.[k] ?? Math.round((k * 8) / n) % 8;
  const area = AREAS[slot];
  return ctx.S.table.rules?.direction === "clockwise" ? MIRROR[area] : area;
}

function tableHTML(ctx) {
  const p = position();
  const n = p.hands.length;
  const last = moveAt(B.move);
  const verdict = judged();
  const best = new Set(verdict?.mistake ? verdict.best : []);
  const seats = p.hands.map((hand, s) => seatHTML(ctx, s, hand, { area: seatArea(ctx, s, n), best: last?.seat === s ? best : new Set(), mover: last?.seat === s })).join("");
  return `<div class="bd-table" data-seats="${n}">${seats}<div class="bd-mid" id="bd-trick">${trickHTML(ctx, p, last, verdict, (s) => seatArea(ctx, s, n))}</div></div>`;
}

function seatHTML(ctx, s, hand, { area, best, mover }) {
  const { S, t, esc, seatName, myTeam } = ctx;
  const p = position();
  const g = isG();
  const classes = ["bd-seat", `area-${area}`];
  if (!g) classes.push(`team-${s % 2}`);
  if (!g && s % 2 === myTeam()) classes.push("ours");
  if (p.turn === s) classes.push("turn");
  if (mover) classes.push("mover");
  const tags = [];
  if (s === B.data.dealer) tags.push(`<span class="tag">${esc(t("game.dealer"))}</span>`);
  if (S.table.seats?.[s]?.kind === "bot") tags.push(`<span class="tag bot">${esc(t("room.bot"))}</span>`);
  if (p.turn === s) tags.push(`<span class="tag turn">${esc(t("board.toplay"))}</span>`);
  if (g) tags.push(`<span class="tag">${esc(t("g.captured.short", { n: p.captured[s] }))}</span>`);
  const sorted = g ? sortG(hand) : sortHand(hand);
  const cards = sorted
    .map((c) => {
      const better = best.has(c);
      const face = g ? roundCardSVG(c, esc(c)) : cardSVG(c);
      return `<span class="bd-card${better ? " best" : ""}" data-card="${esc(c)}"${better ? ` title="${esc(t("board.better.card"))}"` : ""}>${face}</span>`;
    })
    .join("");
  return `<div class="${classes.join(" ")}" data-seat="${s}" style="grid-area:${area}">
    <div class="bd-name"><b>${esc(seatName(s))}</b> ${tags.join(" ")}</div>
    <div class="bd-hand${g ? " round" : ""}" role="group" aria-label="${esc(t("board.hand", { name: seatName(s), n: hand.length }))}">${cards || `<span class="hint">${esc(t("board.empty"))}</span>`}</div></div>`;
}

/** The trick in progress, or the one just completed with its winner, each card on the
 * side of the player who played it (`area`: a seat's place). The card of the move just made
 * is marked, and if it was a mistake, marked as one. */
function trickHTML(ctx, p, last, verdict, area) {
  const { t, esc, seatName } = ctx;
  let plays = p.trick;
  let caption = "";
  if (!plays.length && p.last_trick && last && last.trick === p.tricks_played) {
    plays = p.last_trick.plays;
    caption = t("game.wontrick", { name: seatName(p.last_trick.winner) });
  }
  const g = isG();
  const cards = plays
    .map((play) => {
      const just = last && play.seat === last.seat && (g ? play.move === last.move : play.card === last.move);
      const classes = ["bd-played"];
      if (just) classes.push("just");
      if (just && verdict?.mistake) classes.push("mistake");
      if (!g && play.trump) classes.push("trump");
      const face = g
        ? play.cards.map((c) => `<span class="g-fan">${roundCardSVG(c, esc(c))}</span>`).join("")
        : cardSVG(play.card);
      const mark = just && verdict?.mistake ? `<span class="bd-q" aria-label="${esc(t("board.mistake"))}">?</span>` : "";
      const label = `${seatName(play.seat)}: ${moveWords(ctx, g ? play.move : play.card)}`;
      return `<figure class="${classes.join(" ")}" data-seat="${play.seat}" style="grid-area:${area(play.seat)}" title="${esc(label)}" aria-label="${esc(label)}"><div class="bd-face">${face}${mark}</div></figure>`;
    })
    .join("");
  const trick = Math.min(p.tricks_played + (caption ? 0 : 1), B.data.positions.at(-1).tricks_played);
  const head = B.move === 0 ? "" : `<div class="bd-trick-head">${esc(t("analysis.trick", { n: trick }))}</div>`;
  return `<div class="bd-cards">${head}${cards}</div>${caption ? `<div class="bd-caption" id="bd-winner">${esc(caption)}</div>` : ""}`;
}

function controlsHTML(ctx) {
  const { t, esc } = ctx;
  const total = moves().length;
  const button = (what, off) =>
    `<button class="small bd-step" id="bd-${what}" data-bd="${what}" aria-label="${esc(t(`board.${what}`))}" title="${esc(t(`board.${what}`))} (${esc(t(`board.key.${what}`))})" ${off ? "disabled" : ""}>${icon(what)}</button>`;
  const last = moveAt(B.move);
  const where = B.move === 0 ? t("board.start") : t("board.position", { n: B.move, m: total, k: last.trick });
  return `<div class="bd-controls" role="group" aria-label="${esc(t("board.steps"))}">
    ${button("first", B.move === 0)}${button("prev", B.move === 0)}
    <span class="bd-pos" id="bd-pos">${esc(where)}</span>
    ${button("next", B.move === total)}${button("last", B.move === total)}</div>
    <p class="hint bd-keys">${esc(t("board.keys"))}</p>`;
}

/** The move just made: who made it, and (Mindi) the result perfect play gave the mover's
 * team before and after it, a mistake marked with what was better. */
function verdictHTML(ctx) {
  const { t, esc, seatName, teamName } = ctx;
  const last = moveAt(B.move);
  if (!last) {
    // The deal as dealt: with the analysis, what perfect play gives from its first move on.
    const first = B.analysis?.data?.moves[0];
    if (!first) return "";
    const team = ctx.myTeam() ?? first.seat % 2;
    return `<p class="bd-start" id="bd-start">${esc(t("analysis.start", { n: first.trick, team: teamName(team), standing: standingText(t, first.before, team) }))}</p>`;
  }
  const who = `<span class="bd-who"><b>${esc(seatName(last.seat))}</b>: ${moveHTML(ctx, last.move)}</span>`;
  if (isG() || !B.analysis) return `<div class="bd-verdict">${who}</div>`;
  let badge;
  if (B.analysis.loading) badge = `<span class="bd-badge pending">${esc(t("board.analysing"))}</span>`;
  else if (B.analysis.error) badge = "";
  else {
    const m = judged();
    if (!m) badge = `<span class="bd-badge none" id="bd-badge">${esc(t("board.unanalysed"))}</span>`;
    else {
      const team = m.seat % 2;
      const change = `<span class="bd-team-name">${esc(teamName(team))}:</span> <span class="bd-before">${esc(standingText(t, m.before, team))}</span> → <span class="bd-after">${esc(standingText(t, m.after, team))}</span>`;
      if (!m.mistake) badge = `<span class="bd-badge good" id="bd-badge" data-mistake="false">✓ ${esc(t("board.best"))} · ${change}</span>`;
      else {
        const better = m.best.map((b) => moveHTML(ctx, b)).join(" ");
        badge = `<span class="bd-badge bad" id="bd-badge" data-mistake="true"><span class="bd-q">?</span> ${esc(t("board.mistake"))}: ${esc(verdictText(t, m.before, m.after, team))} · ${change}</span>
          <span class="bd-better" id="bd-better">${esc(t("analysis.better"))} ${better}</span>`;
      }
    }
  }
  return `<div class="bd-verdict">${who} ${badge}</div>`;
}

/** What the analysis covers, said plainly: still solving, tricks not analysed, Mindi only. */
function noteHTML(ctx) {
  const { S, t, esc, errorText } = ctx;
  const a = B.analysis;
  let text = "";
  let kind = "hint";
  if (isG()) text = t("board.mindionly");
  else if (!a) text = "";
  else if (a.loading) {
    const p = a.progress;
    if (a.busy) text = t("board.busy", { s: a.busy });
    else if (p?.status === "waiting") text = t("board.analysing.waiting");
    else if (p) text = t("board.analysing.progress", { k: p.tricks, n: p.of });
    else text = t("board.analysing.long");
  } else if (a.error) {
    kind = "warn";
    if (a.error.code === "no_analysis" && (S.table.rules?.players ?? 4) !== 4) text = t("board.fourplayers");
    else text = `${t("board.noanalysis")} ${errorText(a.error)}`;
  } else {
    const first = firstAnalysedTrick();
    const notes = [];
    const missing = a.data.not_analysed;
    if (first === null) notes.push(t("board.notanalysed.all"));
    else if (missing.length === 1) notes.push(t("board.notanalysed.one"));
    else if (missing.length > 1) notes.push(t("board.notanalysed", { k: missing[missing.length - 1] }));
    const wrong = a.data.moves.filter((m) => m.mistake).length;
    if (first !== null) {
      const k = a.data.tricks;
      notes.push(t(wrong === 0 ? "analysis.none" : wrong === 1 ? "analysis.mistake" : "analysis.mistakes", { n: wrong, k }));
    }
    text = notes.join(" ");
  }
  if (!text) return "";
  return `<p class="bd-note ${kind}" id="bd-note-text" role="status">${esc(text)}</p>`;
}

/** Every move, trick by trick: a click goes to the position after it; mistakes marked. */
function listHTML(ctx) {
  const { t, esc, seatName } = ctx;
  const rows = [];
  for (const m of moves()) {
    if (!rows.length || rows.at(-1).trick !== m.trick) rows.push({ trick: m.trick, moves: [] });
    rows.at(-1).moves.push(m);
  }
  const items = rows
    .map((row) => {
      const end = row.moves.at(-1).number;
      const winner = B.data.positions[end].last_trick?.winner;
      const done = B.data.positions[end].tricks_played === row.trick;
      const leader = row.moves.find((m) => !/^(hide|announce)/.test(m.move))?.seat ?? row.moves[0].seat;
      const buttons = row.moves
        .map((m) => {
          const a = B.byNumber.get(m.number);
          const classes = ["bd-move"];
          if (m.number === B.move) classes.push("current");
          if (a?.mistake) classes.push("mistake");
          if (done && m.seat === winner && !/^(hide|announce|reveal)/.test(m.move)) classes.push("won");
          const label = `${t("board.move", { n: m.number })}: ${seatName(m.seat)}, ${moveWords(ctx, m.move)}${a?.mistake ? ` (${t("board.mistake")})` : ""}`;
          return `<button type="button" class="${classes.join(" ")}" id="bd-m-${m.number}" data-bd="go" data-move="${m.number}" data-seat="${m.seat}" aria-label="${esc(label)}" title="${esc(label)}"${m.number === B.move ? ' aria-current="step"' : ""}>${moveHTML(ctx, m.move)}${a?.mistake ? '<span class="bd-mark" aria-hidden="true">?</span>' : ""}</button>`;
        })
        .join("");
      return `<li class="bd-row" data-trick="${row.trick}"><span class="bd-tno">${row.trick}</span><span class="bd-lead">${esc(seatName(leader))}</span><span class="bd-row-moves">${buttons}</span></li>`;
    })
    .join("");
  return `<h3>${esc(t("board.moves"))}</h3><ol class="bd-moves" id="bd-moves">${items}</ol>`;
}

function resultHTML(ctx) {
  const { t, esc } = ctx;
  const o = B.data.outcome;
  if (!o) return "";
  if (isG()) {
    const { head, why } = standingG(ctx, o.scores);
    return `<p class="bd-result" id="bd-result-text"><b>${esc(t("board.result"))}:</b> ${esc(head)} · ${esc(why)}</p>`;
  }
  const r = ctx.outcomeText(o);
  return `<p class="bd-result" id="bd-result-text"><b>${esc(t("board.result"))}:</b> ${esc(r.head)} · ${esc(r.why)}</p>`;
}
