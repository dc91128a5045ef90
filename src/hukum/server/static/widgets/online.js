// The lobby's "Play online" panel (issue 43): a button per quick-match pool (games/pools.js),
// each with a line saying what it plays; "Play with a friend", which makes a party and opens
// its page (the link to send); and the ways to the daily challenge (issue 42), the
// leaderboards and the player's profile.
import { t } from "../i18n.js";
import { POOLS } from "../games/pools.js";
import { go } from "../router.js";
import { api, errorText } from "./api.js";
import { esc } from "./html.js";
import { message } from "./message.js";

/** The panel, at the top of the lobby. */
export function onlineHTML() {
  const pools = POOLS.map(
    (p) => `<button type="button" class="pool-button" id="pool-${esc(p.name)}" data-pool="${esc(p.name)}">
      <strong>${esc(t(`pool.${p.name}`))}</strong><small>${esc(t(`pool.${p.name}.text`))}</small></button>`,
  ).join("");
  return `<section class="panel online" id="online-panel">
    <h2>${esc(t("online.title"))}</h2>
    <p class="hint">${esc(t("online.text"))}</p>
    <div class="online-pools">${pools}</div>
    <div class="actions online-more">
      <button type="button" id="party-new">${esc(t("online.friend"))}</button>
      <a id="to-challenge" href="/challenge">${esc(t("online.challenge"))}</a>
      <a id="to-leaderboards" href="/leaderboard/${esc(POOLS[0].name)}">${esc(t("online.leaderboards"))}</a>
      <a id="to-profile" href="/profile">${esc(t("online.profile"))}</a>
    </div>
  </section>`;
}

/** A click of the panel: true when it was the panel's (handled), else false. `fail(m)`
 * shows a refusal as the lobby's message. */
export function onlineClick(e, fail) {
  const pool = e.target.closest?.("[data-pool]")?.dataset.pool;
  if (pool) {
    go(`/play/${encodeURIComponent(pool)}`);
    return true;
  }
  if (e.target.closest?.("#party-new")) {
    api("POST", "/api/parties", {})
      .then(({ data }) => go(`/party/${encodeURIComponent(data.party)}`))
      .catch((err) => fail(message("error", () => errorText(err), { code: err?.code })));
    return true;
  }
  return false;
}
