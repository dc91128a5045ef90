// A party of two friends, /party/<party> (issue 43; docs/protocol.md "Parties"): the leader
// made it ("Play with a friend" in the lobby) and sends its link; the friend who opens it
// joins at once (POST join). Both see both names. The leader picks a pool where partners
// sit opposite and goes to its queue (/play/<pool> queues the party); the friend's page
// asks GET /api/pool and follows: to the queue while the party waits, to the table once
// it is matched.
import { t } from "../i18n.js";
import { POOLS } from "../games/pools.js";
import { go } from "../router.js";
import { enterTable } from "../state.js";
import { api, errorText } from "../widgets/api.js";
import { esc } from "../widgets/html.js";
import { refreshMe } from "../widgets/me.js";
import { message, messageHTML } from "../widgets/message.js";

const app = document.getElementById("app");
/** How often the page asks again: who is in the party, and (the friend) whether it queues. */
const POLL_MS = 1500;

/** What the page knows: the party's code, the server's answer about it, its message,
 * whether the link was copied, the polling timer and the requests' AbortController. */
const P = { code: null, party: null, message: null, copied: false, timer: null, ctrl: null };

function open({ party }) {
  enterTable("party", null);
  stop();
  Object.assign(P, { code: party, party: null, message: null, copied: false, ctrl: new AbortController() });
  draw();
  load(P.ctrl);
}

function path() {
  return `/api/parties/${encodeURIComponent(P.code)}`;
}

/** The party, joined if this player is not in it yet and there is room (a first visit,
 * by the link, becomes a guest first). */
async function load(ctrl) {
  try {
    await refreshMe();
    let { data } = await api("GET", path(), undefined, ctrl.signal);
    if (!data.you && !data.full) ({ data } = await api("POST", `${path()}/join`, {}, ctrl.signal));
    if (ctrl.signal.aborted) return;
    P.party = data;
    if (!data.you) P.message = message("error", () => errorText({ code: "party_full" }), { code: "party_full" });
    draw();
    if (data.you) P.timer = setInterval(() => poll(ctrl), POLL_MS);
  } catch (err) {
    if (err?.code === "aborted" || ctrl.signal.aborted) return;
    P.message = message("error", () => errorText(err), { code: err?.code });
    draw();
  }
}

/** Who is in the party now; the friend follows the leader to the queue or the table. */
async function poll(ctrl) {
  try {
    const { data } = await api("GET", path(), undefined, ctrl.signal);
    if (ctrl.signal.aborted) return;
    const before = JSON.stringify(P.party);
    P.party = data;
    if (!data.you) {
      stop();
      P.message = message("warn", () => t("party.ended"));
      draw();
      return;
    }
    if (!data.leader) {
      const { data: pool } = await api("GET", "/api/pool", undefined, ctrl.signal);
      if (ctrl.signal.aborted) return;
      if (pool.status === "matched" && pool.code) return go(`/t/${encodeURIComponent(pool.code)}`);
      if (pool.status === "waiting" && pool.pool) return go(`/play/${encodeURIComponent(pool.pool)}`);
    }
    if (JSON.stringify(data) !== before) draw();
  } catch (err) {
    if (err?.code === "aborted" || ctrl.signal.aborted) return;
    if (err?.code === "unknown_party") {
      stop();
      P.message = message("warn", () => t("party.ended"));
      draw();
    }
  }
}

function linkURL() {
  return `${location.origin}/party/${encodeURIComponent(P.code)}`;
}

function membersHTML(p) {
  const items = p.members.map(
    (name, i) => `<li class="party-member"><span class="party-name">${esc(name)}</span>${i === 0 ? ` <span class="tag">${esc(t("party.leader"))}</span>` : ""}</li>`,
  );
  if (!p.full) items.push(`<li class="party-member empty">${esc(t("party.wait.friend"))}</li>`);
  return `<ul id="party-members" class="party-members">${items.join("")}</ul>`;
}

function choiceHTML(p) {
  if (!p.leader) return `<p id="party-waiting">${esc(t("party.wait.leader", { name: p.members[0] ?? "" }))}</p>`;
  const pools = POOLS.filter((pool) => pool.partners).map(
    (pool) => `<button type="button" class="pool-button" id="party-pool-${esc(pool.name)}" data-pool="${esc(pool.name)}" ${p.full ? "" : "disabled"}>
      <strong>${esc(t(`pool.${pool.name}`))}</strong><small>${esc(t(`pool.${pool.name}.text`))}</small></button>`,
  );
  return `<p>${esc(t("party.choose"))}</p><div class="online-pools">${pools.join("")}</div>`;
}

function draw() {
  const p = P.party;
  const body = p?.you
    ? `<div class="panel">
      <label class="field"><span>${esc(t("party.link"))}</span>
        <span class="row"><input id="party-link" readonly value="${esc(linkURL())}">
        <button type="button" id="party-copy">${esc(t(P.copied ? "party.copied" : "party.copy"))}</button></span></label>
    </div>
    <div class="panel"><h2>${esc(t("party.members"))}</h2>${membersHTML(p)}${choiceHTML(p)}</div>
    <div class="actions"><button type="button" id="party-leave">${esc(t("party.leave"))}</button></div>`
    : p === null && !P.message
      ? `<p class="loading">${esc(t("loading"))}</p>`
      : `<p><a href="/">${esc(t("nav.lobby"))}</a></p>`;
  app.innerHTML = `<section class="party" data-page="party" data-full="${Boolean(p?.full)}">
  <h1>${esc(t("party.title"))}</h1>
  ${messageHTML(P.message, false)}
  ${body}
</section>`;
}

async function click(e) {
  const button = e.target.closest?.("button");
  if (!button) return;
  if (button.id === "party-copy") {
    const input = document.getElementById("party-link");
    try {
      await navigator.clipboard.writeText(linkURL());
      P.copied = true;
      draw();
    } catch {
      input.select(); // no clipboard here: the link selected, for the player to copy
    }
  } else if (button.dataset.pool && P.party?.leader) {
    go(`/play/${encodeURIComponent(button.dataset.pool)}`);
  } else if (button.id === "party-leave") {
    stop();
    await api("DELETE", path()).catch(() => {});
    go("/");
  }
}

function stop() {
  clearInterval(P.timer);
  P.timer = null;
  P.ctrl?.abort();
}

export default { open, leave: stop, render: draw, click };
