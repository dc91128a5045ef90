// Dashavatara Ganjifa in the page: round cards drawn as SVG, and the game's parts of the
// table (board, hand with several cards chosen at once, controls, scores), registered in
// games/index.js under the spec's name with the same parts as games/mindi.js.
// Card codes are the engine's notation: suit code + rank, e.g. "Ma1", "Ka10", "RaR", "KrM".

/** The ten avatar suits in avatar order (G-2): code, colour. */
export const G_SUITS = ["Ma", "Ku", "Vr", "Na", "Vm", "Pa", "Ra", "Kr", "Bu", "Ka"];
const COLOR = {
  Ma: "#0277bd", Ku: "#2e7d32", Vr: "#795548", Na: "#e65100", Vm: "#00897b",
  Pa: "#7b1fa2", Ra: "#c62828", Kr: "#1a237e", Bu: "#c2185b", Ka: "#455a64",
};

// Each emblem drawn in a 20×20 box, in the suit's colour (currentColor).
const EMBLEM = {
  // fish
  Ma: '<ellipse cx="8.5" cy="10" rx="7" ry="4.6"/><path d="M14 10 L19.5 4.5 L19.5 15.5 Z"/><circle cx="5" cy="9" r="1.1" fill="#fff"/>',
  // tortoise
  Ku: '<path d="M2.5 13 A7.5 7 0 0 1 17.5 13 Z"/><circle cx="18.2" cy="11.6" r="1.9"/><rect x="4" y="13" width="2.4" height="3.2" rx="1"/><rect x="13.2" y="13" width="2.4" height="3.2" rx="1"/><path d="M6 9.5 L14 9.5" stroke="#fff" stroke-width="0.8"/>',
  // boar
  Vr: '<ellipse cx="9" cy="11" rx="7.5" ry="4.8"/><rect x="15" y="9.6" width="4.6" height="3.4" rx="1.2"/><path d="M4.5 7.5 L6.5 3.5 L8 7 Z"/><rect x="4.5" y="14.5" width="2" height="3.5"/><rect x="11" y="14.5" width="2" height="3.5"/><path d="M16.5 13 L17.5 15.5" stroke="#fff" stroke-width="0.9"/>',
  // lion: a mane of rays round a face
  Na: '<path d="M10 0.5 L11.6 4 L15 2 L14.6 5.6 L18.6 5.5 L16.3 8.6 L19.5 10 L16.3 11.4 L18.6 14.5 L14.6 14.4 L15 18 L11.6 16 L10 19.5 L8.4 16 L5 18 L5.4 14.4 L1.4 14.5 L3.7 11.4 L0.5 10 L3.7 8.6 L1.4 5.5 L5.4 5.6 L5 2 L8.4 4 Z"/><circle cx="10" cy="10" r="4.2" fill="#fff"/><circle cx="8.6" cy="9.3" r="0.8"/><circle cx="11.4" cy="9.3" r="0.8"/><path d="M8.6 11.8 Q10 12.8 11.4 11.8" fill="none" stroke="currentColor" stroke-width="0.8"/>',
  // water pot of the dwarf
  Vm: '<circle cx="10" cy="12.6" r="6.2"/><rect x="8" y="3.2" width="4" height="5"/><rect x="6.4" y="1.5" width="7.2" height="2.4" rx="1.2"/><path d="M15.5 10.5 L19.5 7.5 L19.8 8.8 L16.4 12 Z"/>',
  // axe
  Pa: '<rect x="8.6" y="1.5" width="2.2" height="17.5" rx="1"/><path d="M10.8 2.5 C16.5 2 19.5 5.5 19.5 8 C19.5 10.5 16.5 13 10.8 12.5 Z"/>',
  // bow and arrow
  Ra: '<path d="M5 1.5 Q18.5 10 5 18.5" fill="none" stroke="currentColor" stroke-width="2"/><path d="M5 1.5 L5 18.5" stroke="currentColor" stroke-width="0.9"/><path d="M1 10 L16 10" stroke="currentColor" stroke-width="1.4"/><path d="M19.5 10 L15 7.4 L15 12.6 Z"/>',
  // discus
  Kr: '<circle cx="10" cy="10" r="8.2" fill="none" stroke="currentColor" stroke-width="2.2"/><circle cx="10" cy="10" r="2.6"/><path d="M10 2 L10 18 M2 10 L18 10 M4.3 4.3 L15.7 15.7 M15.7 4.3 L4.3 15.7" stroke="currentColor" stroke-width="1.1"/>',
  // conch
  Bu: '<path d="M3 15.5 C1 10 4 3.5 10.5 2.5 C16 1.8 19.5 6 18.5 10.5 C17.5 15 12.5 17.5 7 17.5 Z"/><path d="M6 15 C5 11 7.5 6.5 11.5 6.5 C14.5 6.5 15.5 9.5 14 11.5 C12.8 13 10.5 12.5 10.5 11" fill="none" stroke="#fff" stroke-width="1.1"/><path d="M7 17.5 L4 19.5 L3 15.5 Z"/>',
  // horse head
  Ka: '<path d="M5.5 19 L6.8 11.5 C5.8 9.5 6 6.5 8.8 4.5 L10.6 1.2 L11.9 3.9 C15.2 5 18.4 8.2 18.6 11.6 L16.4 13 L13.4 10.6 L12.4 13.6 L14.4 19 Z"/><circle cx="12.3" cy="6.8" r="0.9" fill="#fff"/>',
};

