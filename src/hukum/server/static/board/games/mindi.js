// Mindi on the analysis board: French-suited cards, the two teams (seats alternate), trump
// with how it was chosen, each team's tricks and tens. The board finds this module by the
// game's name (board/load.js).
import { SYMBOL, cardLabel, cardSVG, cardText, sortHand, suitSVG } from "../../cards.js";

/** Seats alternate between two teams (seat % 2). */
export const teams = true;

/** Extra classes of a hand (none: one row of overlapping cards). */
export const handClass = "";

export const sort = sortHand;

export function cardFace(code) {
  return cardSVG(code);
}

/** Words of a seat's own (none beyond the board's). */
export function seatTags() {
  return [];
}

/** The move of a card in a trick (the card). */
export function playedMove(play) {
  return play.card;
}

export function playFace(play) {
  return cardSVG(play.card);
}

export function isTrump(play) {
  return Boolean(play.trump);
}

/** A move in the list: its card (coloured), and what kind of move it is if not a card. */
export function moveHTML({ t, esc }, text) {
  const [word, ...rest] = text.split(" ");
  if (word === "hide") return `${cardText(rest[0])} <small>${esc(t("board.move.hide"))}</small>`;
  if (word === "reveal") return `<small>${esc(t("game.reveal"))}</small>`;
  if (word === "announce") return `<small>${esc(t("board.move.announce"))}</small> ${suitSVG(rest[0], 14)}`;
  return cardText(text);
}

/** The same as plain text, for labels. */
export function moveWords({ t }, text) {
  const [word, ...rest] = text.split(" ");
  if (word === "hide") return `${cardLabel(rest[0])} ${t("board.move.hide")}`;
  if (word === "reveal") return t("game.reveal");
  if (word === "announce") return `${t("board.move.announce")} ${SYMBOL[rest[0]]}`;
  return cardLabel(text);
}

/** Trump (and how it was chosen), and each team's tricks and tens. */
export function factsHTML(ctx, p) {
  const { t, esc, seatName, teamName } = ctx;
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

/** The deal's result: the winning team and why. */
export function resultText(ctx, outcome) {
  return ctx.outcomeText(outcome);
}

/** Why the server has no analysis of this deal: its solver is for four players. */
export function noAnalysis(rules) {
  return (rules.players ?? 4) !== 4 ? "board.fourplayers" : null;
}
