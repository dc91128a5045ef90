// Mindi in the page: the parts of the table that are the game's (trump, board, hand,
// controls, results, scores, last trick, why a card may not be played), registered in
// games/index.js under the spec's name. Each part takes the table's context `ctx`
// (table/context.js: {S, t, esc, seatName, teamName, position, seatHTML, mySeat, myTeam,
// currentHint, readyMove, cardReason, …}); the view is ctx.S.view.
import { SUITS, SYMBOL, backSVG, cardSVG, cardText, parseCard, sortHand, suitSVG } from "../cards.js";
import { presetLabel } from "../widgets/rules.js";

const CARD_RE = /^(10|[2-9JQKA])[CDHS]$/; // a move that plays a card

function legalSet(S) {
  return new Set(S.view?.legal ?? []);
}

/** The move a click on a card of my hand makes now: play it, or lay it face down. */
function cardMove(S, code) {
  return S.view?.phase === "hide" ? `hide ${code}` : code;
}

function isLegalCard(S, code) {
  return legalSet(S).has(cardMove(S, code));
}

/** A suit in words: "spades ♠". */
function suitWords(t, suit) {
  return `${t(`suit.${suit}`)} ${SYMBOL[suit]}`;
}

/** Why a card may not be played on my turn (a function giving the sentence), or null: from
 * the legal moves, the led suit and trump. */
function cardReason({ S, t }, code) {
  const v = S.view;
  if (isLegalCard(S, code)) return null;
  if (v.phase === "announce") return () => t("why.announce");
  const led = v.trick?.length ? parseCard(v.trick[0].card).suit : null;
  const suits = new Set([...legalSet(S)].filter((m) => CARD_RE.test(m)).map((c) => parseCard(c).suit));
  if (led && suits.size === 1) {
    const [suit] = suits;
    if (suit === led) return () => t("why.follow", { suit: suitWords(t, suit) }); // M-8
    if (suit === v.trump) return () => t("why.trump", { suit: suitWords(t, suit) }); // M-8 must_trump, M-12
  }
  return () => t("why.card");
}

function trumpHTML({ S, t, esc, seatName }) {
  const v = S.view;
  const rules = S.table.rules ?? {};
  let body;
  if (v.trump && v.trump_known) {
    body = `${suitSVG(v.trump, 22)} <span>${esc(t(`suit.${v.trump}`))}</span>`;
    if (v.shown_card) body += ` <span class="mini">${cardText(v.shown_card)} ${esc(t("game.trump.shown"))}</span>`;
  } else if (v.face_down) {
    body = `<span class="mini-card">${cardSVG(v.face_down)}</span> <span>${esc(t("game.trump.yours"))}</span>`;
  } else if (v.trump) {
    body = `${suitSVG(v.trump, 22)} <span>${esc(t("game.trump.yours"))}</span>`;
  } else if (rules.trump === "band" && v.face_down_placed !== false && v.phase !== "hide") {
    body = `<span class="mini-card">${backSVG()}</span> <span>${esc(t("game.trump.hidden"))}</span>`;
  } else {
    body = `<span>${esc(t("game.trump.unknown"))}</span>`;
  }
  let revealed = "";
  if (v.reveal) revealed = `<div class="hint">${esc(t("game.revealed", { name: seatName(v.reveal.seat) }))} ${cardText(v.reveal.card)}</div>`;
  return `<div class="trump" id="trump"><span class="label">${esc(t("game.trump"))}:</span> ${body}${revealed}</div>`;
}

function boardHTML({ S, t, esc, nPlayers, seatName, position, seatHTML, mySeat, myTeam }) {
  const v = S.view;
  const n = nPlayers();
  const seats = [];
  for (let s = 0; s < n; s++) {
    const size = v.hand_sizes?.[s];
    const info = size !== undefined && s !== mySeat() ? t("game.cards", { n: size }) : "";
    seats.push(seatHTML(s, s % 2 === myTeam() ? ["ours"] : [], info));
  }
  let plays = v.trick ?? [];
  let caption = "";
  let old = false;
  if (!plays.length && v.last_trick && (v.tricks_played > 0 || v.phase === "over")) {
    plays = v.last_trick.plays ?? [];
    old = true;
    caption = t("game.wontrick", { name: seatName(v.last_trick.winner) });
  }
  const trick = plays
    .map((p, i) => {
      const pos = position(p.seat, 14, 20);
      return `<div class="played ${p.trump ? "trump" : ""}" data-seat="${p.seat}" data-card="${esc(p.card)}" style="left:${pos.x}%;top:${pos.y}%;z-index:${i + 1}">${cardSVG(p.card)}</div>`;
    })
    .join("");
  const pile = S.table.rules?.capture === "dehla" && v.pile?.length ? `<div class="pile">${esc(t("game.pile", { n: v.pile.length }))}</div>` : "";
  return `<div class="board" id="board">${seats.join("")}
    <div class="trick ${old ? "old" : ""}" id="trick">${trick}</div>
    ${caption ? `<div class="trick-caption">${esc(caption)}</div>` : ""}${pile}</div>`;
}

