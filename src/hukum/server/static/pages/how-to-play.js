// How to play, /how-to-play: Mindi and Ganjifa's Dukal in a few steps, each illustrated
// with a small example drawn with the table's own cards (cards.js, games/ganjifa.js), the
// rule ids of docs/rules.md named. ?back=<a table's address> offers the way back to it.
import { backSVG, cardSVG } from "../cards.js";
import { roundCardSVG } from "../games/ganjifa.js";
import { t } from "../i18n.js";
import { render } from "../router.js";
import { enterTable } from "../state.js";
import { esc } from "../widgets/html.js";
import { ruleIdsHTML } from "../widgets/rules.js";

const app = document.getElementById("app");

/** The page this one was opened from, if it is a table's or a deal's board (the ways back
 * it offers beside the lobby): an address of this site, never any other. */
function backPath() {
  const back = new URLSearchParams(location.search).get("back") ?? "";
  return /^\/t\/[A-Za-z0-9]+(\/deals\/\d+)?$/.test(back) ? back : null;
}

/** The header's link here, from the page shown (the way back is kept in its address). */
export function howToPlayLink(a) {
  a.textContent = t("nav.howto");
  const here = location.pathname === "/how-to-play";
  a.toggleAttribute("aria-current", here);
  if (!here) a.href = location.pathname === "/" ? "/how-to-play" : `/how-to-play?back=${encodeURIComponent(location.pathname)}`;
}

/** One card of an example and who played it; `note` says what it did. */
function playHTML(face, who, { win = false, note = "" } = {}) {
  return `<div class="howto-play${win ? " win" : ""}"><div class="howto-face">${face}</div>
    <span class="howto-who">${esc(t(`howto.seat.${who}`))}</span>${note ? `<span class="howto-note">${esc(note)}</span>` : ""}</div>`;
}

/** A Mindi trick: [seat, card] in the order played, the winner's index, and what it shows. */
function trickHTML(id, plays, winner, caption, notes = {}) {
  const cards = plays.map(([who, code], i) => playHTML(cardSVG(code), who, { win: i === winner, note: notes[i] })).join("");
  return `<figure class="howto-fig" id="${id}"><div class="howto-trick">${cards}</div><figcaption>${esc(caption)}</figcaption></figure>`;
}

/** A round card of Ganjifa, named in words for a screen reader. */
function roundHTML(code) {
  const rank = code.slice(2);
  const name = rank === "R" ? t("howto.g.raja") : rank === "M" ? t("howto.g.mantri") : rank;
  return roundCardSVG(code, esc(`${t(`avatar.${code.slice(0, 2)}`)} ${name}`));
}

/** One suit's ranking, high to low, as round cards. */
function rankingHTML(codes, caption) {
  const cards = codes.map((c) => (c ? `<span class="howto-round">${roundHTML(c)}</span>` : `<span class="howto-gap">…</span>`)).join("");
  return `<div class="howto-ranking"><div class="howto-trick">${cards}</div><p>${esc(caption)}</p></div>`;
}

/** A step: its title, its paragraphs and its figures. */
function stepHTML(id, title, paragraphs, figures = "") {
  return `<li class="howto-step panel" id="${id}"><h3>${esc(t(title))}</h3>
    ${paragraphs.map((key) => `<p>${ruleIdsHTML(t(key))}</p>`).join("")}${figures}</li>`;
}

function mindiHTML() {
  const follow = trickHTML("fig-follow", [["you", "5S"], ["right", "KS"], ["partner", "AS"], ["left", "2S"]], 2, t("howto.follow.fig"));
  const cut = trickHTML("fig-cut", [["you", "9H"], ["right", "3C"], ["partner", "AH"], ["left", "4H"]], 1, t("howto.cut.fig"), {
    1: t("howto.cut.note"),
  });
  const band = `<figure class="howto-fig" id="fig-band"><div class="howto-trick">${playHTML(backSVG(), "you")}</div>
    <figcaption>${esc(t("howto.band.fig"))}</figcaption></figure>`;
  const tens = trickHTML("fig-tens", [["you", "KD"], ["right", "10D"], ["partner", "4D"], ["left", "2D"]], 0, t("howto.tens.fig"));
  const four = `<figure class="howto-fig" id="fig-mindis"><div class="howto-trick">${["10S", "10H", "10C", "10D"]
    .map((c) => `<div class="howto-play"><div class="howto-face">${cardSVG(c)}</div></div>`)
    .join("")}</div><figcaption>${esc(t("howto.tens.four"))}</figcaption></figure>`;
  return `<h2 id="howto-mindi">${esc(t("howto.mindi"))}</h2><p>${ruleIdsHTML(t("howto.mindi.intro"))}</p>
  <ol class="howto-steps">
    ${stepHTML("step-follow", "howto.follow.title", ["howto.follow.text"], follow)}
    ${stepHTML("step-cut", "howto.cut.title", ["howto.cut.text"], `${cut}<p id="band">${ruleIdsHTML(t("howto.band.text"))}</p>${band}`)}
    ${stepHTML("step-tens", "howto.tens.title", ["howto.tens.text"], tens + four)}
    ${stepHTML("step-tie", "howto.tie.title", ["howto.tie.text", "howto.tie.tricks", "howto.tie.highest", "howto.tie.panel"])}
  </ol>`;
}

function ganjifaHTML() {
  const ranking =
    rankingHTML(["MaR", "MaM", "Ma1", "Ma2", null, "Ma10"], t("howto.g.rank.low")) +
    rankingHTML(["KaR", "KaM", "Ka10", "Ka9", null, "Ka1"], t("howto.g.rank.high"));
  const group = (codes, who, opts) => playHTML(`<span class="howto-fan">${codes.map((c) => `<span class="howto-round">${roundHTML(c)}</span>`).join("")}</span>`, who, opts);
  const dukal = `<figure class="howto-fig" id="fig-dukal"><div class="howto-trick">
    ${group(["Ku3", "Ku4", "Ku5"], "you", { win: true, note: t("howto.dukal.note") })}
    ${group(["Ma7", "RaM", "Bu2"], "right", { note: t("howto.dukal.gives") })}
    ${group(["Ka4", "Vr9", "Pa1"], "left", { note: t("howto.dukal.gives") })}</div>
    <figcaption>${esc(t("howto.dukal.fig"))}</figcaption></figure>`;
  return `<h2 id="howto-ganjifa">${esc(t("howto.ganjifa"))}</h2><p>${ruleIdsHTML(t("howto.g.intro"))}</p>
  <ol class="howto-steps">
    ${stepHTML("step-g-rank", "howto.g.rank.title", ["howto.g.rank.text"], ranking)}
    ${stepHTML("step-g-follow", "howto.g.follow.title", ["howto.g.follow.text"])}
    ${stepHTML("step-dukal", "howto.dukal.title", ["howto.dukal.text"], dukal)}
  </ol>`;
}

function draw() {
  const back = backPath();
  const words = !back ? "room.back" : back.includes("/deals/") ? "howto.back.board" : "howto.back.table";
  const backLink = `<a href="${esc(back ?? "/")}" id="howto-back">${esc(t(words))}</a>`;
  app.innerHTML = `<article class="howto" data-page="how-to-play">
  <h1>${esc(t("howto.title"))}</h1>
  <p class="tagline">${ruleIdsHTML(t("howto.intro"))}</p>
  ${mindiHTML()}
  ${ganjifaHTML()}
  <p class="howto-back">${backLink}</p>
</article>`;
}

function open() {
  enterTable("how-to-play", null);
  render();
  window.scrollTo(0, 0);
}

export default { open, render: draw };