/** {suit: "Ma", rank: "1" | … | "10" | "M" | "R"} from a card code. */
export function parseG(code) {
  const suit = code.slice(0, 1).toUpperCase() + code.slice(1, 2).toLowerCase();
  return { suit, rank: code.slice(2).toUpperCase() };
}

/** A card's strength within its suit (G-3): Raja 11, Mantri 10, then the numerals, 1 high
 * in suits 1–5 and 10 high in suits 6–10. */
export function power(code) {
  const { suit, rank } = parseG(code);
  if (rank === "R") return 11;
  if (rank === "M") return 10;
  const n = Number(rank);
  return G_SUITS.indexOf(suit) < 5 ? 10 - n : n - 1;
}

/** A hand in avatar order, strongest first within a suit. */
export function sortG(codes) {
  return [...codes].sort((a, b) => {
    const sa = G_SUITS.indexOf(parseG(a).suit);
    const sb = G_SUITS.indexOf(parseG(b).suit);
    return sa !== sb ? sa - sb : power(b) - power(a);
  });
}

/** One suit's emblem as an SVG, `size` pixels square. */
export function emblemSVG(suit, size = 18) {
  return `<svg class="emblem" width="${size}" height="${size}" viewBox="0 0 20 20" style="color:${COLOR[suit]}" fill="currentColor" aria-hidden="true">${EMBLEM[suit]}</svg>`;
}

/** The round face of a card: a ring and emblem in the suit's colour, the rank below;
 * the two court cards (Raja, Mantri) on a ground of the suit's colour. */
export function roundCardSVG(code, label) {
  const { suit, rank } = parseG(code);
  const color = COLOR[suit];
  const court = rank === "R" || rank === "M";
  const ground = court ? color : "#fffaf0";
  const ink = court ? "#fff" : color;
  const crown = rank === "R" ? `<path d="M21 47 L23 41 L27 45 L30 39 L33 45 L37 41 L39 47 Z" fill="#f2c94c"/>` : "";
  return `<svg class="card-face round" viewBox="0 0 60 60" role="img" aria-label="${label}">
<circle cx="30" cy="30" r="28.5" fill="${ground}" stroke="${color}" stroke-width="3"/>
<circle cx="30" cy="30" r="24.5" fill="none" stroke="${court ? "#fff" : color}" stroke-width="0.8" stroke-dasharray="2 2"/>
<g transform="translate(18 7) scale(1.2)" style="color:${ink}" fill="currentColor">${EMBLEM[suit]}</g>
${crown}<text x="30" y="${rank === "R" ? 40 : 49}" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-weight="700" font-size="${rank === "10" ? 14 : 16}" fill="${ink}">${rank}</text>
</svg>`;
}

/** The back of a round card (another player's hand): the colours of the Mindi back, rings
 * and no emblem. */
export function roundBackSVG() {
  return `<svg class="card-face round" viewBox="0 0 60 60" role="img" aria-label="face-down card">
<circle cx="30" cy="30" r="28.5" fill="#7a1f2b" stroke="#444" stroke-width="2"/>
<circle cx="30" cy="30" r="23" fill="none" stroke="#e8c170" stroke-width="3"/>
<circle cx="30" cy="30" r="14" fill="none" stroke="#e8c170" stroke-width="2" stroke-opacity="0.6"/>
</svg>`;
}

/** A card as short inline text: its emblem and rank in the suit's colour. */
export function gCardText(code) {
  const { suit, rank } = parseG(code);
  return `<span class="card-text g" style="color:${COLOR[suit]}">${emblemSVG(suit, 14)}${rank}</span>`;
}

