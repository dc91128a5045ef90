// The account page, /account (issue 41; docs/protocol.md "Accounts"): who you are, a guest
// or an account, and what you can do with it: claim an account (the guest's games and
// settings stay), sign in, sign out, change the password, see your sessions and sign out
// everywhere, download your data, delete it all. A sign-in, a sign-out, a claim or a
// deletion loads the page again (location.assign), so that the whole app sees the player.
// Names are shown as text (esc), never as HTML.
import { getLang, has, t } from "../i18n.js";
import { S, enterTable } from "../state.js";
import { api, errorText } from "../widgets/api.js";
import { esc } from "../widgets/html.js";
import { message, messageHTML } from "../widgets/message.js";

const app = document.getElementById("app");

/** What the page knows: the player (undefined: not known yet), their sessions, its message,
 * whether the deletion is being confirmed, whether a request is on its way. */
const A = { player: undefined, sessions: null, message: null, deleting: false, busy: false };

/** An error in the page's words (a function: drawn in the language of the moment). */
function accountError(err) {
  const code = err?.code ?? "";
  if (has(`account.err.${code}`)) return () => t(`account.err.${code}`, { s: err.retry_after ?? "" });
  return () => errorText(err);
}

function shown() {
  return S.page === "account";
}

/** Who the player is (a first visit becomes a guest, as everywhere) and their sessions. */
async function load() {
  try {
    let { data } = await api("GET", "/api/me");
    if (!data.player) ({ data } = await api("POST", "/api/me/guest"));
    A.player = data.player;
    A.sessions = (await api("GET", "/api/account/sessions")).data.sessions;
  } catch (err) {
    A.player = A.player ?? null;
    A.message = message("error", accountError(err), { code: err?.code });
  }
  if (shown()) draw();
}

function open() {
  enterTable("account", null);
  Object.assign(A, { player: undefined, sessions: null, message: null, deleting: false, busy: false });
  draw(false);
  load();
}

/** A date and time as the page's language writes it. */
function when(iso) {
  return iso ? new Date(iso).toLocaleString(getLang(), { dateStyle: "medium", timeStyle: "short" }) : "";
}

/** A labelled input of a form. */
function field(id, label, type, autocomplete, help = "") {
  return `<label class="field"><span>${esc(t(label))}</span>
    <input id="${id}" name="${id}" type="${type}" autocomplete="${autocomplete}" required>
    ${help ? `<small>${esc(t(help))}</small>` : ""}</label>`;
}

function whoHTML(p) {
  const text = p.guest ? t("account.guest", { name: p.name }) : t("account.signed", { name: p.name, username: p.username });
  return `<p id="account-who" data-guest="${p.guest}">${esc(text)}</p>`;
}

function guestHTML() {
  return `<form id="claim-form" class="panel account-form">
    <h2>${esc(t("account.claim.title"))}</h2>
    <p>${esc(t("account.claim.text"))}</p>
    ${field("claim-username", "account.username", "text", "username", "account.username.help")}
    ${field("claim-password", "account.password", "password", "new-password", "account.password.help")}
    <button type="submit" class="primary">${esc(t("account.claim.button"))}</button>
  </form>
  <form id="sign-in-form" class="panel account-form">
    <h2>${esc(t("account.signin.title"))}</h2>
    <p>${esc(t("account.signin.note"))}</p>
    ${field("sign-in-username", "account.username", "text", "username")}
    ${field("sign-in-password", "account.password", "password", "current-password")}
    <button type="submit">${esc(t("account.signin.button"))}</button>
  </form>`;
}

function memberHTML() {
  return `<p><button type="button" id="sign-out">${esc(t("account.signout"))}</button></p>
  <form id="password-form" class="panel account-form">
    <h2>${esc(t("account.password.title"))}</h2>
    <input type="text" name="username" autocomplete="username" value="${esc(A.player.username)}" hidden>
    ${field("current-password", "account.password.current", "password", "current-password")}
    ${field("new-password", "account.password.new", "password", "new-password", "account.password.help")}
    <button type="submit">${esc(t("account.password.button"))}</button>
  </form>`;
}

