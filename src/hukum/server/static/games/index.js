// The games' drawings, by the name of the game's spec (the server's `game`, e.g. in the
// table's JSON). A page draws a table through drawingOf(table) and never names a game.
// Adding a game's drawing: its module here (games/<name>.js), and one line in DRAWINGS.
//
// A drawing is { name, teams, backs, label, trump, board, hand, controls, banner,
// matchOver, score, lastTrick, cardReason, pick, chosenMove, played, takeHint, hintText,
// choosable, choose, chosen, sort, cardText, dealLinksKey, report?, outcomeText?, lobby? }; each part
// takes the table's context (table/context.js) and is documented in games/mindi.js.
// `lobby` is what the lobby (pages/lobby.js) draws of the game beyond its rules, each part
// optional: `ids` of its panel {panel, play, room, prefix of its fields}, translation keys
// (`name`, `title`, `text`, `playButton`, `roomButton`), the options asked on the panel
// (`quick`: [{name, label?, value?(v) -> key}]) and its default computer `level`.
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

/** What the lobby draws of game `name` beyond its rules (its drawing's `lobby`: ids, words,
 * the options asked on its panel); {} for a game without a drawing, drawn from its rules. */
export function lobbyOf(name) {
  return DRAWINGS.get(name)?.lobby ?? {};
}