/** A card named in a sentence (a hint's reason): its emblem, avatar and rank in words, e.g.
 * "Krishna 3", "Rama Raja", in the suit's colour. */
export function gCardName({ t, esc }, code) {
  const { suit, rank } = parseG(code);
  const words = rank === "R" || rank === "M" ? t(`card.g.${rank}`) : rank;
  return `<span class="card-text g card-name" style="color:${COLOR[suit]}">${emblemSVG(suit, 14)} ${esc(t(`card.g.${suit}`))} ${esc(words)}</span>`;
}

/** A suit named in a sentence: its emblem and avatar. */
export function gSuitName({ t, esc }, suit) {
  return `<span class="card-text g card-name" style="color:${COLOR[suit]}">${emblemSVG(suit, 14)} ${esc(t(`card.g.${suit}`))}</span>`;
}

/** The legal Dukal made of exactly the chosen cards, if any. */
function dukalMove(view, chosen) {
  for (const move of view.legal) {
    const words = move.split(" ");
    if (words[0] !== "dukal" || words.length - 1 !== chosen.size) continue;
    if (words.slice(1).every((c) => chosen.has(c))) return move;
  }
  return null;
}

/** The move that plays, leads or gives the chosen cards, if the rules allow it now; else
 * null (too few cards chosen, or cards that make no move: nothing is sent). */
export function chosenMove(view, chosen) {
  const picked = [...chosen];
  const ok = choosable(view);
  if (!picked.length || !picked.every((c) => ok.has(c))) return null;
  if (view.phase === "answer") return picked.length === view.need ? `give ${picked.join(" ")}` : null;
  if (picked.length === 1) return view.legal.includes(picked[0]) ? picked[0] : null;
  return dukalMove(view, chosen);
}

/** Whether the cards are all part of one Dukal I may lead now. */
function inDukal(view, cards) {
  return view.legal.some((m) => {
    const words = m.split(" ");
    return words[0] === "dukal" && cards.every((c) => words.includes(c));
  });
}

/** The suit of a card code in words: its avatar, e.g. "Rama (bow)". */
function avatar(t, code) {
  return t(`avatar.${parseG(code).suit}`);
}

/** Why a card of my hand may not be chosen now (a function giving the sentence), or null
 * if it may; it is my turn. From the view alone: the allowed cards and the trick. */
export function cardReasonG(view, code, t) {
  if (choosable(view).has(code)) return null;
  if (view.phase === "lead") return () => t("g.opening.hint"); // G-6: the trump Raja alone
  const led = view.trick?.[0]?.cards?.[0];
  if (view.phase !== "follow" || !led) return () => t("why.card");
  // G-7: follow suit; holding none, a trump or the next suit held (or a trump first).
  const ledSuit = parseG(led).suit;
  const suits = new Set(view.allowed.map((c) => parseG(c).suit));
  if (suits.has(ledSuit)) return () => t("why.follow", { suit: avatar(t, led) });
  const next = view.allowed.find((c) => parseG(c).suit !== view.trump);
  const params = () => ({ led: avatar(t, led), trump: t(`avatar.${view.trump}`), next: next ? avatar(t, next) : "" });
  if (!next) return () => t("g.why.trump", params());
  return () => t(suits.has(view.trump) ? "g.why.next" : "g.why.nextonly", params());
}

/** A click on a card on my turn: choose or unchoose it in `picked` (a Set, changed in
 * place) so that the chosen cards are always part of a move the rules allow. Leading, cards
 * that make a Dukal together are added to each other, another card is chosen alone;
 * answering a Dukal, up to k cards; following, one card. Returns why the card was not
 * chosen as asked (a function giving the sentence), or null. */
export function pickG(view, picked, code, t) {
  if (picked.has(code)) {
    picked.delete(code);
    return null;
  }
  const why = cardReasonG(view, code, t);
  if (why) return why;
  if (view.phase === "answer") {
    if (picked.size >= view.need) return () => t("g.answer.full", { k: view.need });
    picked.add(code);
    return null;
  }
  const together = [...picked, code];
  const alone = picked.size > 1 && !inDukal(view, together);
  if (view.phase === "lead" && view.tricks_played > 0 && inDukal(view, together)) picked.add(code);
  else {
    picked.clear();
    picked.add(code);
  }
  return alone ? () => t("g.why.alone") : null;
}

