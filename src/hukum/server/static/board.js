// The analysis board: a finished deal replayed move by move with every hand face up, at
// /t/<code>/deals/<n>?move=<k> (k moves made: a link shares the position). Where the server
// analyses the deal, each move shows what perfect play gave the mover's team before and
// after it, mistakes are marked and the better cards shown in the hand.
//
// The page calls the four functions exported here with its context (`ctx`: S, t, esc, api,
// errorText, seatName, teamName, mySeat, myTeam, outcomeText, go, render, app). The parts:
// board/state.js (the deal, the position), board/load.js (the replay and the analysis),
// board/controls.js (head, steps, clicks and keys), board/table.js (the hands round the
// trick), board/notes.js (verdict, notes, move list, result), and board/games/<game>.js
// (a game's cards, moves and facts), so nothing here knows the rules or names a game.
import { controlsHTML, headHTML } from "./board/controls.js";
import { listHTML, noteHTML, resultHTML, verdictHTML } from "./board/notes.js";
import { B, moves, position } from "./board/state.js";
import { tableHTML } from "./board/table.js";
import { fieldHTML } from "./widgets/field.js";

export { initBoard } from "./board/controls.js";
export { openBoard } from "./board/load.js";
export { boardPath } from "./board/state.js";

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
    <aside class="bd-side"><div id="bd-field"></div><div id="bd-note"></div><div id="bd-list"></div><div id="bd-result"></div></aside>
  </div></section>`;
    root = app.querySelector("#analysis-board");
  }
  const focused = document.activeElement?.id;
  root.dataset.move = String(B.move);
  root.dataset.moves = String(moves().length);
  root.dataset.game = B.data.game;
  const parts = {
    "bd-head": headHTML(ctx),
    "bd-facts": B.game.factsHTML(ctx, position()),
    "bd-table": tableHTML(ctx),
    "bd-controls": controlsHTML(ctx),
    "bd-verdict": verdictHTML(ctx),
    "bd-note": noteHTML(ctx),
    "bd-list": listHTML(ctx),
    "bd-result": resultHTML(ctx),
    "bd-field": fieldHTML(ctx), // a daily challenge's deal: the field's cards (widgets/field.js)
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

/** Why there is no board: no such room, no such deal, a deal still being played. */
function errorHTML(ctx) {
  const { t, esc, errorText } = ctx;
  const code = B.error.code;
  let text;
  if (code === "unknown_table") text = t("room.notfound");
  else if (code === "bad_number") text = t("board.badnumber", { text: B.error.text });
  else if (code === "unknown_deal") text = t("board.unknown", { n: B.n });
  else if (code === "deal_not_over") text = t("board.notover", { n: B.n });
  else if (code === "no_drawing") text = t("board.nodrawing", { game: B.error.game });
  else text = errorText(B.error);
  const back =
    code === "unknown_table"
      ? `<a class="button" href="/" data-bd="link">${esc(t("room.back"))}</a>`
      : `<a class="button" href="/t/${esc(encodeURIComponent(B.code))}" data-bd="link" id="bd-back">${esc(t("board.back"))}</a>`;
  return `<section class="bd bd-missing" id="analysis-board"><p class="message error" role="alert" id="bd-error" data-code="${esc(code)}">${esc(text)}</p>${back}</section>`;
}