function handHTML({ S, esc, away }) {
  const v = S.view;
  const hand = sortHand(v.hand ?? []);
  if (S.selected && !hand.includes(S.selected)) S.selected = null;
  // Cards are chosen only to play them or (band hukum) to lay one face down; not while a
  // computer plays my seat.
  const myTurn = v.turn === v.seat && (v.phase === "play" || v.phase === "hide") && !away();
  const cards = hand
    .map((code) => {
      const { suit } = parseCard(code);
      const legal = myTurn && isLegalCard(S, code);
      const classes = ["card", `suit-${suit}`];
      if (legal) classes.push("legal");
      else if (myTurn) classes.push("dimmed");
      if (code === S.selected) classes.push("selected");
      return `<button class="${classes.join(" ")}" data-action="card" data-card="${esc(code)}" aria-pressed="${code === S.selected}" aria-disabled="${!legal}" aria-label="${esc(code)}">${cardSVG(code)}</button>`;
    })
    .join("");
  // On a phone (style.css) the hand is rows of --cols cards, each showing its index and
  // at least 44 px wide to tap: up to 8 cards in one row, more in two.
  const cols = hand.length > 8 ? Math.ceil(hand.length / 2) : Math.max(hand.length, 1);
  return `<div class="hand" id="hand" role="group" style="--cols:${cols}">${cards}</div>`;
}

/** The buttons and the hint for a deal in progress: choose trump, lay it face down, play. */
function controls({ S, t, esc, currentHint, readyMove }) {
  const v = S.view;
  const legal = legalSet(S);
  const myTurn = v.turn === v.seat && v.phase !== "over";
  const parts = [];
  let hint = "";
  if (v.phase === "announce" && myTurn) {
    hint = t("game.announce.hint");
    for (const s of SUITS) {
      if (legal.has(`announce ${s}`))
        parts.push(`<button class="suit-btn${currentHint()?.move === `announce ${s}` ? " suggested" : ""}" data-action="announce" data-suit="${s}" id="announce-${s}" ${S.sending === null ? "" : "disabled"}>${suitSVG(s, 20)} ${esc(t(`suit.${s}`))}</button>`);
    }
  } else if (v.phase === "hide" && myTurn) {
    hint = t("game.hide.hint");
    parts.push(`<button id="play-card" class="primary" data-action="play" ${readyMove() ? "" : "disabled"}>${esc(t("game.hide"))}</button>`);
  } else if (v.phase === "play") {
    if (myTurn) hint = t("game.select.hint");
    parts.push(`<button id="play-card" class="primary" data-action="play" ${readyMove() ? "" : "disabled"}>${esc(t("game.play"))}</button>`);
    if (myTurn && legal.has("reveal"))
      parts.push(`<button id="reveal" ${currentHint()?.move === "reveal" ? `class="suggested" ` : ""}data-action="reveal" ${S.sending === null ? "" : "disabled"}>${esc(t("game.reveal"))}</button>`);
  }
  return { parts, hint };
}

/** A deal's outcome in words: who won and how, and the points. */
function outcomeText({ t, myTeam }, o) {
  const team = myTeam();
  const who = team === null ? t("result.team", { n: o.winner + 1 }) : o.winner === team ? t("result.we") : t("result.they");
  const w = o.winner;
  const l = 1 - w;
  const a = o.tens[w];
  const b = o.tens[l];
  let why;
  if (o.decided_by === "tricks") why = t("result.tricks", { a, b, c: o.tricks[w], d: o.tricks[l] });
  else if (o.decided_by === "last_trick") why = t("result.last_trick", { a, b });
  else if (o.decided_by === "highest_trick") why = t("result.highest_trick", { a, b, n: (o.highest_trick ?? 0) + 1 });
  else why = t("result.tens", { a, b });
  return { head: who + t(`result.${o.kind}`), why, points: t(o.points === 1 ? "result.point" : "result.points", { n: o.points }) };
}

/** The deal's result, with a way to its analysis board; "" while it is played. */
function banner(ctx) {
  const { S, t, esc, myTeam } = ctx;
  const v = S.view;
  if (!v.outcome) return "";
  const o = outcomeText(ctx, v.outcome);
  const good = myTeam() === null || v.outcome.winner === myTeam();
  return `<div class="banner result ${good ? "good" : "bad"} kind-${esc(v.outcome.kind)}" id="result" role="status">
      <strong>${esc(o.head)}</strong> <span class="why">${esc(o.why)}</span> <span class="pts">${esc(o.points)}</span>
      <button class="small" id="analyse" data-action="analyse" data-deal="${v.deal_number}">${esc(t("analysis.button"))}</button></div>`;
}

/** The match's result: {good: whether it is good news to this page, text}. */
function matchOver({ S, t, myTeam }) {
  const scores = S.table.scores ?? S.view.scores ?? [0, 0];
  const mine = myTeam();
  const team = mine ?? 0;
  const we = scores[team] >= scores[1 - team];
  const a = Math.max(...scores);
  const b = Math.min(...scores);
  let text;
  if (mine !== null) text = t(we ? "match.we" : "match.they", { a, b });
  else if (a === b) text = t("match.level", { a, b });
  else text = t("match.team", { n: scores.indexOf(a) + 1, a, b });
  return { good: we || mine === null, text };
}