/** The Dukals I may lead now, each not part of a longer one (for quick choosing). */
export function longestDukals(view) {
  const runs = view.legal.filter((m) => m.startsWith("dukal ")).map((m) => m.split(" ").slice(1));
  return runs.filter((r) => !runs.some((o) => o.length > r.length && r.every((c) => o.includes(c))));
}

/** The cards of my hand that may be part of a move now. */
export function choosable(view) {
  if (view.turn !== view.seat || view.phase === "over") return new Set();
  if (view.phase === "lead") {
    const out = new Set();
    for (const move of view.legal) for (const c of move.split(" ")) if (c !== "dukal") out.add(c);
    return out;
  }
  return new Set(view.allowed);
}


// ---------------------------------------------------------------- the table's parts
// Each takes the table's context (table/context.js): {S, t, esc, seatName, position, seatHTML, mySeat, …}.

/** The trump suit: Rama by day, Krishna by night (G-5). */
export function trumpG({ S, t, esc }) {
  const v = S.view;
  return `<div class="trump" id="trump"><span class="label">${esc(t("game.trump"))}:</span>
    ${emblemSVG(v.trump, 22)} <span>${esc(t(`avatar.${v.trump}`))}</span>
    <span class="hint">(${esc(t(`val.${v.time}`))})</span></div>`;
}

/** A move on the board: its cards side by side, each showing its emblem and rank (a Dukal
 * or an answer of several cards overlaps only the cards' right parts; style.css). */
function playedHTML(p, pos, i, esc) {
  const cards = p.cards
    .map((c) => `<span class="g-fan">${roundCardSVG(c, esc(c))}</span>`)
    .join("");
  const kind = p.move.split(" ")[0];
  return `<div class="played g ${kind === "dukal" || kind === "give" ? kind : ""}" data-seat="${p.seat}" data-move="${esc(p.move)}" style="left:${pos.x}%;top:${pos.y}%;z-index:${i + 1}">${cards}</div>`;
}

/** The board: three seats, the trick or Dukal in progress (or the last one, faded). */
export function boardG({ S, t, esc, seatName, position, seatHTML, mySeat }) {
  const v = S.view;
  const seats = [];
  for (let s = 0; s < 3; s++) {
    const facts = [t("g.captured.short", { n: v.captured?.[s] ?? 0 })];
    if (s !== mySeat()) facts.unshift(t("game.cards", { n: v.hand_sizes?.[s] ?? 0 }));
    seats.push(seatHTML(s, [], facts.join(" · ")));
  }
  let plays = v.trick ?? [];
  let caption = "";
  let old = false;
  if (!plays.length && v.last_trick) {
    plays = v.last_trick.plays ?? [];
    old = true;
    caption = t("g.took", { name: seatName(v.last_trick.winner), n: plays.reduce((a, p) => a + p.cards.length, 0) });
  } else if (v.dukal) {
    caption = t("g.dukal.led", { name: seatName(plays[0]?.seat ?? v.turn), k: v.dukal });
  }
  // Near the middle: clear of the top seats' labels on a phone's shorter board too.
  const trick = plays.map((p, i) => playedHTML(p, position(p.seat, 20, 14), i, esc)).join("");
  return `<div class="board ganjifa" id="board">${seats.join("")}
    <div class="trick ${old ? "old" : ""}" id="trick">${trick}</div>
    ${caption ? `<div class="trick-caption">${esc(caption)}</div>` : ""}</div>`;
}

/** My hand in avatar order; the cards that may be part of a move now are marked. */
export function handG({ S, esc, away }) {
  const v = S.view;
  const hand = sortG(v.hand ?? []);
  for (const c of [...S.picked]) if (!hand.includes(c)) S.picked.delete(c);
  const myTurn = v.turn === v.seat && v.phase !== "over" && !away();
  const ok = choosable(v);
  const cards = hand
    .map((code) => {
      const classes = ["card", "round", `gsuit-${parseG(code).suit}`];
      if (myTurn && ok.has(code)) classes.push("legal");
      else if (myTurn) classes.push("dimmed");
      const on = S.picked.has(code);
      if (on) classes.push("selected");
      return `<button class="${classes.join(" ")}" data-action="card" data-card="${esc(code)}" aria-pressed="${on}" aria-disabled="${!ok.has(code)}" aria-label="${esc(code)}">${roundCardSVG(code, esc(code))}</button>`;
    })
    .join("");
  return `<div class="hand ganjifa" id="hand" role="group">${cards}</div>`;
}

