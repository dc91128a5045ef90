// Loading a board: the table and the deal's replay (GET /api/tables/<code>/deals/<n>: each
// move with its seat and trick, each position with every hand, the trick, trump, tricks and
// tens), the drawing of its game, then the analysis
// (GET /api/tables/<code>/deals/<n>/analysis), which the server gives for the deals it can
// analyse and refuses (no_analysis) for the others. Both answer only once the deal is over.
import { B, moves } from "./state.js";

/** How often (ms) the board asks how far the analysis has got. */
const POLL_MS = 500;

/** A deal number as the address may give it: 1 to 999999, no leading zero. */
const NUMBER = /^[1-9]\d{0,5}$/;

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The board's drawing of a game's cards, moves and facts: board/games/<name>.js, found by
 * the name the server gives the deal's game (no list of games here). */
export async function drawing(name) {
  if (!/^[a-z][a-z0-9_-]*$/.test(String(name))) throw { code: "no_drawing", game: String(name) };
  try {
    return await import(`./games/${name}.js`);
  } catch {
    throw { code: "no_drawing", game: name };
  }
}

/** The text of the address's deal number, shown back as it was typed (never too long). */
function typed(number) {
  let text = number;
  try {
    text = decodeURIComponent(number);
  } catch {
    // a stray % is shown as it is
  }
  return text.length > 24 ? `${text.slice(0, 23)}…` : text;
}

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
  Object.assign(B, { code, n: Number(number), data: null, game: null, analysis: null, byNumber: new Map(), move: 0, error: null, copied: false });
  ctx.render();
  if (!NUMBER.test(number)) {
    B.error = { code: "bad_number", text: typed(number) };
    ctx.render();
    return;
  }
  const base = `/api/tables/${encodeURIComponent(code)}`;
  try {
    const [table, deal] = await Promise.all([api("GET", base), api("GET", `${base}/deals/${B.n}`)]);
    const game = await drawing(deal.data.game);
    if (!live()) return;
    S.table = table.data;
    B.data = deal.data;
    B.game = game;
  } catch (err) {
    if (!live()) return;
    B.error = err;
    ctx.render();
    return;
  }
  const asked = Number(new URLSearchParams(location.search).get("move"));
  B.move = Number.isInteger(asked) ? Math.max(0, Math.min(asked, moves().length)) : 0;
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
