// A rating as the leaderboards and profiles show it (issue 43): the number, a "?" while it
// is provisional (its first games), and its uncertainty (± the deviation).
import { t } from "../i18n.js";
import { esc } from "./html.js";

/** `r` = {rating, deviation, provisional} as HTML: "1532? ±84". */
export function ratingHTML(r) {
  const q = r.provisional ? `<abbr class="provisional" title="${esc(t("rating.provisional"))}">?</abbr>` : "";
  return `<span class="rating"><span class="rating-value">${esc(r.rating)}</span>${q} <small class="deviation">±${esc(r.deviation)}</small></span>`;
}
