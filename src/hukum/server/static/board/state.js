// The board's state: the deal shown, its analysis, the position, and the questions every
// part of the board asks of them. One board at a time, so one state.

/** The board's address: deal n of a table, at position `move` (moves made) if given. */
export function boardPath(code, n, move) {
  const path = `/t/${encodeURIComponent(code)}/deals/${n}`;
  return move === undefined ? path : `${path}?move=${move}`;
}

export const B = {
  code: null,
  n: 0,
  data: null, // GET /api/tables/<code>/deals/<n>
  game: null, // the drawing of the deal's game (board/games/<game>.js)
  analysis: null, // {loading: true} | {data} | {error}; null: not asked yet
  byNumber: new Map(), // move number -> its analysis
  move: 0, // the position shown: moves made, 0 (as dealt) … data.moves.length
  error: null, // why there is no board: {code, message}
  copied: false,
  seq: 0, // the board being loaded (an older answer is dropped)
};

/** Every move of the deal, each with its number, seat, trick and text. */
export function moves() {
  return B.data?.moves ?? [];
}

/** The position shown. */
export function position() {
  return B.data.positions[B.move];
}

/** Move `number` (from 1), or null. */
export function moveAt(number) {
  return number >= 1 ? (moves()[number - 1] ?? null) : null;
}

/** The analysis of the move just made (the move that led to the position shown), if any. */
export function judged() {
  return B.byNumber.get(B.move) ?? null;
}