function sessionsHTML() {
  const items = (A.sessions ?? [])
    .map((s) => `<li class="account-session${s.current ? " current" : ""}">
      <strong>${esc(s.browser || t("account.sessions.unknown"))}</strong>${s.current ? ` <em>(${esc(t("account.sessions.this"))})</em>` : ""}
      <br><small>${esc(t("account.sessions.since", { when: when(s.created) }))} · ${esc(t("account.sessions.seen", { when: when(s.seen) }))}</small></li>`)
    .join("");
  return `<section class="panel" id="sessions-panel">
    <h2>${esc(t("account.sessions.title"))}</h2>
    <ul id="sessions" class="account-sessions">${items}</ul>
    ${A.player.guest ? `<p><small>${esc(t("account.guest.warn"))}</small></p>` : ""}
    <button type="button" id="sign-out-everywhere">${esc(t("account.everywhere"))}</button>
  </section>`;
}

function dataHTML() {
  const confirm = A.deleting
    ? `<form id="delete-form" class="account-delete">
        <p role="alert">${esc(t("account.delete.sure"))}</p>
        ${A.player.guest ? "" : field("delete-password", "account.password", "password", "current-password")}
        <button type="submit" class="danger" id="delete-confirm">${esc(t("account.delete.confirm"))}</button>
        <button type="button" id="delete-cancel">${esc(t("account.delete.cancel"))}</button>
      </form>`
    : `<button type="button" id="delete-start" class="danger">${esc(t("account.delete.start"))}</button>`;
  return `<section class="panel">
    <h2>${esc(t("account.data.title"))}</h2>
    <p>${esc(t("account.data.text"))}</p>
    <p><a id="download-data" href="/api/account/data" download="hukum-my-data.json">${esc(t("account.data.download"))}</a></p>
  </section>
  <section class="panel" id="delete-panel">
    <h2>${esc(t("account.delete.title"))}</h2>
    <p>${esc(t("account.delete.text"))}</p>
    ${confirm}
  </section>`;
}

/** Draw the page; what was typed in its inputs stays (unless `keep` is false). */
function draw(keep = true) {
  const typed = keep ? [...app.querySelectorAll("input[id]")].map((i) => [i.id, i.value]) : [];
  const p = A.player;
  if (p === undefined) {
    app.innerHTML = `<p class="loading">${esc(t("loading"))}</p>`;
    return;
  }
  app.innerHTML = `<section class="account" data-page="account">
  <h1>${esc(t("account.title"))}</h1>
  ${messageHTML(A.message, false)}
  ${p ? `${whoHTML(p)}${p.guest ? guestHTML() : memberHTML()}${sessionsHTML()}${dataHTML()}` : ""}
</section>`;
  for (const [id, text] of typed) {
    const input = document.getElementById(id);
    if (input) input.value = text;
  }
}

/** The value of an input of the page. */
function value(id) {
  return document.getElementById(id)?.value ?? "";
}

/** Send a request; `then(data)` on success; an error is shown with the page's message. */
async function send(method, path, body, then) {
  A.busy = true;
  try {
    const { data } = await api(method, path, body);
    A.message = null;
    await then(data);
  } catch (err) {
    A.message = message("error", accountError(err), { code: err?.code });
    if (shown()) draw();
  } finally {
    A.busy = false;
  }
}

/** Load the page again: the whole app sees the player the session now belongs to. */
function reload() {
  location.assign("/account");
}

function submit(e) {
  const form = e.target.closest?.("form");
  if (!form) return;
  e.preventDefault();
  if (A.busy) return;
  if (form.id === "claim-form") {
    send("POST", "/api/account/claim", { username: value("claim-username"), password: value("claim-password") }, reload);
  } else if (form.id === "sign-in-form") {
    send("POST", "/api/account/sign-in", { username: value("sign-in-username"), password: value("sign-in-password") }, reload);
  } else if (form.id === "password-form") {
    send("POST", "/api/account/password", { current: value("current-password"), new: value("new-password") }, async (data) => {
      A.message = message("ok", () => t("account.password.done", { n: data.ended }));
      draw(false);
      await load();
    });
  } else if (form.id === "delete-form") {
    const body = A.player.guest ? {} : { password: value("delete-password") };
    send("DELETE", "/api/account", body, reload);
  }
}

function click(e) {
  const button = e.target.closest?.("button");
  if (!button || A.busy) return;
  if (button.id === "sign-out") send("POST", "/api/account/sign-out", undefined, reload);
  else if (button.id === "sign-out-everywhere") send("POST", "/api/account/sign-out-everywhere", undefined, reload);
  else if (button.id === "delete-start" || button.id === "delete-cancel") {
    A.deleting = button.id === "delete-start";
    draw();
    if (A.deleting) (document.getElementById("delete-password") ?? document.getElementById("delete-confirm"))?.focus();
  }
}

export default { open, render: draw, submit, click };
