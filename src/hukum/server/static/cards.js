// Cards drawn as SVG: rank and suit in the corners, a large suit in the middle.
// Card codes are the engine's ASCII notation: "10S", "QH", "2C".
// Every suit drawn or written carries the class ink-<suit>: with four-colour cards chosen
// (the player's `cards` preference, <html data-cards="four">) style.css draws ♦ blue and
// ♣ green; the colours written here are the two-colour ones.

export const SUITS = ["C", "D", "H", "S"];
/** The order of suits in a hand: black and red alternate. */
export const HAND_ORDER = ["S", "H", "C", "D"];
const RANK_VALUE = { J: 11, Q: 12, K: 13, A: 14 };
export const SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };

// Each suit drawn in a 20×20 box.
const SHAPES = {
  D: '<path d="M10 0 L18.5 10 L10 20 L1.5 10 Z"/>',
  H: '<path d="M10 19 C4 14 0 10.5 0 6 C0 2.5 2.5 0 5.5 0 C7.5 0 9 1.2 10 3 C11 1.2 12.5 0 14.5 0 C17.5 0 20 2.5 20 6 C20 10.5 16 14 10 19 Z"/>',
  S: '<path d="M10 0 C16 6 20 9 20 12.5 C20 15.5 17.5 17 15 17 C13.3 17 11.8 16 11 15 C11.3 17 12.3 18.8 14 20 L6 20 C7.7 18.8 8.7 17 9 15 C8.2 16 6.7 17 5 17 C2.5 17 0 15.5 0 12.5 C0 9 4 6 10 0 Z"/>',
  C: '<circle cx="10" cy="5" r="4.8"/><circle cx="4.8" cy="11.6" r="4.6"/><circle cx="15.2" cy="11.6" r="4.6"/><path d="M9 11 L11 11 Q11.4 17 14 20 L6 20 Q8.6 17 9 11 Z"/>',
};

/** {rank: "10", suit: "S", value: 10} from a card code. */
export function parseCard(code) {
  const suit = code.slice(-1).toUpperCase();
  let rank = code.slice(0, -1).toUpperCase();
  if (rank === "T") rank = "10";
  const value = RANK_VALUE[rank] ?? Number(rank);
  return { rank, suit, value };
}

export function isRed(suit) {
  return suit === "H" || suit === "D";
}

/** An SVG drawing of one suit symbol, `size` pixels square. */
export function suitSVG(suit, size = 16) {
  const color = isRed(suit) ? "#c8102e" : "#1a1a1a";
  return `<svg class="suit-icon ink-${suit}" width="${size}" height="${size}" viewBox="0 0 20 20" fill="${color}" aria-hidden="true">${SHAPES[suit]}</svg>`;
}

/** The face of a card as an SVG element (text), sized by CSS. */
export function cardSVG(code) {
  const { rank, suit } = parseCard(code);
  const color = isRed(suit) ? "#c8102e" : "#1a1a1a";
  const small = rank === "10" ? 17 : 19;
  return `<svg class="card-face" viewBox="0 0 50 70" role="img" aria-label="${rank}${SYMBOL[suit]}">
<rect x="0.75" y="0.75" width="48.5" height="68.5" rx="4.5" fill="#fff" stroke="#888" stroke-width="1.5"/>
<g class="ink-${suit}" fill="${color}">
<text x="${rank === "10" ? 2.5 : 4}" y="18" font-family="DejaVu Sans, Arial, sans-serif" font-weight="700" font-size="${small}" ${rank === "10" ? 'letter-spacing="-1.5"' : ""}>${rank}</text>
<g transform="translate(4.5 22) scale(0.6)">${SHAPES[suit]}</g>
<g transform="translate(18 38) scale(1.35)">${SHAPES[suit]}</g>
</g></svg>`;
}

// The back's pattern: parallel diagonal lines inside the frame (x and y from 8 to 42 and
// 8 to 62), one way only, so that nothing on it can be read as a suit (a lattice or a
// lozenge would look like ♦).
const BACK_LINES = [];
for (let c = -30; c <= 50; c += 5) {
  // The line y = x + c, clipped to the frame.
  const x1 = Math.max(8, 8 - c);
  const x2 = Math.min(42, 62 - c);
  if (x2 - x1 > 1) BACK_LINES.push(`M${x1} ${x1 + c} L${x2} ${x2 + c}`);
}

/** The back of a card (a face-down card). */
export function backSVG() {
  return `<svg class="card-face" viewBox="0 0 50 70" role="img" aria-label="face-down card">
<rect x="0.75" y="0.75" width="48.5" height="68.5" rx="4.5" fill="#7a1f2b" stroke="#444" stroke-width="1.5"/>
<rect x="5" y="5" width="40" height="60" rx="3" fill="none" stroke="#e8c170" stroke-width="1.5"/>
<path d="${BACK_LINES.join(" ")}" fill="none" stroke="#e8c170" stroke-width="1" stroke-opacity="0.6" stroke-linecap="round"/>
</svg>`;
}

/** A card as plain text ("10♠"), e.g. for labels. */
export function cardLabel(code) {
  const { rank, suit } = parseCard(code);
  return `${rank}${SYMBOL[suit]}`;
}

/** A card as short inline text with a coloured suit, e.g. for lists of hands. */
export function cardText(code) {
  const { rank, suit } = parseCard(code);
  return `<span class="card-text ${isRed(suit) ? "red" : "black"} ink-${suit}">${rank}${SYMBOL[suit]}</span>`;
}

/** A hand sorted by suit (alternating colours), high cards first within a suit. */
export function sortHand(codes) {
  return [...codes].sort((a, b) => {
    const ca = parseCard(a);
    const cb = parseCard(b);
    const sa = HAND_ORDER.indexOf(ca.suit);
    const sb = HAND_ORDER.indexOf(cb.suit);
    return sa !== sb ? sa - sb : cb.value - ca.value;
  });
}
