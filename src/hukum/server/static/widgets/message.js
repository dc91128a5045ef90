// The page's one message (an error, a warning): made, and drawn in the page's language.
import { esc } from "./html.js";

/** A message: `text` a string, or a function giving it in the language of the moment;
 * `extra` e.g. {code, rules} (the server's refusal, kept in the message's data). */
export function message(kind, text, extra = {}) {
  return text ? { kind, text, ...extra } : null;
}

/** The message as HTML ("" for none); `id`: the table's message carries id="message". */
export function messageHTML(m, id = true) {
  if (!m) return "";
  const text = typeof m.text === "function" ? m.text() : m.text;
  const data = (m.code ? ` data-code="${esc(m.code)}"` : "") + (m.rules?.length ? ` data-rule-ids="${esc(m.rules.join(" "))}"` : "");
  return `<p class="message ${m.kind}" role="alert"${id ? ' id="message"' : ""}${data}>${esc(text)}</p>`;
}
