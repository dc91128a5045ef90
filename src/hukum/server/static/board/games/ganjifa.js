// Dashavatara Ganjifa on the analysis board: round cards of ten suits (each hand wraps), no
// teams, the cards each player has captured, the trump of the day or night, moves that play
// a run (dukal) or give cards. The board finds this module by the game's name (board/load.js).
import { emblemSVG, gCardText, roundCardSVG, sortG, standingG } from "../../games/ganjifa.js";

/** Every player plays for themself. */
export const teams = false;

/** Forty round cards wrap instead of overlapping. */
export const handClass = "round";

export const sort = sortG;

export function cardFace(code, esc) {
  return roundCardSVG(code, esc(code));
}

/** The cards the player has captured so far. */
export function seatTags({ t }, p, s) {
  return [t("g.captured.short", { n: p.captured[s] })];
}

/** The move of a play in a trick (one card, or a run of them). */
export function playedMove(play) {
  return play.move;
}

export function playFace(play, esc) {
  return play.cards.map((c) => `<span class="g-fan">${roundCardSVG(c, esc(c))}</span>`).join("");
}

/** Trump is not marked on the trick's cards. */
export function isTrump() {
  return false;
}

/** A move in the list: its cards, a run marked as one. */
export function moveHTML({ t, esc }, text) {
  const [word, ...rest] = text.split(" ");
  if (word === "dukal") return `<small>${esc(t("g.dukal"))}</small> ${rest.map(gCardText).join(" ")}`;
  if (word === "give") return rest.map(gCardText).join(" ");
  return gCardText(text);
}

/** The same as plain text, for labels. */
export function moveWords({ t }, text) {
  const [word, ...rest] = text.split(" ");
  if (word === "dukal") return `${t("g.dukal")} ${rest.join(" ")}`;
  if (word === "give") return rest.join(" ");
  return text;
}

/** Trump: the suit of the day or of the night. */
export function factsHTML(ctx, p) {
  const { t, esc } = ctx;
  const time = ctx.S.table.rules?.time ?? "day";
  return `<div class="bd-facts"><span class="trump" id="bd-trump"><span class="label">${esc(t("game.trump"))}:</span> ${emblemSVG(p.trump, 20)} ${esc(t(`avatar.${p.trump}`))} <span class="hint">(${esc(t(`val.${time}`))})</span></span></div>`;
}

/** The deal's result: who captured most cards, and everyone's count. */
export function resultText(ctx, outcome) {
  return standingG(ctx, outcome.scores);
}

/** Why the server has no analysis of this deal: it analyses Mindi deals. */
export function noAnalysis() {
  return "board.mindionly";
}
