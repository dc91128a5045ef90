// The table: every hand face up round the trick, each seat in its place at the table (the
// viewer, or the first seat, at the bottom), the trick's cards each on its player's side and
// named. The cards, moves and facts of the deal's game are its drawing's (board/games/).
import { B, judged, moveAt, position } from "./state.js";

// Where each seat sits: slots of a 3×3 grid round the trick, from the bottom (the viewer, or
// the first seat) in the direction of play; anticlockwise, the next player is on the right.
const AREAS = ["s", "se", "e", "ne", "n", "nw", "w", "sw"];
const RING = { 3: [0, 3, 5], 4: [0, 2, 4, 6], 6: [0, 1, 3, 4, 5, 7], 8: [0, 1, 2, 3, 4, 5, 6, 7] };
const MIRROR = { s: "s", se: "sw", e: "w", ne: "nw", n: "n", nw: "ne", w: "e", sw: "se" };

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

/** The seats round the trick, the mover's better cards (a mistake's) lit. */
export function tableHTML(ctx) {
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
  const game = B.game;
  const classes = ["bd-seat", `area-${area}`];
  if (game.teams) classes.push(`team-${s % 2}`);
  if (game.teams && s % 2 === myTeam()) classes.push("ours");
  if (p.turn === s) classes.push("turn");
  if (mover) classes.push("mover");
  const tags = [];
  if (s === B.data.dealer) tags.push(`<span class="tag">${esc(t("game.dealer"))}</span>`);
  if (S.table.seats?.[s]?.kind === "bot") tags.push(`<span class="tag bot">${esc(t("room.bot"))}</span>`);
  if (p.turn === s) tags.push(`<span class="tag turn">${esc(t("board.toplay"))}</span>`);
  for (const tag of game.seatTags(ctx, p, s)) tags.push(`<span class="tag">${esc(tag)}</span>`);
  const cards = game
    .sort(hand)
    .map((c) => {
      const better = best.has(c);
      return `<span class="bd-card${better ? " best" : ""}" data-card="${esc(c)}"${better ? ` title="${esc(t("board.better.card"))}"` : ""}>${game.cardFace(c, esc)}</span>`;
    })
    .join("");
  return `<div class="${classes.join(" ")}" data-seat="${s}" style="grid-area:${area}">
    <div class="bd-name"><b>${esc(seatName(s))}</b> ${tags.join(" ")}</div>
    <div class="bd-hand${game.handClass ? ` ${game.handClass}` : ""}" role="group" aria-label="${esc(t("board.hand", { name: seatName(s), n: hand.length }))}">${cards || `<span class="hint">${esc(t("board.empty"))}</span>`}</div></div>`;
}

/** The trick in progress, or the one just completed with its winner, each card on the
 * side of the player who played it (`area`: a seat's place) with the player's name. The card
 * of the move just made is marked, and if it was a mistake, marked as one. */
function trickHTML(ctx, p, last, verdict, area) {
  const { t, esc, seatName } = ctx;
  const game = B.game;
  let plays = p.trick;
  let caption = "";
  if (!plays.length && p.last_trick && last && last.trick === p.tricks_played) {
    plays = p.last_trick.plays;
    caption = t("game.wontrick", { name: seatName(p.last_trick.winner) });
  }
  const cards = plays
    .map((play) => {
      const move = game.playedMove(play);
      const just = last && play.seat === last.seat && move === last.move;
      const classes = ["bd-played"];
      if (just) classes.push("just");
      if (just && verdict?.mistake) classes.push("mistake");
      if (game.isTrump(play)) classes.push("trump");
      const mark = just && verdict?.mistake ? `<span class="bd-q" aria-label="${esc(t("board.mistake"))}">?</span>` : "";
      const name = seatName(play.seat);
      const label = `${name}: ${game.moveWords(ctx, move)}`;
      return `<figure class="${classes.join(" ")}" data-seat="${play.seat}" style="grid-area:${area(play.seat)}" title="${esc(label)}" aria-label="${esc(label)}"><div class="bd-face">${game.playFace(play, esc)}${mark}</div><figcaption class="bd-by" aria-hidden="true">${esc(name)}</figcaption></figure>`;
    })
    .join("");
  const trick = Math.min(p.tricks_played + (caption ? 0 : 1), B.data.positions.at(-1).tricks_played);
  const head = B.move === 0 ? "" : `<div class="bd-trick-head">${esc(t("analysis.trick", { n: trick }))}</div>`;
  return `<div class="bd-cards">${head}${cards}</div>${caption ? `<div class="bd-caption" id="bd-winner">${esc(caption)}</div>` : ""}`;
}