/** The buttons and the hint for my decision: lead (a card or a Dukal), follow, or give k
 * cards to someone's Dukal. */
export function controlsG({ S, t, esc, seatName }) {
  const v = S.view;
  const myTurn = v.turn === v.seat && v.phase !== "over";
  const parts = [];
  let hint = "";
  if (!myTurn) return { parts, hint };
  const move = chosenMove(v, S.picked);
  const off = move && S.sending === null ? "" : "disabled"; // one click, one move
  if (v.phase === "answer") {
    const leader = v.trick?.[0]?.seat;
    hint = t("g.answer.hint", { name: seatName(leader), k: v.need, n: S.picked.size });
    parts.push(`<button id="play-card" class="primary" data-action="play" ${off}>${esc(t("g.give", { k: v.need }))}</button>`);
  } else if (v.phase === "lead") {
    hint = v.tricks_played === 0 ? t("g.opening.hint") : t("g.lead.hint");
    const label = move?.startsWith("dukal ") ? t("g.lead.dukal", { k: S.picked.size }) : t("game.play");
    parts.push(`<button id="play-card" class="primary" data-action="play" ${off}>${esc(label)}</button>`);
    if (S.picked.size > 1 && !dukalMove(v, S.picked)) hint = t("g.notdukal");
    const runs = longestDukals(v);
    if (runs.length) {
      const chips = runs
        .map((r, i) => `<button class="small dukal-chip" data-action="pick-dukal" data-cards="${esc(r.join(" "))}" id="dukal-${i}">${r.map(gCardText).join(" ")}</button>`)
        .join(" ");
      parts.push(`<span class="dukals" id="dukals"><span class="label">${esc(t("g.dukals"))}:</span> ${chips}</span>`);
    }
  } else {
    hint = t("g.follow.hint");
    parts.push(`<button id="play-card" class="primary" data-action="play" ${off}>${esc(t("game.play"))}</button>`);
  }
  if (S.picked.size) parts.push(`<button class="small" data-action="clear" id="clear">${esc(t("g.clear"))}</button>`);
  return { parts, hint };
}

/** The result of the deal: who won or shared the win, with the captured cards; `extra`
 * (HTML) after them, e.g. a button. */
export function bannerG(ctx, extra = "") {
  const { S, esc, mySeat } = ctx;
  const o = S.view.outcome;
  if (!o) return "";
  const { head, why } = standingG(ctx, o.scores);
  const me = mySeat();
  const good = me === null || o.winners.includes(me);
  return `<div class="banner result ${good ? "good" : "bad"}" id="result" role="status">
    <strong>${esc(head)}</strong> <span class="why">${esc(why)}</span>${extra}</div>`;
}

/** Who wins with these scores (cards captured) and how, as Outcome.describe says it: the
 * winner's cards first, then each other player's, highest first (not in seat order). */
export function standingG({ t, seatName, mySeat }, scores) {
  const me = mySeat();
  const top = Math.max(...scores);
  const winners = scores.map((_, s) => s).filter((s) => scores[s] === top);
  const names = winners.map((s) => (s === me ? t("g.you") : seatName(s)));
  let head;
  if (winners.length === 1) head = winners[0] === me ? t("g.result.you") : t("g.result.wins", { name: names[0] });
  else head = t("g.result.shared", { names: names.join(", ") });
  const others = scores
    .map((_, s) => s)
    .filter((s) => scores[s] !== top)
    .sort((a, b) => scores[b] - scores[a] || a - b)
    .map((s) => t("g.result.has", { name: seatName(s), n: scores[s] }));
  const why = t(winners.length === 1 ? "g.result.cards" : "g.result.each", { n: top }) + (others.length ? `; ${others.join(", ")}` : "");
  return { head, why };
}

/** Cards captured by each player in this deal (and over the match when it has several). */
export function scoreG({ S, t, esc, seatName, mySeat }) {
  const v = S.view;
  const several = (v.deals ?? 1) > 1;
  const rows = [0, 1, 2]
    .map((s) => `<tr class="${s === mySeat() ? "ours" : ""}"><th>${esc(seatName(s))}</th>
      <td class="captured" data-seat="${s}">${v.captured?.[s] ?? 0}</td>
      ${several ? `<td class="points" data-seat="${s}">${v.scores?.[s] ?? 0}</td>` : ""}</tr>`)
    .join("");
  return `<section class="panel score" id="score"><h3>${esc(t("score.title"))} · ${esc(t("game.deal", { n: v.deal_number ?? 1 }))}</h3>
    <table><thead><tr><th></th><th>${esc(t("g.captured"))}</th>${several ? `<th>${esc(t("g.match"))}</th>` : ""}</tr></thead>
    <tbody>${rows}</tbody></table><p class="hint">${esc(t("g.score.hint"))}</p></section>`;
}

