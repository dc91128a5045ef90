// The games' drawings, by the name of the game's spec (the server's `game`, e.g. in the
// table's JSON). A page draws a table through drawingOf(table) and never names a game.
// Adding a game's drawing: its module here (games/<name>.js), and one line in DRAWINGS.
//
// A drawing is { name, teams, backs, label, trump, board, hand, controls, banner,
// matchOver, score, lastTrick, cardReason, pick, chosenMove, played, takeHint, hintText,
// choosable, choose, chosen, sort, cardText, dealLinksKey, outcomeText? }; each part takes
// the table's context (table/context.js) and is documented in games/mindi.js.
import { drawing as ganjifa } from "./ganjifa.js";
import { drawing as mindi } from "./mindi.js";

const DRAWINGS = new Map([mindi, ganjifa].map((d) => [d.name, d]));

/** The drawing of game `name`. */
export function drawingFor(name) {
  const d = DRAWINGS.get(name);
  if (!d) throw new Error(`no drawing of the game ${name}`);
  return d;
}

/** The drawing of a table's game (its view's, else its JSON's); null before either is known. */
export function drawingOf(table, view) {
  const name = view?.game ?? table?.game;
  return name ? drawingFor(name) : null;
}
