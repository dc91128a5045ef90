// What every part of a table's page asks: whose seat is whose (names, teams, places round
// the board), the game's drawing, the hint and move chosen for this turn. `ctx` is what a
// game's drawing (games/) and the analysis board (board.js) are given.
import { has, t } from "../i18n.js";
import { drawingOf } from "../games/index.js";
import { backsHTML } from "../motion.js";
import { S } from "../state.js";
import { errorText } from "../widgets/api.js";
import { esc } from "../widgets/html.js";

/** The drawing of this table's game (games/index.js); null before the table is known. */
export function drawing() {
  return drawingOf(S.table, S.view);
}

/** Whether this page holds a seat of the table: by its token (localStorage), or by the
 * session of the player the server says holds one (the public table's `you`, told to that
 * player alone: a second device of a signed-in player). */
export function seated() {
  return !!S.token || typeof S.table?.you === "number";
}

/** Whether this page watches the table (no seat, nothing to send but ping). */
export function watching() {
  return S.watch && !seated();
}

/** A `suspended` refusal (a moderator suspended or closed the player) in the page's
 * language, with the moderator's reason and the suspension's end (widgets/api.js): a
 * function, drawn again in the language of the moment. */
export function suspendedText(err) {
  return () => errorText(err);
}

/** Whether a computer plays my seat now (my turn timed out: I was away) until I take it
 * back: then the page shows that, and not my turn. */
export function away() {
  const v = S.view;
  return !watching() && !!v && S.absent.has(v.seat) && S.table?.status === "playing";
}

function nPlayers() {
  return S.table?.seats?.length || S.table?.rules?.players || 4;
}

export function mySeat() {
  if (S.view && typeof S.view.seat === "number") return S.view.seat;
  if (typeof S.table?.you === "number") return S.table.you;
  const stored = localStorage.getItem(`hukum.seat.${S.code}`);
  return S.token && stored !== null ? Number(stored) : null;
}

/** My team (seat % 2) in a game of two teams; null otherwise, or without a seat. */
export function myTeam() {
  const s = mySeat();
  return s === null || !drawing()?.teams ? null : s % 2;
}

/** The level of the table's computer players in the lobby's words ("Good"), or null. */
function levelName() {
  const level = S.table?.bots;
  return level && has(`level.${level}`) ? t(`level.${level}`) : null;
}

/** A seat's own name: a person's, or a computer player's as the server named it ("Tara").
 * Rooms made before computer players had names call them by their level ("rules bot"),
 * shown as the lobby's level names ("Good computer"). */
function ownName(seat) {
  const s = S.table?.seats?.[seat];
  const level = levelName();
  if (s?.kind === "bot" && level && s.name === `${S.table.bots} bot`) return t("bot.name", { level });
  return s?.name ?? "";
}

export function seatName(seat) {
  const seats = S.table?.seats ?? [];
  const name = ownName(seat);
  if (!name) return t("seat", { n: seat + 1 });
  // Two players of one name (two "Good computer"s of an older room) are told apart by seat.
  return seats.some((s, i) => i !== seat && ownName(i) === name) ? `${name} (${seat + 1})` : name;
}

export function teamName(team) {
  const mine = myTeam();
  if (mine === null) return t("team", { n: team + 1 });
  return team === mine ? t("team.us") : t("team.them");
}

/** Where seat s sits on the board, in percent: you at the bottom, partner at the top. */
export function position(seat, radiusX, radiusY) {
  const n = nPlayers();
  const me = mySeat() ?? 0;
  const k = (seat - me + n) % n;
  const dir = S.table?.rules?.direction === "clockwise" ? -1 : 1;
  const a = ((270 + (k * 360 * dir) / n) * Math.PI) / 180;
  return { x: 50 + radiusX * Math.cos(a), y: 50 - radiusY * Math.sin(a) };
}

/** The tag of a computer player's seat: its level ("Good"; "computer" if the level has no
 * name), read out in full ("Good computer"). */
function botTagHTML() {
  const level = levelName();
  const full = level ? t("bot.name", { level }) : t("room.bot");
  return `<span class="tag bot" title="${esc(full)}" aria-label="${esc(full)}">${esc(level ?? full)}</span>`;
}

/** A seat on the board: its name (a computer player's with its level beside it), `info`
 * (e.g. cards in hand) and tags (dealer, absent, offline); `classes` adds to the seat's own
 * (its turn, mine). */
export function seatHTML(s, classes, info) {
  const v = S.view;
  const p = position(s, 40, 41);
  const all = ["seat", ...classes];
  if (v.turn === s && v.phase !== "over") all.push("turn");
  if (s === mySeat()) all.push("me");
  const seat = S.table.seats?.[s] ?? {};
  const tags = [];
  if (s === v.dealer) tags.push(`<span class="tag">${esc(t("game.dealer"))}</span>`);
  if (S.absent.has(s)) tags.push(`<span class="tag absent" title="${esc(t("game.absent"))}">${esc(t("game.away.tag"))}</span>`);
  else if (seat.kind === "human" && seat.connected === false) tags.push(`<span class="tag off">${esc(t("room.offline"))}</span>`);
  // Seats at the sides hug the edge so that their labels stay on the board, and their fans
  // of backs start from the label's edge (style.css), a short name being narrower than a fan.
  if (p.x < 25) all.push("edge-left");
  else if (p.x > 75) all.push("edge-right");
  const place =
    p.x < 25
      ? `left:1%;top:${p.y}%;transform:translate(0,-50%)`
      : p.x > 75
        ? `right:1%;top:${p.y}%;transform:translate(0,-50%)`
        : `left:${p.x}%;top:${p.y}%`;
  return `<div class="${all.join(" ")}" data-seat="${s}" style="${place}">
      <div class="seat-head"><span class="seat-name">${esc(seatName(s))}</span>${seat.kind === "bot" ? ` ${botTagHTML()}` : ""}</div>
      <div class="seat-info">${esc(info)} ${tags.join(" ")}</div>${s === mySeat() ? "" : backsHTML(v.hand_sizes?.[s], drawing().backs, p.y < 20)}</div>`;
}

/** "Wait for Ravi to play." (or to choose trump), naming the seat to move. */
export function waitText(seat, phase) {
  return () => t(phase === "hide" || phase === "announce" ? "why.wait.trump" : "why.wait", { name: seatName(seat) });
}

/** The suggestion for this turn, if any: its move in the page's notation. */
export function currentHint() {
  return S.hint && S.hint.event === S.last && S.view?.turn === S.view?.seat ? S.hint : null;
}

/** The move the chosen cards make, if the rules allow it now and no move awaits an
 * answer; else null. */
export function readyMove() {
  const v = S.view;
  if (!v || S.sending !== null || v.turn !== v.seat || away()) return null;
  return drawing().chosenMove(ctx);
}

/** Why a card of my hand may not be chosen now (a function giving the sentence in the
 * page's language), or null if it may: from the view alone. */
export function cardReason(code) {
  const v = S.view;
  if (!v || v.phase === "over" || v.turn === null || v.turn === undefined) return () => t("why.over");
  if (away()) return () => t("why.away");
  if (v.turn !== v.seat) return waitText(v.turn, v.phase);
  return drawing().cardReason(ctx, code);
}

/** What a game's drawing is given. */
export const ctx = { S, t, esc, nPlayers, seatName, teamName, position, seatHTML, mySeat, myTeam, watching, away, currentHint, readyMove, waitText, cardReason };
