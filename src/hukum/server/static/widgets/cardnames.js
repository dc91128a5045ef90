// A hint's reason (docs/protocol.md, "hints") in the page's words: the server sends it as
// clauses, each a message key and its arguments (cards and suits by their codes); the page
// writes each clause with t("why.<key>") and names the cards and suits as its game's drawing
// draws them (`cardName`, `suitName`), never in the engine's notation.
import { has, t } from "../i18n.js";
import { esc } from "./html.js";

/** The arguments that are cards, lists of cards and suits (the rest are numbers). */
const CARD_ARGS = new Set(["card", "best"]);
const LIST_ARGS = new Set(["cards"]);
const SUIT_ARGS = new Set(["suit"]);

/** A list of names: "A, B and C" in the page's language. */
function listed(names) {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")}${esc(t("why.and"))}${names.at(-1)}`;
}

/** One argument as HTML: a card or suit named as `drawing` draws it, a number as text. */
function argHTML(ctx, drawing, name, value) {
  if (CARD_ARGS.has(name)) return drawing.cardName(ctx, String(value));
  if (LIST_ARGS.has(name) && Array.isArray(value)) return listed(value.map((c) => drawing.cardName(ctx, String(c))));
  if (SUIT_ARGS.has(name)) return drawing.suitName(ctx, String(value));
  return esc(value);
}

/** The reason's clauses as one line of HTML in the page's language, or null when the page
 * cannot write it (a key it does not know, a drawing that names no cards): the caller then
 * shows the server's English `why`. */
export function reasonHTML(ctx, drawing, reason) {
  if (!Array.isArray(reason) || !reason.length || !drawing.cardName || !drawing.suitName) return null;
  const parts = [];
  for (const clause of reason) {
    const key = `why.${clause?.key}`;
    if (!has(key)) return null;
    const args = clause.args ?? {};
    const marks = {};
    const html = {};
    for (const [i, [name, value]] of Object.entries(args).entries()) {
      marks[name] = `\u0001${i}\u0001`;
      html[marks[name]] = argHTML(ctx, drawing, name, value);
    }
    let text = esc(t(key, marks));
    for (const [mark, value] of Object.entries(html)) text = text.split(mark).join(value);
    parts.push(text);
  }
  return parts.join("");
}
