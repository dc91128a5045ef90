// Where board.js (and the modules split out of it) import Ganjifa's cards from; the game's
// drawing itself is games/ganjifa.js. This file goes once they import that directly.
export * from "./games/ganjifa.js";
