// Quick match's queue, /play/<pool> (issue 43; docs/protocol.md "Quick match"): arriving
// here joins the pool (POST /api/pool/<pool>; a party's leader queues the party), unless
// this player already waits there (a reload, or the partner following the leader); the
// page shows the seconds waited, the countdown until computer players take the empty seats
// and how many wait, and asks GET /api/pool?wait=25 over and over (each ask keeps the
// ticket alive): `matched` opens the table (the seat follows the session), `requeue` joins
// again. Cancel, or leaving the page any other way than to the table, leaves the queue.
import { t } from "../i18n.js";
import { poolNamed } from "../games/pools.js";
import { go } from "../router.js";
import { enterTable } from "../state.js";
import { api, errorText } from "../widgets/api.js";
import { esc } from "../widgets/html.js";
import { refreshMe } from "../widgets/me.js";
import { message, messageHTML } from "../widgets/message.js";

const app = document.getElementById("app");
/** The longest a GET /api/pool waits for a change (the server's most). */
const LONG_POLL = 25;
/** After a lost connection, the pause before asking again. */
const RETRY_MS = 2000;
/** The least time between two asks (a long poll answered at once, e.g. as the number
 * waiting changes, is not asked again at once). */
const MIN_ASK_MS = 1000;

/** What the page knows: the pool; the last answer and when it came (performance.now());
 * its message; the requests' AbortController; the ticking timer. `state` is "joining",
 * "waiting", "none" (no longer waiting), "refused" or "gone" (left for the table). */
const Q = { pool: null, state: "joining", answer: null, at: 0, message: null, ctrl: null, timer: null };

function live(ctrl) {
  return Q.ctrl === ctrl && !ctrl.signal.aborted;
}

function open({ pool }) {
  enterTable("queue", null);
  Q.ctrl?.abort();
  Object.assign(Q, { pool, state: "joining", answer: null, at: 0, message: null, ctrl: new AbortController() });
  clearInterval(Q.timer);
  Q.timer = setInterval(tick, 250);
  if (!poolNamed(pool)) {
    refuse({ code: "unknown_pool" });
    return;
  }
  draw();
  arrive(Q.ctrl);
}

/** Already waiting in this pool (a reload, a partner following the leader): go on waiting;
 * else join it (a first visit, by this address, becomes a guest first). */
async function arrive(ctrl) {
  try {
    await refreshMe();
    const { data } = await api("GET", "/api/pool", undefined, ctrl.signal);
    if (!live(ctrl)) return;
    if (data.status === "waiting" && data.pool === Q.pool) return follow(ctrl, data);
    await join(ctrl);
  } catch (err) {
    fail(ctrl, err, () => arrive(ctrl));
  }
}

async function join(ctrl) {
  try {
    const { data } = await api("POST", `/api/pool/${encodeURIComponent(Q.pool)}`, {}, ctrl.signal);
    if (live(ctrl)) await follow(ctrl, data);
  } catch (err) {
    fail(ctrl, err, () => join(ctrl));
  }
}

/** An answer about this player's ticket: keep waiting (long polls), go to the table, join
 * again, or say the player no longer waits. */
async function follow(ctrl, data) {
  let at = performance.now(); // when `data` came
  for (;;) {
    if (!live(ctrl)) return;
    if (data.status === "matched" && data.code) {
      Q.state = "gone";
      go(`/t/${encodeURIComponent(data.code)}`);
      return;
    }
    if (data.status === "requeue") return join(ctrl);
    if (data.status !== "waiting") {
      Q.state = "none";
      draw();
      return;
    }
    Q.state = "waiting";
    Q.answer = data;
    Q.at = at;
    Q.message = null;
    draw();
    try {
      const asked = performance.now();
      ({ data } = await api("GET", `/api/pool?wait=${LONG_POLL}`, undefined, ctrl.signal));
      at = performance.now();
      const quick = MIN_ASK_MS - (at - asked);
      if (data.status === "waiting" && quick > 0) await new Promise((resolve) => setTimeout(resolve, quick));
    } catch (err) {
      fail(ctrl, err, () => arrive(ctrl));
      return;
    }
  }
}

