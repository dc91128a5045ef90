// The board's controls: the head (the way back, the link to share, the other deals), the
// step buttons, and the clicks and keys that move through the deal.
import { B, boardPath, moveAt, moves } from "./state.js";

const ICONS = {
  first: '<path d="M4 3h2v14H4zM17 3v14L7 10z"/>',
  prev: '<path d="M15 3v14L5 10z"/>',
  next: '<path d="M5 3v14l10-7z"/>',
  last: '<path d="M14 3h2v14h-2zM3 3v14l10-7z"/>',
};

function icon(name) {
  return `<svg width="18" height="18" viewBox="0 0 20 20" fill="currentColor" aria-hidden="true">${ICONS[name]}</svg>`;
}

/** The board's clicks and keys (once, at start). */
export function initBoard(ctx) {
  ctx.app.addEventListener("click", (e) => {
    if (ctx.S.page !== "board") return;
    const el = e.target.closest("[data-bd]");
    if (!el || el.disabled) return;
    const what = el.dataset.bd;
    if (what === "link") {
      if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return; // a new tab
      e.preventDefault();
      ctx.go(el.getAttribute("href"));
    } else if (what === "go") step(ctx, Number(el.dataset.move));
    else if (what === "first") step(ctx, 0);
    else if (what === "prev") step(ctx, B.move - 1);
    else if (what === "next") step(ctx, B.move + 1);
    else if (what === "last") step(ctx, moves().length);
    else if (what === "copy") copyLink(ctx);
  });
  document.addEventListener("keydown", (e) => {
    if (ctx.S.page !== "board" || !B.data) return;
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return; // e.g. Alt+← goes back
    const target = e.target;
    if (target.isContentEditable || ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
    const to = { ArrowLeft: B.move - 1, ArrowRight: B.move + 1, Home: 0, End: moves().length }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    step(ctx, to);
  });
}

/** Show position `to` (clamped), and say it in the address. */
function step(ctx, to) {
  const move = Math.max(0, Math.min(to, moves().length));
  if (move === B.move) return;
  B.move = move;
  B.copied = false;
  history.replaceState(null, "", boardPath(B.code, B.n, move));
  ctx.render();
  // The move in the list stays in its view (the list scrolls, never the page).
  const list = ctx.app.querySelector("#bd-list");
  const current = list?.querySelector(".bd-move.current");
  if (list && current && list.scrollHeight > list.clientHeight) {
    const top = current.offsetTop - list.offsetTop;
    if (top < list.scrollTop) list.scrollTop = top - 8;
    else if (top + current.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top + current.offsetHeight - list.clientHeight + 8;
  }
}

async function copyLink(ctx) {
  const url = location.origin + boardPath(B.code, B.n, B.move);
  try {
    await navigator.clipboard.writeText(url);
  } catch {
    const area = document.createElement("textarea");
    area.value = url;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    document.execCommand?.("copy");
    area.remove();
  }
  B.copied = true;
  ctx.render();
}

/** The title, the way back to the table, the link to copy and the other deals. */
export function headHTML(ctx) {
  const { t, esc } = ctx;
  const table = `/t/${encodeURIComponent(B.code)}`;
  const deals = [];
  for (let n = 1; n <= (B.data.deals ?? B.n); n++) {
    deals.push(
      n === B.n
        ? `<span class="bd-deal current" aria-current="page">${n}</span>`
        : `<a class="bd-deal" href="${esc(boardPath(B.code, n))}" data-bd="link">${n}</a>`,
    );
  }
  const others = deals.length > 1 ? `<nav class="bd-deals" aria-label="${esc(t("board.deals"))}"><span>${esc(t("board.deals"))}:</span> ${deals.join(" ")}</nav>` : "";
  return `<div class="bd-head">
    <h2>${esc(t("board.title", { n: B.n }))} <small>${esc(t("room.title", { code: B.code }))}</small></h2>
    <div class="bd-links"><a class="button small" href="${esc(table)}" data-bd="link" id="bd-back">← ${esc(t("board.back"))}</a>
    <button class="small" id="bd-copy" data-bd="copy">${esc(t(B.copied ? "board.copied" : "board.copy"))}</button>${reportLinkHTML(ctx)}${others}</div></div>`;
}

/** Once the match is over, a link to its report (where the server analyses its deals). */
function reportLinkHTML({ S, t, esc }) {
  if (S.table?.status !== "over" || B.game.noAnalysis(S.table.rules ?? {})) return "";
  return `<a class="button small" href="/t/${esc(encodeURIComponent(B.code))}/report" data-bd="link" id="bd-report">${esc(t("report.open"))}</a>`;
}

/** The step buttons round the position, and the keys that do the same. */
export function controlsHTML(ctx) {
  const { t, esc } = ctx;
  const total = moves().length;
  const button = (what, off) =>
    `<button class="small bd-step" id="bd-${what}" data-bd="${what}" aria-label="${esc(t(`board.${what}`))}" title="${esc(t(`board.${what}`))} (${esc(t(`board.key.${what}`))})" ${off ? "disabled" : ""}>${icon(what)}</button>`;
  const last = moveAt(B.move);
  const where = B.move === 0 ? t("board.start") : t("board.position", { n: B.move, m: total, k: last.trick });
  return `<div class="bd-controls" role="group" aria-label="${esc(t("board.steps"))}">
    ${button("first", B.move === 0)}${button("prev", B.move === 0)}
    <span class="bd-pos" id="bd-pos">${esc(where)}</span>
    ${button("next", B.move === total)}${button("last", B.move === total)}</div>
    <p class="hint bd-keys">${esc(t("board.keys"))}</p>`;
}