function scoreHTML({ S, t, esc, teamName, myTeam }) {
  const v = S.view;
  const scores = v.scores ?? S.table.scores ?? [0, 0];
  const target = v.target ?? S.table.rules?.target;
  const teams = [0, 1].map((team) => {
    const tens = (v.tens?.[team] ?? []).map((c) => cardText(c)).join(" ") || "–";
    return `<tr class="team-${team} ${team === myTeam() ? "ours" : ""}"><th>${esc(teamName(team))}</th>
      <td class="tens" data-team="${team}"><span class="count">${v.tens?.[team]?.length ?? 0}</span> ${tens}</td>
      <td class="tricks" data-team="${team}">${v.tricks_won?.[team] ?? 0}</td>
      <td class="points" data-team="${team}">${scores[team] ?? 0}</td></tr>`;
  });
  return `<section class="panel score" id="score"><h3>${esc(t("score.title"))} · ${esc(t("game.deal", { n: v.deal_number ?? 1 }))}</h3>
    <table><thead><tr><th></th><th>${esc(t("score.tens"))}</th><th>${esc(t("score.tricks"))}</th><th>${esc(t("score.points"))}</th></tr></thead>
    <tbody>${teams.join("")}</tbody></table>
    ${target ? `<p class="hint">${esc(t("score.target", { n: target }))}</p>` : ""}</section>`;
}

function lastTrickHTML({ S, t, esc, seatName }) {
  const lt = S.view.last_trick;
  if (!lt) return `<section class="panel" id="last-trick"><h3>${esc(t("game.lasttrick"))}</h3><p>${esc(t("game.lasttrick.none"))}</p></section>`;
  const rows = (lt.plays ?? [])
    .map((p) => `<li class="${p.seat === lt.winner ? "winner" : ""}">${esc(seatName(p.seat))}: ${cardText(p.card)}${p.trump ? " ★" : ""}</li>`)
    .join("");
  return `<section class="panel" id="last-trick"><h3>${esc(t("game.lasttrick"))}</h3><ul>${rows}</ul>
    <p>${esc(t("game.wontrick", { name: seatName(lt.winner) }))}</p></section>`;
}

/** A click on a card of my hand: unchoose it, or choose it if it may be played (else why not). */
function pick({ S, cardReason }, code) {
  if (S.selected === code) {
    S.selected = null;
    return null;
  }
  const why = cardReason(code);
  if (!why) S.selected = code;
  return why;
}

/** The server's suggestion `move` for this turn: choose its card (the player still presses Play). */
function takeHint({ S }, move) {
  const words = String(move).split(" ");
  if (CARD_RE.test(words.at(-1)) && (words.length === 1 || words[0] === "hide")) S.selected = words.at(-1);
}

/** A suggested move as HTML. */
function hintText({ t, esc }, move) {
  const words = move.split(" ");
  if (words[0] === "reveal") return esc(t("game.reveal"));
  if (words[0] === "announce") return `${suitSVG(words[1], 16)} ${esc(t(`suit.${words[1]}`))}`;
  return cardText(words.at(-1));
}

export const drawing = {
  name: "mindi",
  teams: true,
  backs: { svg: backSVG, per: 1, round: false },
  label: ({ S }) => presetLabel(S.table?.preset ?? "classic"),
  trump: trumpHTML,
  board: boardHTML,
  hand: handHTML,
  controls,
  banner,
  matchOver,
  score: scoreHTML,
  lastTrick: lastTrickHTML,
  cardReason,
  pick,
  chosenMove: ({ S }) => (S.selected && isLegalCard(S, S.selected) ? cardMove(S, S.selected) : null),
  /** The move `move` was made: unchoose its card (a second click cannot send it again). */
  played: ({ S }, move) => {
    if (S.selected && cardMove(S, S.selected) === move) S.selected = null;
  },
  takeHint,
  hintText,
  choosable: ({ S }, code) => isLegalCard(S, code),
  chosen: ({ S }) => S.selected,
  choose: ({ S }, code) => {
    S.selected = code;
  },
  sort: sortHand,
  cardText,
  /** A card or a suit named in a sentence (a hint's reason): as the table draws it. */
  cardName: (ctx, code) => cardText(code),
  suitName: ({ t, esc }, suit) => esc(suitWords(t, suit)),
  dealLinksKey: "board.match",
  /** Whether a finished match has a report (the solver analyses 4-player deals). */
  report: (table) => (table.rules?.players ?? 4) === 4,
  outcomeText,
  /** The lobby's panel of Mindi (pages/lobby.js): its ids and words; its fields' ids have no
   * prefix (#level), as they had before a lobby drew every game. */
  lobby: {
    ids: { panel: "play-panel", play: "play-now", room: "mindi-room", prefix: "" },
    name: "mindi.name",
    title: "lobby.play.title",
    text: "lobby.play.text",
    playButton: "lobby.play.button",
  },
};