/** A failed request: no network, ask again after a pause; a refusal, shown (the player no
 * longer waits). */
function fail(ctrl, err, again) {
  if (!live(ctrl) || err?.code === "aborted") return;
  if (err?.code === "network") {
    Q.message = message("warn", () => t("err.network"));
    draw();
    setTimeout(() => live(ctrl) && again(), RETRY_MS);
    return;
  }
  refuse(err);
}

function refuse(err) {
  Q.state = "refused";
  Q.message = message("error", () => errorText(err), { code: err?.code });
  draw();
}

/** Seconds since the last answer. */
function elapsed() {
  return (performance.now() - Q.at) / 1000;
}

function waitedText() {
  return t("queue.waited", { s: Math.floor((Q.answer?.since ?? 0) + elapsed()) });
}

function countdownText() {
  const left = Math.ceil((Q.answer?.countdown ?? 0) - elapsed());
  return left > 0 ? t("queue.countdown", { s: left }) : t("queue.filling");
}

/** Every quarter second: the seconds waited and the countdown, without drawing the page. */
function tick() {
  if (Q.state !== "waiting") return;
  const waited = document.getElementById("queue-waited");
  const countdown = document.getElementById("queue-countdown");
  if (waited) waited.textContent = waitedText();
  if (countdown) countdown.textContent = countdownText();
}

function draw() {
  const known = poolNamed(Q.pool);
  const title = known ? t("queue.title", { pool: t(`pool.${Q.pool}`) }) : t("online.title");
  let body = "";
  if (Q.state === "joining") body = `<p class="loading">${esc(t("queue.joining"))}</p>`;
  else if (Q.state === "waiting") {
    body = `<div class="queue-status" data-state="waiting">
      <div class="queue-spinner" aria-hidden="true"></div>
      <p id="queue-countdown" class="queue-countdown" role="timer">${esc(countdownText())}</p>
      <p id="queue-waited">${esc(waitedText())}</p>
      <p id="queue-count">${esc(t("queue.count", { n: Q.answer?.waiting ?? 1 }))}</p>
    </div>
    <div class="actions"><button type="button" id="queue-cancel">${esc(t("queue.cancel"))}</button></div>`;
  } else if (Q.state === "none" || Q.state === "refused") {
    body = `${Q.state === "none" ? `<p id="queue-none">${esc(t("queue.none"))}</p>` : ""}
    <div class="actions">${known ? `<button type="button" class="primary" id="queue-again">${esc(t("queue.again"))}</button>` : ""}
      <a href="/">${esc(t("nav.lobby"))}</a></div>`;
  }
  app.innerHTML = `<section class="queue" data-page="queue" data-pool="${esc(Q.pool)}" data-state="${esc(Q.state)}">
  <h1>${esc(title)}</h1>
  ${known ? `<p class="hint">${esc(t(`pool.${Q.pool}.text`))}</p>` : ""}
  ${messageHTML(Q.message, false)}
  ${body}
</section>`;
}

async function click(e) {
  const button = e.target.closest?.("button");
  if (button?.id === "queue-cancel") {
    Q.ctrl?.abort();
    Q.state = "gone";
    try {
      await api("DELETE", "/api/pool");
    } catch {
      // Not asked about for long enough, the ticket leaves the pool by itself.
    }
    go("/");
  } else if (button?.id === "queue-again") {
    open({ pool: Q.pool });
  }
}

/** Leaving the page: the requests stop, and the queue is left unless the table opens. */
function leave() {
  Q.ctrl?.abort();
  clearInterval(Q.timer);
  if (Q.state === "waiting" || Q.state === "joining") api("DELETE", "/api/pool").catch(() => {});
  Q.state = "gone";
}

export default { open, leave, render: draw, click };