/** The last trick or Dukal, move by move. */
export function lastTrickG({ S, t, esc, seatName }) {
  const lt = S.view.last_trick;
  if (!lt) return `<section class="panel" id="last-trick"><h3>${esc(t("game.lasttrick"))}</h3><p>${esc(t("game.lasttrick.none"))}</p></section>`;
  const rows = lt.plays
    .map((p) => `<li class="${p.seat === lt.winner ? "winner" : ""}">${esc(seatName(p.seat))}: ${p.move.startsWith("dukal") ? esc(t("g.dukal")) + " " : ""}${p.cards.map(gCardText).join(" ")}</li>`)
    .join("");
  return `<section class="panel" id="last-trick"><h3>${esc(t("game.lasttrick"))}</h3><ul>${rows}</ul>
    <p>${esc(t("game.wontrick", { name: seatName(lt.winner) }))}</p></section>`;
}

/** The match's result: {good: whether this seat won, text: the standing}. */
function matchOver(ctx) {
  const { S, mySeat } = ctx;
  const scores = S.table.scores ?? [];
  const o = S.view.outcome;
  const standing = scores.length ? standingG(ctx, scores) : null;
  return { good: !!o && (o.winners ?? []).includes(mySeat()), text: standing ? `${standing.head} · ${standing.why}` : "" };
}

/** The cards of a move ("dukal Ma2 Ma3", "give Ka1 Ku9"): its words but the kind. */
function moveCards(move) {
  return String(move)
    .split(" ")
    .filter((w) => w !== "dukal" && w !== "give");
}

export const drawing = {
  name: "ganjifa",
  teams: false,
  backs: { svg: roundBackSVG, per: 4, round: true },
  label: ({ S, t }) => `${t("g.name")} · ${t(`val.${S.table?.rules?.time ?? "day"}`)}`,
  trump: trumpG,
  board: boardG,
  hand: handG,
  controls: controlsG,
  banner: (ctx) => {
    const { S, t, esc } = ctx;
    const v = S.view;
    return bannerG(ctx, v.outcome ? `<button class="small" id="analyse" data-action="analyse" data-deal="${v.deal_number}">${esc(t("board.replay"))}</button>` : "");
  },
  matchOver,
  score: scoreG,
  lastTrick: lastTrickG,
  cardReason: ({ S, t }, code) => cardReasonG(S.view, code, t),
  pick: ({ S, t, cardReason }, code) => {
    const v = S.view;
    return v.turn === v.seat && v.phase !== "over" ? pickG(v, S.picked, code, t) : cardReason(code);
  },
  chosenMove: ({ S }) => chosenMove(S.view, S.picked),
  /** The move `move` was made: unchoose its cards (a second click cannot send them again). */
  played: ({ S }, move) => {
    if (S.view && S.picked.size && chosenMove(S.view, S.picked) === move) S.picked.clear();
  },
  takeHint: ({ S }, move) => {
    const cards = moveCards(move);
    if (cards.every((c) => (S.view.hand ?? []).includes(c))) S.picked = new Set(cards);
  },
  hintText: (ctx, move) => moveCards(move).map((c) => gCardName(ctx, c)).join(" "),
  choosable: ({ S }, code) => choosable(S.view).has(code),
  chosen: ({ S }) => [...S.picked].at(-1) ?? null,
  choose: ({ S }, code) => {
    S.picked = new Set([code]);
  },
  sort: sortG,
  cardText: gCardText,
  cardName: gCardName,
  suitName: gSuitName,
  dealLinksKey: "board.match.replay",
  /** The lobby's panel of Ganjifa (pages/lobby.js): its ids and words, and day or night
   * chosen on the panel itself (G-5). */
  lobby: {
    ids: { panel: "ganjifa-panel", play: "play-ganjifa", room: "ganjifa-room", prefix: "g-" },
    name: "g.name",
    title: "g.lobby.title",
    text: "g.lobby.text",
    playButton: "g.lobby.play",
    roomButton: "g.lobby.room",
    quick: [{ name: "time", label: "g.lobby.time", value: (v) => `g.${v}` }],
  },
};
