// The browser front end of `hukum serve`: lobby, room, table. Talks docs/protocol.md.
import { LANGS, getLang, has, setLang, t } from "./i18n.js";
import { SUITS, SYMBOL, backSVG, cardSVG, cardText, parseCard, sortHand, suitSVG } from "./cards.js";
import {
  bannerG, boardG, cardReasonG, chosenMove, choosable, controlsG, gCardText, handG, lastTrickG, pickG, scoreG, sortG,
  standingG, trumpG,
} from "./ganjifa.js";
import { boardPath, initBoard, openBoard, renderBoard } from "./board.js";
import { after as motionAfter, backsHTML, before as motionBefore } from "./motion.js";

const app = document.getElementById("app");
const LENGTHS = ["p3", "p5", "p7", "p11", "d1", "d4", "d8"];
const TIMEOUTS = [15, 30, 60, 120, 300, 0]; // 0: no limit
const CODE_RE = /^[23456789abcdefghjkmnpqrstuvwxyz]{4,16}$/;
const CARD_RE = /^(10|[2-9JQKA])[CDHS]$/; // a Mindi move that plays a card

/** The page's state. What belongs to one table is in `tableState`, made afresh whenever the
 * page opens a table (openTable, openBoard's own fields): nothing of one table (its seeds,
 * checks, messages, panel, hint) survives the move to another, e.g. a rematch's. */
const S = {
  page: null, // "lobby" | "table" | "board" (the analysis board, board.js)
  rulesMeta: null,
  ref: 0,
  ws: null,
  wsState: "idle",
  poll: null,
  ...tableState(null),
};

/** Everything the page knows of table `code`, as it is before the page has heard of it. */
function tableState(code) {
  return {
    code,
    token: null,
    table: null,
    tableJSON: "",
    view: null,
    last: 0,
    selected: null,
    picked: new Set(), // Ganjifa: the cards chosen for the next move (a card, a Dukal, an answer)
    message: null, // {kind: "error" | "warn", text: a string, or a function giving it in the page's language, code, rules}
    absent: new Set(),
    panel: null, // "rules" | "last" | null
    nextSent: false,
    seeds: {}, // deal number -> seed as exact decimal text (known once that deal is over)
    commitments: {}, // deal number -> commitment
    verify: {}, // deal number -> {hash: bool, server: {...} | null, error}
    dealers: {}, // deal number -> dealer seat
    pending: {},
    sending: null, // the ref of the move sent and not yet answered: no other move is sent meanwhile
    notFound: false,
    copied: false,
    watch: false, // watching: no seat, the table read-only (/t/<code>?watch=1, a room that allows it)
    rematchSent: false,
    hint: null, // the server's suggestion {event, move, why}: for the turn after its event only
    hintAsked: null, // the ref of the hint asked for and not yet answered
  };
}

// ---------------------------------------------------------------- helpers

function esc(value) {
  return String(value ?? "").replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c],
  );
}

/** Codes whose server message (English) says more than the page's words: shown after them. */
const DETAILED = new Set(["bad_rules", "bad_request", "network"]);

/** An error in the page's words: its code's sentence alone where the page has one (the
 * server's message may name 0-based seats), else with the server's message after it. */
function errorText(err) {
  const code = err?.code ?? "";
  if (has(`err.${code}`) && !DETAILED.has(code)) return t(`err.${code}`);
  const prefix = has(`err.${code}`) ? t(`err.${code}`) : t("err.prefix");
  return err?.message ? `${prefix}: ${err.message}` : prefix;
}

async function api(method, path, body) {
  let res;
  try {
    res = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw { code: "network", message: String(e.message ?? e) };
  }
  const text = await res.text();
  let data = {};
  try {
    data = text ? JSON.parse(text) : {};
  } catch {
    data = {};
  }
  if (!res.ok || data.error) throw data.error ?? { code: "network", message: `${res.status} ${res.statusText}` };
  return { data, text };
}

function playerName() {
  return (localStorage.getItem("hukum.name") || "").trim() || t("lobby.name.placeholder");
}

function tokenKey(code) {
  return `hukum.token.${code}`;
}

function go(path) {
  history.pushState(null, "", path);
  route();
}

function flash(kind, text) {
  S.message = text ? { kind, text } : null;
}

/** A message whose text is written when shown (`text()`: in the language of the moment). */
function say(kind, text, extra = {}) {
  S.message = { kind, text, ...extra };
}

// ---------------------------------------------------------------- rules metadata (GET /api/rules)

/** Presets as {name: rules} and options as [{name, values, default, description}], whatever
 * reasonable shape the server sends. */
function normalizeMeta(m) {
  let presets = m?.presets ?? {};
  if (Array.isArray(presets)) presets = Object.fromEntries(presets.map((p) => [p.name, p]));
  for (const [name, p] of Object.entries(presets)) presets[name] = p?.rules ?? p?.options ?? p;
  let options = m?.options ?? {};
  if (!Array.isArray(options)) options = Object.entries(options).map(([name, o]) => ({ name, ...o }));
  options = options.map((o) => ({
    name: o.name,
    values: o.values ?? o.choices ?? null,
    default: o.default,
    description: o.description ?? o.doc ?? o.help ?? "",
  }));
  // The computer players of each game (the server's Game.bots); "rules" if not sent.
  const levels = { mindi: m?.levels?.mindi ?? m?.bots ?? ["rules"], ganjifa: m?.levels?.ganjifa ?? ["rules"] };
  return { presets, options, levels };
}

async function loadRulesMeta() {
  if (S.rulesMeta) return S.rulesMeta;
  try {
    const { data } = await api("GET", "/api/rules");
    S.rulesMeta = normalizeMeta(data);
  } catch {
    S.rulesMeta = normalizeMeta({ presets: { classic: {} } });
  }
  return S.rulesMeta;
}

function optionLabel(name) {
  return has(`opt.${name}`) ? t(`opt.${name}`) : name.replaceAll("_", " ");
}

function valueLabel(value) {
  if (value === null || value === undefined) return t("option.none");
  if (value === true) return t("option.yes");
  if (value === false) return t("option.no");
  if (Array.isArray(value)) return value.join(", ");
  return has(`val.${value}`) ? t(`val.${value}`) : String(value);
}

/** An option's one-line description: the server's (GET /api/rules, naming the rule ids) in
 * English, the translation table's in other languages; each falls back to the other. */
function optionDescription(name) {
  const server = S.rulesMeta?.options.find((o) => o.name === name)?.description ?? "";
  const local = has(`desc.${name}`) ? t(`desc.${name}`) : "";
  return getLang() === "en" ? server || local : local || server;
}

function presetLabel(name) {
  return has(`preset.${name}`) ? t(`preset.${name}`) : name;
}

// ---------------------------------------------------------------- shell and routing

function renderShell() {
  document.documentElement.lang = getLang();
  document.title = t("app.title");
  document.getElementById("brand-title").textContent = t("app.title");
  document.getElementById("lang-label").textContent = t("lang.label");
  const sel = document.getElementById("lang");
  sel.setAttribute("aria-label", t("lang.label"));
  sel.innerHTML = Object.entries(LANGS)
    .map(([code, name]) => `<option value="${code}" ${code === getLang() ? "selected" : ""}>${name}</option>`)
    .join("");
}

function stopTable() {
  if (S.ws) {
    const ws = S.ws;
    S.ws = null;
    ws.close();
  }
  if (S.poll) clearInterval(S.poll);
  S.poll = null;
}

function route() {
  stopTable();
  Object.assign(S, tableState(null)); // each page starts with no table's state
  const board = location.pathname.match(/^\/t\/([^/]+)\/deals\/([^/]+)\/?$/);
  const m = location.pathname.match(/^\/t\/([^/]+)\/?$/);
  if (board) openBoard(bctx(), decodeURIComponent(board[1]), board[2]);
  else if (m) openTable(decodeURIComponent(m[1]));
  else showLobby();
}

function render() {
  renderShell();
  if (S.page === "lobby") renderLobby();
  else if (S.page === "table") renderTable();
  else if (S.page === "board") renderBoard(bctx());
}

/** What the analysis board (board.js) needs from here. */
function bctx() {
  return { S, t, esc, api, errorText, seatName, teamName, mySeat, myTeam, outcomeText, go, render, app };
}

// ---------------------------------------------------------------- lobby

async function showLobby() {
  S.page = "lobby";
  S.code = null;
  S.message = null;
  renderShell();
  app.innerHTML = `<p class="loading">${esc(t("loading"))}</p>`;
  await loadRulesMeta();
  if (S.page === "lobby") renderLobby();
}

function selectHTML(id, items, selected) {
  return `<select id="${id}" name="${id}">${items
    .map(([value, label]) => `<option value="${esc(value)}" ${String(value) === String(selected) ? "selected" : ""}>${esc(label)}</option>`)
    .join("")}</select>`;
}

/** The computer players of a game, from GET /api/rules. */
function levels(game) {
  return S.rulesMeta?.levels[game] ?? ["rules"];
}

function levelOptions(game) {
  return levels(game).map((l) => [l, t(`level.${l}`)]);
}

/** The level last chosen for a game (localStorage), if that game has it. */
function savedLevel(game) {
  const level = localStorage.getItem(game === "mindi" ? "hukum.level" : "hukum.g.level");
  return levels(game).includes(level) ? level : "rules";
}

function lengthLabel(code) {
  const n = Number(code.slice(1));
  if (code[0] === "p") return t("length.points", { n });
  return n === 1 ? t("length.deal") : t("length.deals", { n });
}

function optionField(o, value) {
  const id = `opt-${o.name}`;
  let input;
  if (Array.isArray(o.values) && o.values.length) {
    input = `<select id="${id}" data-option="${esc(o.name)}">${o.values
      .map((v) => `<option value="${esc(JSON.stringify(v))}" ${JSON.stringify(v) === JSON.stringify(value) ? "selected" : ""}>${esc(valueLabel(v))}</option>`)
      .join("")}</select>`;
  } else if (typeof value === "boolean" || typeof o.default === "boolean") {
    input = `<select id="${id}" data-option="${esc(o.name)}">${[true, false]
      .map((v) => `<option value="${v}" ${v === value ? "selected" : ""}>${esc(valueLabel(v))}</option>`)
      .join("")}</select>`;
  } else if (Array.isArray(value) || Array.isArray(o.default)) {
    input = `<input id="${id}" data-option="${esc(o.name)}" data-kind="list" value="${esc((value ?? o.default ?? []).join(", "))}">`;
  } else {
    input = `<input id="${id}" data-option="${esc(o.name)}" data-kind="number" type="number" min="1" value="${esc(value ?? "")}">`;
  }
  return `<label class="field"><span>${esc(optionLabel(o.name))}</span>${input}<small>${esc(optionDescription(o.name))}</small></label>`;
}

function customOptionsHTML(preset) {
  const rules = S.rulesMeta.presets[preset] ?? {};
  return S.rulesMeta.options
    .filter((o) => o.name !== "target" && o.name !== "deals")
    .map((o) => optionField(o, rules[o.name] ?? o.default))
    .join("");
}

/** The lobby's choices as they stand (every field, whether the single rules are open, the
 * pack note), to keep them when the lobby is drawn again: after an error, in another language. */
function lobbyChoices() {
  if (S.page !== "lobby" || !app.querySelector("#create-form")) return null;
  const values = {};
  for (const el of app.querySelectorAll(".lobby select[id], .lobby input[id]"))
    if (el.id !== "name") values[el.id] = el.type === "checkbox" ? el.checked : el.value;
  return { values, open: app.querySelector("#custom")?.open ?? false, note: app.querySelector("#deck-note")?.dataset.players ?? null };
}

function restoreLobby(kept) {
  if (!kept) return;
  const preset = kept.values.preset;
  if (preset && S.rulesMeta.presets[preset] && preset !== app.querySelector("#preset").value) {
    app.querySelector("#preset").value = preset;
    app.querySelector("#custom-options").innerHTML = customOptionsHTML(preset);
  }
  for (const [id, value] of Object.entries(kept.values)) {
    const el = document.getElementById(id);
    if (el && app.contains(el)) {
      if (el.type === "checkbox") el.checked = value === true;
      else el.value = value;
    }
  }
  app.querySelector("#custom").open = kept.open;
  if (kept.note) deckNote(kept.note);
}

/** 6 and 8 players play with 48 cards (M-2): choosing them switches the pack, and says so. */
function playersChosen(select) {
  const players = JSON.parse(select.value);
  const deck = app.querySelector("#opt-deck");
  app.querySelector("#deck-note")?.remove();
  if (players !== 4 && deck && JSON.parse(deck.value) !== 48) {
    deck.value = JSON.stringify(48);
    deckNote(players);
  }
}

function deckNote(players) {
  const deck = app.querySelector("#opt-deck");
  if (!deck) return;
  const note = document.createElement("p");
  note.id = "deck-note";
  note.className = "hint";
  note.setAttribute("role", "status");
  note.dataset.players = String(players);
  note.textContent = t("lobby.deck48", { n: players });
  deck.closest("label").after(note);
}

function renderLobby() {
  const meta = S.rulesMeta;
  const presets = Object.keys(meta.presets);
  const name = localStorage.getItem("hukum.name") || "";
  const kept = lobbyChoices();
  app.innerHTML = `
<section class="lobby">
  <p class="tagline">${esc(t("app.tagline"))}</p>
  ${S.message ? `<p class="message ${S.message.kind}" role="alert">${esc(S.message.text)}</p>` : ""}
  <label class="field name"><span>${esc(t("lobby.name"))}</span>
    <input id="name" maxlength="24" autocomplete="nickname" placeholder="${esc(t("lobby.name.placeholder"))}" value="${esc(name)}"></label>
  <div class="cards3">
  <article class="panel" id="play-panel">
    <h2>${esc(t("lobby.play.title"))}</h2>
    <p>${esc(t("lobby.play.text"))}</p>
    <label class="field"><span>${esc(t("lobby.level"))}</span>${selectHTML("level", levelOptions("mindi"), savedLevel("mindi"))}</label>
    <button id="play-now" class="primary" data-action="play-now">${esc(t("lobby.play.button"))}</button>
  </article>
  <article class="panel" id="create-panel">
    <h2>${esc(t("lobby.create.title"))}</h2>
    <p>${esc(t("lobby.create.text"))}</p>
    <form id="create-form">
      <label class="field"><span>${esc(t("lobby.preset"))}</span>${selectHTML("preset", presets.map((p) => [p, presetLabel(p)]), presets.includes("classic") ? "classic" : presets[0])}</label>
      <label class="field"><span>${esc(t("lobby.level"))}</span>${selectHTML("room-level", levelOptions("mindi"), "rules")}</label>
      <label class="field"><span>${esc(t("lobby.length"))}</span>${selectHTML("length", LENGTHS.map((l) => [l, lengthLabel(l)]), "p7")}</label>
      <label class="field"><span>${esc(t("lobby.timeout"))}</span>${selectHTML("timeout", TIMEOUTS.map((s) => [s, s ? t("lobby.seconds", { n: s }) : t("lobby.timeout.none")]), 60)}</label>
      <details id="custom"><summary>${esc(t("lobby.custom"))}</summary><div id="custom-options">${customOptionsHTML(presets.includes("classic") ? "classic" : presets[0])}</div></details>
      <label class="check"><input type="checkbox" id="spectators"> <span>${esc(t("lobby.spectators"))}</span></label>
      <label class="check"><input type="checkbox" id="hints"> <span>${esc(t("lobby.hints"))}</span></label>
      <button id="create-room" class="primary" type="submit">${esc(t("lobby.create.button"))}</button>
    </form>
  </article>
  <article class="panel" id="ganjifa-panel">
    <h2>${esc(t("g.lobby.title"))}</h2>
    <p>${esc(t("g.lobby.text"))}</p>
    <label class="field"><span>${esc(t("g.lobby.time"))}</span>${selectHTML("g-time", [["day", t("g.day")], ["night", t("g.night")]], localStorage.getItem("hukum.g.time") || "day")}</label>
    <label class="field"><span>${esc(t("lobby.level"))}</span>${selectHTML("g-level", levelOptions("ganjifa"), savedLevel("ganjifa"))}</label>
    <label class="check"><input type="checkbox" id="g-spectators"> <span>${esc(t("lobby.spectators"))}</span></label>
    <div class="actions"><button id="play-ganjifa" class="primary" data-action="play-ganjifa">${esc(t("g.lobby.play"))}</button>
    <button id="ganjifa-room" data-action="ganjifa-room">${esc(t("g.lobby.room"))}</button></div>
  </article>
  <article class="panel" id="join-panel">
    <h2>${esc(t("lobby.join.title"))}</h2>
    <p>${esc(t("lobby.join.text"))}</p>
    <form id="join-form">
      <input id="join-code" autocomplete="off" placeholder="${esc(t("lobby.join.placeholder"))}" aria-label="${esc(t("lobby.join.placeholder"))}">
      <button id="join" type="submit">${esc(t("lobby.join.button"))}</button>
    </form>
  </article>
  </div>
</section>`;
  restoreLobby(kept);
}

function readOptions(preset) {
  const base = S.rulesMeta.presets[preset] ?? {};
  const options = {};
  for (const el of app.querySelectorAll("[data-option]")) {
    const name = el.dataset.option;
    let value;
    if (el.tagName === "SELECT") value = JSON.parse(el.value);
    // Words that are not numbers are sent as typed: the server's error then quotes them.
    else if (el.dataset.kind === "list") value = el.value.split(/[,\s]+/).filter(Boolean).map((w) => (/^-?\d+$/.test(w) ? Number(w) : w));
    else value = el.value === "" ? null : Number(el.value);
    if (JSON.stringify(value) !== JSON.stringify(base[name])) options[name] = value;
  }
  const length = app.querySelector("#length").value;
  const n = Number(length.slice(1));
  if (length[0] === "p") {
    options.target = n;
    options.deals = null;
  } else {
    options.target = null;
    options.deals = n;
  }
  return options;
}

async function createTable(body) {
  try {
    const { data } = await api("POST", "/api/tables", body);
    localStorage.setItem(tokenKey(data.code), data.token);
    localStorage.setItem(`hukum.seat.${data.code}`, String(data.seat ?? 0));
    S.message = null;
    go(data.invite || `/t/${data.code}`);
  } catch (err) {
    flash("error", errorText(err));
    render();
  }
}

function playNow() {
  const level = app.querySelector("#level").value;
  localStorage.setItem("hukum.level", level);
  createTable({ preset: "classic", bots: level, name: playerName(), start_now: true });
}

/** Dashavatara Ganjifa: against two computer players at once, or a private room for three. */
function ganjifa(startNow) {
  const time = app.querySelector("#g-time").value;
  const level = app.querySelector("#g-level").value;
  localStorage.setItem("hukum.g.time", time);
  localStorage.setItem("hukum.g.level", level);
  const spectators = app.querySelector("#g-spectators").checked;
  createTable({ game: "ganjifa", options: { time }, bots: level, name: playerName(), start_now: startNow, spectators });
}

function createRoom() {
  const preset = app.querySelector("#preset").value;
  createTable({
    preset,
    options: readOptions(preset),
    bots: app.querySelector("#room-level").value,
    name: playerName(),
    turn_timeout: Number(app.querySelector("#timeout").value) || null,
    start_now: false,
    spectators: app.querySelector("#spectators").checked,
    hints: app.querySelector("#hints").checked,
  });
}

function joinRoom() {
  const text = app.querySelector("#join-code").value.trim();
  const m = text.match(/\/t\/([^/?#\s]+)/);
  const code = (m ? m[1] : text).toLowerCase();
  if (!CODE_RE.test(code)) {
    flash("error", t("lobby.join.bad"));
    render();
    return;
  }
  go(`/t/${code}`);
}

// ---------------------------------------------------------------- table: connection

async function openTable(code) {
  S.page = "table";
  Object.assign(S, tableState(code));
  S.token = localStorage.getItem(tokenKey(code));
  // Someone without a seat may watch a room that allows it: /t/<code>?watch=1.
  S.watch = !S.token && new URLSearchParams(location.search).get("watch") === "1";
  render();
  loadRulesMeta().then(() => S.page === "table" && S.panel === "rules" && render());
  await refreshTable();
  if (S.code !== code) return;
  if (S.watch && S.table && !S.table.spectators) {
    S.watch = false;
    say("error", () => t("err.no_spectators"));
    render();
  }
  if (S.token || S.watch) connect();
  else startPolling();
}

/** Whether this page watches the table (no seat, nothing to send but ping). */
function watching() {
  return S.watch && !S.token;
}

/** The rematch of this table has been made: a seated person's token holds the same seat
 * there (the server copied it), so the page keeps it under the new code too. */
function keepRematchToken() {
  const next = S.table?.rematch;
  if (!next || !S.token || !CODE_RE.test(next)) return;
  if (localStorage.getItem(tokenKey(next)) !== S.token) {
    localStorage.setItem(tokenKey(next), S.token);
    const seat = mySeat();
    if (seat !== null) localStorage.setItem(`hukum.seat.${next}`, String(seat));
  }
}

/** The page of the rematch's table: to play it (a seated person), or to watch it. */
function rematchPath() {
  const next = S.table?.rematch;
  return S.token ? `/t/${next}` : `/t/${next}?watch=1`;
}

async function refreshTable() {
  const code = S.code;
  try {
    const { data, text } = await api("GET", `/api/tables/${encodeURIComponent(code)}`);
    if (S.code !== code) return;
    if (text === S.tableJSON) return;
    S.tableJSON = text;
    S.table = data;
    syncAbsent();
    keepRematchToken();
  } catch (err) {
    if (S.code !== code) return;
    if (err.code === "unknown_table") S.notFound = true;
    else flash("error", errorText(err));
  }
  render();
}

function startPolling() {
  if (S.poll) clearInterval(S.poll);
  S.poll = setInterval(() => {
    if (S.page === "table" && !S.token) refreshTable();
  }, 1500);
}

function connect() {
  if ((!S.token && !watching()) || S.page !== "table") return;
  const code = S.code;
  // The token goes in the first message, never in the URL (logs and proxies keep URLs).
  // A watcher sends none: it holds no seat.
  const hello = S.token ? { type: "hello", token: S.token } : { type: "hello", watch: true };
  if (S.last) hello.last = S.last;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(code)}`);
  S.ws = ws;
  S.wsState = "connecting";
  ws.onopen = () => {
    if (S.ws !== ws) return;
    ws.send(JSON.stringify(hello));
    S.wsState = "open";
    render();
  };
  ws.onmessage = (e) => {
    if (S.ws === ws) onMessage(e.data);
  };
  ws.onclose = (e) => {
    if (S.ws !== ws) return;
    S.ws = null;
    S.wsState = "closed";
    S.sending = null; // unanswered: the resync after reconnecting shows whether it was played
    S.pending = {};
    S.hintAsked = null; // a hint asked on this connection is never answered
    if (e.code === 4401) {
      // The token is not (or no longer) valid for this table: forget it.
      localStorage.removeItem(tokenKey(code));
      S.token = null;
      startPolling();
      refreshTable();
      return;
    }
    if (e.code === 4403 && watching()) {
      // The room does not allow watchers: follow it as before, by polling.
      S.watch = false;
      say("error", () => t("err.no_spectators"));
      startPolling();
      refreshTable();
      return;
    }
    render();
    // 1012: the table moved to another server process, which is ready now.
    setTimeout(() => {
      if (S.page === "table" && S.code === code && !S.ws) connect();
    }, e.code === 1012 ? 100 : 1000);
  };
}

/** Send a message to the table; its ref, or null when the connection is down. */
function send(message) {
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) {
    say("error", () => t("game.disconnected"));
    render();
    return null;
  }
  message.ref = ++S.ref;
  S.pending[message.ref] = message;
  S.ws.send(JSON.stringify(message));
  return message.ref;
}

/** Send a move, once: until the server answers it (its ack or error) or the table moves on
 * (this seat's move event, a resync, a lost connection), no other move is sent and the
 * buttons that send one are disabled. One click, one move. */
function sendMove(move) {
  if (S.sending !== null) return;
  S.sending = send({ type: "move", move, event: S.last }); // the turn it answers
  render();
}

/** Whether this seat may ask for a suggested move (docs/protocol.md, "hints"), as the server
 * decides it: the room allows hints, or every other seat is a computer player. */
function hintsAllowed() {
  if (!S.token || watching() || !S.table || S.table.status !== "playing") return false;
  const me = mySeat();
  return S.table.hints === true || (S.table.seats ?? []).every((s) => s.seat === me || s.kind === "bot");
}

/** Ask the server for a suggested move for this turn (one at a time). */
function askHint() {
  if (S.hintAsked !== null || S.sending !== null) return;
  S.hint = null;
  S.hintAsked = send({ type: "hint" });
  render();
}

/** The server's suggestion: if it is for the turn on the table now, choose its cards (the
 * player still presses Play) and keep it for its one-line reason; an older one is dropped. */
function takeHint(msg) {
  if (msg.event !== S.last || !S.view || S.view.turn !== S.view.seat) return;
  S.hint = { event: msg.event, move: msg.move, why: msg.why };
  S.message = null;
  const words = String(msg.move).split(" ");
  if (isG()) {
    const cards = words.filter((w) => w !== "dukal" && w !== "give");
    if (cards.every((c) => (S.view.hand ?? []).includes(c))) S.picked = new Set(cards);
  } else if (CARD_RE.test(words.at(-1)) && (words.length === 1 || words[0] === "hide")) {
    S.selected = words.at(-1);
  }
}

/** The suggestion for this turn, if any: its move in the page's notation. */
function currentHint() {
  return S.hint && S.hint.event === S.last && S.view?.turn === S.view?.seat ? S.hint : null;
}

/** The suggested move and why, in one line, under the table's status. */
function hintHTML() {
  const h = currentHint();
  if (!h) return "";
  const words = h.move.split(" ");
  let move;
  if (isG()) move = words.filter((w) => w !== "dukal" && w !== "give").map(gCardText).join(" ");
  else if (words[0] === "reveal") move = esc(t("game.reveal"));
  else if (words[0] === "announce") move = `${suitSVG(words[1], 16)} ${esc(t(`suit.${words[1]}`))}`;
  else move = cardText(words.at(-1));
  return `<p class="hint-line" id="hint-text" data-move="${esc(h.move)}"><span class="label">${esc(t("hint.label"))}:</span> ${move} — <span id="hint-why">${esc(h.why)}</span></p>`;
}

/** The "Suggest a move" button, where hints are allowed and it is this seat's turn. */
function hintButtonHTML() {
  const v = S.view;
  if (!hintsAllowed() || v.turn !== v.seat || v.phase === "over" || S.absent.has(v.seat)) return "";
  const busy = S.hintAsked !== null;
  const off = busy || S.sending !== null ? "disabled" : "";
  return `<button id="hint" data-action="hint" ${off}>${esc(t(busy ? "hint.asking" : "hint.button"))}</button>`;
}

function syncAbsent() {
  for (const s of S.table?.seats ?? []) {
    if (s.absent === true) S.absent.add(s.seat);
    else if (s.absent === false) S.absent.delete(s.seat);
  }
}

function noteDeal(view, raw) {
  if (!view) return;
  const n = view.deal_number;
  S.dealers[n] = view.dealer;
  if (view.commitment) S.commitments[n] = view.commitment;
  if (view.seed !== null && view.seed !== undefined) {
    // A 128-bit seed does not survive JSON.parse as a number: take its digits from the text.
    const m = raw.match(/"seed"\s*:\s*"?(\d+)"?/);
    S.seeds[n] = m ? m[1] : String(view.seed);
  }
}

function onMessage(raw) {
  let msg;
  try {
    msg = JSON.parse(raw);
  } catch {
    return;
  }
  switch (msg.type) {
    case "state":
      S.sending = null;
      S.last = msg.event ?? S.last;
      S.table = msg.table ?? S.table;
      S.view = msg.view ?? null;
      syncAbsent();
      keepRematchToken();
      noteDeal(S.view, raw);
      break;
    case "event":
      if (msg.event <= S.last) return;
      S.last = msg.event;
      if (msg.table) S.table = msg.table;
      if ("view" in msg) S.view = msg.view;
      syncAbsent();
      if (msg.kind === "absent") S.absent.add(msg.seat);
      if (msg.kind === "back") S.absent.delete(msg.seat);
      if (msg.kind === "deal") {
        S.nextSent = false;
        S.selected = null;
        S.picked.clear();
        if (msg.commitment && S.view) S.commitments[S.view.deal_number] = msg.commitment;
      }
      if (msg.kind === "move" && msg.seat === S.view?.seat) {
        S.message = null;
        S.sending = null; // the move is made: the turn has moved on
      } else if (msg.kind === "move" && S.message?.kind === "warn") S.message = null; // e.g. "wait for Ravi"
      noteDeal(S.view, raw);
      keepRematchToken();
      if (msg.kind === "rematched" && S.token && S.table?.rematch) {
        // Everybody asked: the same seats play again at the new table, at once.
        go(rematchPath());
        return;
      }
      break;
    case "ack": {
      const sent = S.pending[msg.ref];
      delete S.pending[msg.ref];
      if (msg.ref === S.sending) S.sending = null;
      if (sent?.type === "move") {
        // Unselect what was just played (so that a second click cannot send it again). The
        // ack can also come after the events that gave the turn back (bots play at once):
        // a card chosen since then, for that turn, stays chosen.
        if (S.selected && cardMove(S.selected) === sent.move) S.selected = null;
        if (S.view && S.picked.size && chosenMove(S.view, S.picked) === sent.move) S.picked.clear();
      }
      if (sent?.type === "next_deal") S.nextSent = true;
      S.message = null;
      break;
    }
    case "hint":
      delete S.pending[msg.ref];
      if (msg.ref === S.hintAsked) S.hintAsked = null;
      takeHint(msg);
      break;
    case "error": {
      const sent = S.pending[msg.ref];
      delete S.pending[msg.ref];
      if (sent?.type === "hint" && msg.ref === S.hintAsked) S.hintAsked = null;
      if (msg.ref !== null && msg.ref !== undefined && msg.ref === S.sending) S.sending = null;
      if (sent?.type === "next_deal" && S.view?.phase !== "over") S.nextSent = false;
      if (sent?.type === "rematch") S.rematchSent = false;
      S.message = refusalMessage(msg.error ?? {}, sent);
      break;
    }
    default:
      return;
  }
  render();
}

// ---------------------------------------------------------------- table: rendering

/** Whether this table plays Dashavatara Ganjifa. */
function isG() {
  return (S.view?.game ?? S.table?.game) === "ganjifa";
}

/** What the Ganjifa parts of the page need from here. */
function gctx() {
  return { S, t, esc, seatName, position, seatHTML, mySeat };
}

function nPlayers() {
  return S.table?.seats?.length || S.table?.rules?.players || 4;
}

function mySeat() {
  if (S.view && typeof S.view.seat === "number") return S.view.seat;
  const stored = localStorage.getItem(`hukum.seat.${S.code}`);
  return S.token && stored !== null ? Number(stored) : null;
}

function myTeam() {
  const s = mySeat();
  return s === null || isG() ? null : s % 2;
}

/** A seat's own name: a person's, or a computer player's by the lobby's level names ("Good
 * computer"; the data keep the bot id, e.g. "rules bot"). */
function ownName(seat) {
  const s = S.table?.seats?.[seat];
  const level = S.table?.bots;
  if (s?.kind === "bot" && level && has(`level.${level}`)) return t("bot.name", { level: t(`level.${level}`) });
  return s?.name ?? "";
}

function seatName(seat) {
  const seats = S.table?.seats ?? [];
  const name = ownName(seat);
  if (!name) return t("seat", { n: seat + 1 });
  // Two "Good computer"s at one table are told apart by their seat.
  return seats.some((s, i) => i !== seat && ownName(i) === name) ? `${name} (${seat + 1})` : name;
}

function teamName(team) {
  const mine = myTeam();
  if (mine === null) return t("team", { n: team + 1 });
  return team === mine ? t("team.us") : t("team.them");
}

/** Where seat s sits on the board, in percent: you at the bottom, partner at the top. */
function position(seat, radiusX, radiusY) {
  const n = nPlayers();
  const me = mySeat() ?? 0;
  const k = (seat - me + n) % n;
  const dir = S.table?.rules?.direction === "clockwise" ? -1 : 1;
  const a = ((270 + (k * 360 * dir) / n) * Math.PI) / 180;
  return { x: 50 + radiusX * Math.cos(a), y: 50 - radiusY * Math.sin(a) };
}

function messageHTML() {
  const m = S.message;
  if (!m) return "";
  const text = typeof m.text === "function" ? m.text() : m.text;
  const data = (m.code ? ` data-code="${esc(m.code)}"` : "") + (m.rules?.length ? ` data-rule-ids="${esc(m.rules.join(" "))}"` : "");
  return `<p class="message ${m.kind}" role="alert" id="message"${data}>${esc(text)}</p>`;
}

// ---------------------------------------------------------------- table: why not, in words

/** "Wait for Ravi to play." (or to choose trump), naming the seat to move. */
function waitText(seat, phase) {
  return () => t(phase === "hide" || phase === "announce" ? "why.wait.trump" : "why.wait", { name: seatName(seat) });
}

/** A Mindi suit in words: "spades ♠". */
function suitWords(suit) {
  return `${t(`suit.${suit}`)} ${SYMBOL[suit]}`;
}

/** Why a card of my hand may not be chosen now (a function giving the sentence in the
 * page's language), or null if it may: from the view alone (whose turn, the legal moves,
 * the led suit and trump). */
function cardReason(code) {
  const v = S.view;
  if (!v || v.phase === "over" || v.turn === null || v.turn === undefined) return () => t("why.over");
  if (v.turn !== v.seat) return waitText(v.turn, v.phase);
  if (isG()) return cardReasonG(v, code, t);
  if (isLegalCard(code)) return null;
  if (v.phase === "announce") return () => t("why.announce");
  const led = v.trick?.length ? parseCard(v.trick[0].card).suit : null;
  const suits = new Set([...legalSet()].filter((m) => CARD_RE.test(m)).map((c) => parseCard(c).suit));
  if (led && suits.size === 1) {
    const [suit] = suits;
    if (suit === led) return () => t("why.follow", { suit: suitWords(suit) }); // M-8
    if (suit === v.trump) return () => t("why.trump", { suit: suitWords(suit) }); // M-8 must_trump, M-12
  }
  return () => t("why.card");
}

/** A refusal from the server as the page's message: the page's own sentence, naming people
 * (never a 0-based seat) in the page's language; the code and the rule ids stay in the
 * message's data (data-code, data-rule-ids). */
function refusalMessage(err, sent) {
  const code = err.code ?? "";
  const rules = Array.isArray(err.rule_ids) ? err.rule_ids : [];
  let text;
  if (code === "not_your_turn" && "turn" in err) {
    text = err.turn === null ? () => t("why.between") : waitText(err.turn, S.view?.phase);
  } else if (code === "illegal_move") {
    const card = sent?.type === "move" ? sent.move.split(" ").at(-1) : null;
    // The page's own reason when its view has one (the move was sent on an older view).
    const known = card && S.view?.hand?.includes(card) ? cardReason(card) : null;
    text = known ?? (rules.length ? () => t("refused.illegal", { rules: rules.join(", ") }) : () => t("refused.illegal.plain"));
  } else {
    text = () => errorText(err);
  }
  return { kind: "error", text, code, rules };
}

function renderTable() {
  if (S.notFound) {
    app.innerHTML = `<section class="room"><p class="message error">${esc(t("room.notfound"))}</p>
      <button data-action="lobby">${esc(t("room.back"))}</button></section>`;
    return;
  }
  if (!S.table) {
    app.innerHTML = `<p class="loading">${esc(t("loading"))}</p>`;
    return;
  }
  if (S.table.status === "waiting" || !S.view) app.innerHTML = roomHTML();
  else renderGame();
}

function inviteURL() {
  return `${location.origin}/t/${S.code}`;
}

function roomHTML() {
  const seats = S.table.seats ?? [];
  const me = mySeat();
  const waiting = S.table.status === "waiting";
  const empty = seats.some((s) => s.kind === "empty");
  const rows = seats
    .map((s) => {
      let who;
      if (s.kind === "empty") {
        who = `<span class="empty">${esc(t("room.empty"))}</span>`;
        if (!S.token && waiting)
          who += ` <button class="small" data-action="sit" data-seat="${s.seat}" id="sit-${s.seat}">${esc(t("room.sit"))}</button>`;
      } else {
        who = `<b>${esc(seatName(s.seat))}</b>`;
        if (s.seat === me && S.token) who += ` <span class="tag you">${esc(t("room.you"))}</span>`;
        if (s.kind === "bot") who += ` <span class="tag bot">${esc(t("room.bot"))}</span>`;
        if (s.kind === "human" && !s.connected) who += ` <span class="tag off">${esc(t("room.offline"))}</span>`;
      }
      const team = isG() ? "" : ` · ${esc(teamName(s.seat % 2))}`;
      return `<li class="seat-row" data-seat="${s.seat}"><span class="seat-no">${esc(t("seat", { n: s.seat + 1 }))}${team}</span> ${who}</li>`;
    })
    .join("");
  let actions = "";
  if (S.token && waiting) {
    actions = `<div class="actions">
      ${empty ? `<button id="fill-bots" data-action="bots">${esc(t("room.bots"))}</button>` : ""}
      <button id="start" class="primary" data-action="start" ${empty ? "disabled" : ""}>${esc(t("room.start"))}</button>
    </div><p class="hint">${esc(t("room.waiting"))}</p>`;
  } else if (!S.token && waiting) {
    const name = localStorage.getItem("hukum.name") || "";
    actions = `<label class="field name"><span>${esc(t("lobby.name"))}</span>
      <input id="name" maxlength="24" placeholder="${esc(t("lobby.name.placeholder"))}" value="${esc(name)}"></label>
      <p class="hint">${esc(empty ? t("room.pick") : t("room.full"))}</p>`;
  } else if (!S.token && !watching()) {
    actions = `<p class="hint">${esc(t("game.spectator"))}</p>`;
  } else {
    actions = `<p class="hint">${esc(S.wsState === "open" ? t("loading") : t("game.connecting"))}</p>`;
  }
  if (watching()) actions += `<p class="hint" id="watching">${esc(t("watch.room"))}</p>`;
  else if (!S.token && S.table.spectators)
    actions += `<div class="actions"><button id="watch" data-action="watch">${esc(t("watch.button"))}</button></div>`;
  return `<section class="room">
  <h2>${esc(t("room.title", { code: S.code }))}</h2>
  ${messageHTML()}
  <div class="invite panel">
    <label class="field"><span>${esc(t("room.invite"))}</span>
      <span class="row"><input id="invite-link" readonly value="${esc(inviteURL())}">
      <button id="copy" data-action="copy">${esc(S.copied ? t("room.copied") : t("room.copy"))}</button></span></label>
    <p>${esc(t("room.code"))}: <code id="room-code">${esc(S.code)}</code> · ${esc(tableLabel())}
      · <button class="link" data-action="panel" data-panel="rules">${esc(t("nav.rules"))}</button></p>
  </div>
  <h3>${esc(t("room.seats"))}</h3>
  <ul class="seats">${rows}</ul>
  ${actions}
  ${S.panel === "rules" ? rulesPanelHTML() : ""}
</section>`;
}

/** The game and rule set of the table, in a few words. */
function tableLabel() {
  if (!isG()) return presetLabel(S.table?.preset ?? "classic");
  return `${t("g.name")} · ${t(`val.${S.table?.rules?.time ?? "day"}`)}`;
}

function legalSet() {
  return new Set(S.view?.legal ?? []);
}

/** The cards of my hand a click may select now, and the move each makes. */
function cardMove(code) {
  return S.view?.phase === "hide" ? `hide ${code}` : code;
}

function isLegalCard(code) {
  return legalSet().has(cardMove(code));
}

function trumpHTML() {
  const v = S.view;
  const rules = S.table.rules ?? {};
  let body;
  if (v.trump && v.trump_known) {
    body = `${suitSVG(v.trump, 22)} <span>${esc(t(`suit.${v.trump}`))}</span>`;
    if (v.shown_card) body += ` <span class="mini">${cardText(v.shown_card)} ${esc(t("game.trump.shown"))}</span>`;
  } else if (v.face_down) {
    body = `<span class="mini-card">${cardSVG(v.face_down)}</span> <span>${esc(t("game.trump.yours"))}</span>`;
  } else if (v.trump) {
    body = `${suitSVG(v.trump, 22)} <span>${esc(t("game.trump.yours"))}</span>`;
  } else if (rules.trump === "band" && v.face_down_placed !== false && v.phase !== "hide") {
    body = `<span class="mini-card">${backSVG()}</span> <span>${esc(t("game.trump.hidden"))}</span>`;
  } else {
    body = `<span>${esc(t("game.trump.unknown"))}</span>`;
  }
  let revealed = "";
  if (v.reveal) revealed = `<div class="hint">${esc(t("game.revealed", { name: seatName(v.reveal.seat) }))} ${cardText(v.reveal.card)}</div>`;
  return `<div class="trump" id="trump"><span class="label">${esc(t("game.trump"))}:</span> ${body}${revealed}</div>`;
}

/** A seat on the board: its name, `info` (e.g. cards in hand) and tags (dealer, computer,
 * absent, offline); `classes` adds to the seat's own (its turn, mine). */
function seatHTML(s, classes, info) {
  const v = S.view;
  const p = position(s, 40, 41);
  const all = ["seat", ...classes];
  if (v.turn === s && v.phase !== "over") all.push("turn");
  if (s === mySeat()) all.push("me");
  const seat = S.table.seats?.[s] ?? {};
  const tags = [];
  if (s === v.dealer) tags.push(`<span class="tag">${esc(t("game.dealer"))}</span>`);
  if (seat.kind === "bot") tags.push(`<span class="tag bot">${esc(t("room.bot"))}</span>`);
  if (S.absent.has(s)) tags.push(`<span class="tag absent" title="${esc(t("game.absent"))}">${esc(t("game.absent"))}</span>`);
  else if (seat.kind === "human" && seat.connected === false) tags.push(`<span class="tag off">${esc(t("room.offline"))}</span>`);
  // Seats at the sides hug the edge so that their labels stay on the board.
  const place =
    p.x < 25
      ? `left:1%;top:${p.y}%;transform:translate(0,-50%)`
      : p.x > 75
        ? `right:1%;top:${p.y}%;transform:translate(0,-50%)`
        : `left:${p.x}%;top:${p.y}%`;
  return `<div class="${all.join(" ")}" data-seat="${s}" style="${place}">
      <div class="seat-name">${esc(seatName(s))}</div>
      <div class="seat-info">${esc(info)} ${tags.join(" ")}</div>${s === mySeat() ? "" : backsHTML(v.hand_sizes?.[s], isG(), p.y < 20)}</div>`;
}

function boardHTML() {
  const v = S.view;
  const n = nPlayers();
  const seats = [];
  for (let s = 0; s < n; s++) {
    const size = v.hand_sizes?.[s];
    const info = size !== undefined && s !== mySeat() ? t("game.cards", { n: size }) : "";
    seats.push(seatHTML(s, s % 2 === myTeam() ? ["ours"] : [], info));
  }
  let plays = v.trick ?? [];
  let caption = "";
  let old = false;
  if (!plays.length && v.last_trick && (v.tricks_played > 0 || v.phase === "over")) {
    plays = v.last_trick.plays ?? [];
    old = true;
    caption = t("game.wontrick", { name: seatName(v.last_trick.winner) });
  }
  const trick = plays
    .map((p, i) => {
      const pos = position(p.seat, 14, 20);
      return `<div class="played ${p.trump ? "trump" : ""}" data-seat="${p.seat}" data-card="${esc(p.card)}" style="left:${pos.x}%;top:${pos.y}%;z-index:${i + 1}">${cardSVG(p.card)}</div>`;
    })
    .join("");
  const pile = S.table.rules?.capture === "dehla" && v.pile?.length ? `<div class="pile">${esc(t("game.pile", { n: v.pile.length }))}</div>` : "";
  return `<div class="board" id="board">${seats.join("")}
    <div class="trick ${old ? "old" : ""}" id="trick">${trick}</div>
    ${caption ? `<div class="trick-caption">${esc(caption)}</div>` : ""}${pile}</div>`;
}

function handHTML() {
  const v = S.view;
  const hand = sortHand(v.hand ?? []);
  if (S.selected && !hand.includes(S.selected)) S.selected = null;
  // Cards are chosen only to play them or (band hukum) to lay one face down.
  const myTurn = v.turn === v.seat && (v.phase === "play" || v.phase === "hide");
  const cards = hand
    .map((code) => {
      const { suit } = parseCard(code);
      const legal = myTurn && isLegalCard(code);
      const classes = ["card", `suit-${suit}`];
      if (legal) classes.push("legal");
      else if (myTurn) classes.push("dimmed");
      if (code === S.selected) classes.push("selected");
      return `<button class="${classes.join(" ")}" data-action="card" data-card="${esc(code)}" aria-pressed="${code === S.selected}" aria-disabled="${!legal}" aria-label="${esc(code)}">${cardSVG(code)}</button>`;
    })
    .join("");
  return `<div class="hand" id="hand" role="group">${cards}</div>`;
}

/** The table's status line (whose turn, the connection, a hint, the message) and its
 * buttons, apart: the status changes with every move, the buttons seldom, and a button
 * redrawn under the pointer would lose a click (e.g. taking a seat back while bots play). */
function controlsHTML() {
  const v = S.view;
  const legal = legalSet();
  const myTurn = v.turn === v.seat && v.phase !== "over";
  const parts = [];
  let hint = "";
  if (!watching() && S.absent.has(v.seat) && S.table.status === "playing") {
    parts.push(`<p class="message warn">${esc(t("game.absent.you"))}</p>`);
    parts.push(`<button id="take-back" class="primary" data-action="take-back">${esc(t("game.takeback"))}</button>`);
  }
  if (watching()) {
    hint = t("watch.hint"); // read-only: no cards, no buttons
  } else if (isG() && v.phase !== "over") {
    const g = controlsG(gctx());
    parts.push(...g.parts);
    hint = g.hint;
  } else if (v.phase === "announce" && myTurn) {
    hint = t("game.announce.hint");
    for (const s of SUITS) {
      if (legal.has(`announce ${s}`))
        parts.push(`<button class="suit-btn${currentHint()?.move === `announce ${s}` ? " suggested" : ""}" data-action="announce" data-suit="${s}" id="announce-${s}" ${S.sending === null ? "" : "disabled"}>${suitSVG(s, 20)} ${esc(t(`suit.${s}`))}</button>`);
    }
  } else if (v.phase === "hide" && myTurn) {
    hint = t("game.hide.hint");
    parts.push(`<button id="play-card" class="primary" data-action="play" ${readyMove() ? "" : "disabled"}>${esc(t("game.hide"))}</button>`);
  } else if (v.phase === "play") {
    if (myTurn) hint = t("game.select.hint");
    parts.push(`<button id="play-card" class="primary" data-action="play" ${readyMove() ? "" : "disabled"}>${esc(t("game.play"))}</button>`);
    if (myTurn && legal.has("reveal"))
      parts.push(`<button id="reveal" ${currentHint()?.move === "reveal" ? `class="suggested" ` : ""}data-action="reveal" ${S.sending === null ? "" : "disabled"}>${esc(t("game.reveal"))}</button>`);
  } else if (v.phase === "over" && S.table.status !== "over") {
    if (S.nextSent) hint = t("game.nextdeal.waiting");
    else parts.push(`<button id="next-deal" class="primary" data-action="next">${esc(t("game.nextdeal"))}</button>`);
  }
  if (!watching()) parts.push(hintButtonHTML());
  const turn =
    v.phase === "over" || v.turn === null || v.turn === undefined
      ? ""
      : myTurn
        ? `<span class="your-turn" id="your-turn">${esc(t("game.yourturn"))}</span>`
        : `<span class="their-turn">${esc(t("game.turnof", { name: seatName(v.turn) }))}</span>`;
  const conn = S.wsState !== "open" ? `<span class="conn">${esc(t(S.wsState === "closed" ? "game.disconnected" : "game.connecting"))}</span>` : "";
  return {
    status: `<div class="status">${turn} ${conn} ${hint ? `<span class="hint">${esc(hint)}</span>` : ""}</div>
    ${hintHTML()}${messageHTML()}`,
    buttons: `<div class="controls">${parts.join(" ")}</div>`,
  };
}

function outcomeText(o) {
  const team = myTeam();
  const who = team === null ? t("result.team", { n: o.winner + 1 }) : o.winner === team ? t("result.we") : t("result.they");
  const w = o.winner;
  const l = 1 - w;
  const a = o.tens[w];
  const b = o.tens[l];
  let why;
  if (o.decided_by === "tricks") why = t("result.tricks", { a, b, c: o.tricks[w], d: o.tricks[l] });
  else if (o.decided_by === "last_trick") why = t("result.last_trick", { a, b });
  else if (o.decided_by === "highest_trick") why = t("result.highest_trick", { a, b, n: (o.highest_trick ?? 0) + 1 });
  else why = t("result.tens", { a, b });
  return { head: who + t(`result.${o.kind}`), why, points: t(o.points === 1 ? "result.point" : "result.points", { n: o.points }) };
}

function bannerHTML() {
  const v = S.view;
  const parts = [];
  if (isG()) {
    parts.push(bannerG(gctx(), v.outcome ? `<button class="small" id="analyse" data-action="analyse" data-deal="${v.deal_number}">${esc(t("board.replay"))}</button>` : ""));
  } else if (v.outcome) {
    const o = outcomeText(v.outcome);
    const good = myTeam() === null || v.outcome.winner === myTeam();
    parts.push(`<div class="banner result ${good ? "good" : "bad"} kind-${esc(v.outcome.kind)}" id="result" role="status">
      <strong>${esc(o.head)}</strong> <span class="why">${esc(o.why)}</span> <span class="pts">${esc(o.points)}</span>
      <button class="small" id="analyse" data-action="analyse" data-deal="${v.deal_number}">${esc(t("analysis.button"))}</button></div>`);
  }
  if (S.table.status === "over" && isG()) {
    const scores = S.table.scores ?? [];
    const won = v.outcome && (v.outcome.winners ?? []).includes(mySeat());
    const standing = scores.length ? standingG(gctx(), scores) : null;
    parts.push(`<div class="banner match ${won ? "good" : "bad"}" id="match-over"><strong>${esc(t("match.over"))}</strong>
      ${standing ? esc(`${standing.head} · ${standing.why}`) : ""}
      ${rematchHTML()}<button data-action="lobby">${esc(t("match.new"))}</button>${dealLinksHTML()}</div>`);
  } else if (S.table.status === "over") {
    const scores = S.table.scores ?? v.scores ?? [0, 0];
    const mine = myTeam();
    const team = mine ?? 0;
    const we = scores[team] >= scores[1 - team];
    const a = Math.max(...scores);
    const b = Math.min(...scores);
    let text;
    if (mine !== null) text = t(we ? "match.we" : "match.they", { a, b });
    else if (a === b) text = t("match.level", { a, b });
    else text = t("match.team", { n: scores.indexOf(a) + 1, a, b });
    parts.push(`<div class="banner match ${we || mine === null ? "good" : "bad"}" id="match-over"><strong>${esc(t("match.over"))}</strong>
      ${esc(text)}
      ${rematchHTML()}<button data-action="lobby">${esc(t("match.new"))}</button>${dealLinksHTML()}</div>`);
  }
  return parts.join("");
}

/** The match is over: a rematch, the same seats at a new table. A seated person asks (one
 * click; bots agree by themselves) and sees whom it waits for; once everybody has asked,
 * the page goes to the new table (onMessage). A watcher, or a reload, gets a link to it. */
function rematchHTML() {
  const table = S.table;
  if (table.rematch) {
    const label = S.token ? t("rematch.go") : t("rematch.watch");
    return `<button class="primary" id="rematch-link" data-action="go-rematch" data-code="${esc(table.rematch)}">${esc(label)}</button>`;
  }
  const seats = table.seats ?? [];
  const waiting = seats.filter((s) => s.kind === "human" && !s.rematch).map((s) => seatName(s.seat));
  const asked = seats.filter((s) => s.kind === "human" && s.rematch).map((s) => seatName(s.seat));
  const me = mySeat();
  if (!S.token || watching() || me === null) {
    return asked.length ? `<span class="hint" id="rematch-status">${esc(t("rematch.asked", { names: asked.join(", ") }))}</span>` : "";
  }
  if (seats[me]?.rematch || S.rematchSent) {
    const others = waiting.filter((name) => name !== seatName(me));
    return `<span class="hint" id="rematch-status">${esc(others.length ? t("rematch.waiting", { names: others.join(", ") }) : t("rematch.making"))}</span>`;
  }
  const note = asked.length ? ` <span class="hint" id="rematch-status">${esc(t("rematch.asked", { names: asked.join(", ") }))}</span>` : "";
  return `<button class="primary" id="rematch" data-action="rematch">${esc(t("rematch.button"))}</button>${note}`;
}

/** The match is over: a way to the analysis board of each of its deals. */
function dealLinksHTML() {
  const n = S.view?.phase === "over" ? S.view.deal_number : (S.view?.deal_number ?? 1) - 1;
  if (!(n >= 1)) return "";
  const links = [];
  for (let d = 1; d <= n; d++)
    links.push(`<button class="small" data-action="analyse" data-deal="${d}" aria-label="${esc(t("board.title", { n: d }))}">${d}</button>`);
  return `<span class="deal-links" id="deal-links">${esc(t(isG() ? "board.match.replay" : "board.match"))} ${links.join(" ")}</span>`;
}

function scoreHTML() {
  const v = S.view;
  const scores = v.scores ?? S.table.scores ?? [0, 0];
  const target = v.target ?? S.table.rules?.target;
  const teams = [0, 1].map((team) => {
    const tens = (v.tens?.[team] ?? []).map((c) => cardText(c)).join(" ") || "–";
    return `<tr class="team-${team} ${team === myTeam() ? "ours" : ""}"><th>${esc(teamName(team))}</th>
      <td class="tens" data-team="${team}"><span class="count">${v.tens?.[team]?.length ?? 0}</span> ${tens}</td>
      <td class="tricks" data-team="${team}">${v.tricks_won?.[team] ?? 0}</td>
      <td class="points" data-team="${team}">${scores[team] ?? 0}</td></tr>`;
  });
  return `<section class="panel score" id="score"><h3>${esc(t("score.title"))} · ${esc(t("game.deal", { n: v.deal_number ?? 1 }))}</h3>
    <table><thead><tr><th></th><th>${esc(t("score.tens"))}</th><th>${esc(t("score.tricks"))}</th><th>${esc(t("score.points"))}</th></tr></thead>
    <tbody>${teams.join("")}</tbody></table>
    ${target ? `<p class="hint">${esc(t("score.target", { n: target }))}</p>` : ""}</section>`;
}

function lastTrickHTML() {
  const lt = S.view.last_trick;
  if (!lt) return `<section class="panel" id="last-trick"><h3>${esc(t("game.lasttrick"))}</h3><p>${esc(t("game.lasttrick.none"))}</p></section>`;
  const rows = (lt.plays ?? [])
    .map((p) => `<li class="${p.seat === lt.winner ? "winner" : ""}">${esc(seatName(p.seat))}: ${cardText(p.card)}${p.trump ? " ★" : ""}</li>`)
    .join("");
  return `<section class="panel" id="last-trick"><h3>${esc(t("game.lasttrick"))}</h3><ul>${rows}</ul>
    <p>${esc(t("game.wontrick", { name: seatName(lt.winner) }))}</p></section>`;
}

function rulesPanelHTML() {
  const rules = S.table?.rules ?? {};
  const rows = Object.entries(rules)
    .map(([name, value]) => `<tr data-option="${esc(name)}"><th>${esc(optionLabel(name))}</th><td class="value">${esc(valueLabel(value))}</td><td class="desc">${esc(optionDescription(name))}</td></tr>`)
    .join("");
  return `<section class="panel rules" id="rules-panel"><h3>${esc(t("rules.title"))}</h3>
    <p>${esc(t("rules.preset"))}: <b>${esc(tableLabel())}</b></p>
    <table>${rows}</table></section>`;
}

/** The commitment, seed and check of deal n; the current deal's parts carry ids. */
function fairDealHTML(n, current) {
  const commitment = S.commitments[n] ?? (current ? S.view.commitment : null);
  if (!commitment) return "";
  const id = (name) => (current ? `id="${name}"` : "");
  const seed = dealOver(n) ? S.seeds[n] : undefined;
  const result = S.verify[n];
  let out = "";
  if (result) {
    if (result.error) out = `<p class="message error">${esc(result.error)}</p>`;
    else {
      out = `<p class="message ${result.hash ? "ok" : "error"}" ${id("verify-hash")}>${esc(t(result.hash ? "fair.ok" : "fair.bad"))}</p>`;
      if (result.server) {
        const ok = result.server.commitment_ok;
        out += `<p class="${ok ? "ok" : "error"}">${esc(t(ok ? "fair.server.ok" : "fair.server.bad"))}</p>`;
        if (ok && result.server.hands)
          out += `<ul class="hands" ${id("verify-hands")}>${result.server.hands
            .map((h, s) => `<li><b>${esc(seatName(s))}</b>: ${isG() ? sortG(h).map(gCardText).join(" ") : sortHand(h).map(cardText).join(" ")}</li>`)
            .join("")}</ul>`;
      }
    }
  }
  const head = current ? "" : `<h4>${esc(t("game.deal", { n }))}</h4>`;
  return `<div class="fair-deal" data-deal="${n}">${head}
    <p><span class="label">${esc(t("fair.commitment"))}:</span> <code class="hash" ${id("commitment")}>${esc(commitment)}</code></p>
    <p><span class="label">${esc(t("fair.seed"))}:</span> ${seed ? `<code class="seed" ${id("seed")}>${esc(seed)}</code>` : `<i>${esc(t("fair.seed.hidden"))}</i>`}</p>
    ${seed ? `<button ${id("verify")} data-action="verify" data-deal="${n}">${esc(t("fair.verify"))}</button>` : ""}${out}</div>`;
}

/** Whether deal n of this table is over (only then is its seed shown, and checked). */
function dealOver(n) {
  const v = S.view;
  return !!v && (n < v.deal_number || (n === v.deal_number && v.phase === "over"));
}

/** The analysis board of deal n of this table (board.js), in this tab. */
function openDealBoard(n) {
  go(boardPath(S.code, n));
}

/** The fair-shuffle panel: this deal, and the one before it once its seed is known (so
 * that it can still be checked after the next deal has begun). */
function fairHTML() {
  const n = S.view.deal_number;
  const now = fairDealHTML(n, true);
  if (!now) return "";
  const before = n > 1 && S.seeds[n - 1] ? fairDealHTML(n - 1, false) : "";
  return `<section class="panel fair" id="fair"><h3>${esc(t("fair.title"))}</h3>${now}${before}</section>`;
}

/** Draw the game, replacing only the parts whose HTML changed (a click in progress on an
 * unchanged part, e.g. the hand while a bot plays, is not lost). */
function renderGame() {
  const v = S.view;
  let game = app.querySelector("#game");
  if (!game) {
    app.innerHTML = `<section class="game" id="game">
  <div class="main-col"><div id="g-top"></div><div id="g-board"></div><div id="g-banner"></div>
    <div id="g-status"></div><div id="g-controls"></div><div id="g-hand"></div></div>
  <aside class="side-col" id="g-side"></aside></section>`;
    game = app.querySelector("#game");
  }
  game.dataset.phase = v.phase;
  game.dataset.turn = v.turn ?? "";
  game.dataset.seat = v.seat;
  game.dataset.myTurn = String(v.turn === v.seat);
  game.dataset.game = v.game ?? "mindi";
  game.dataset.need = v.need ?? 1;
  const panelButtons = `<button class="small" data-action="panel" data-panel="last" id="show-last" aria-pressed="${S.panel === "last"}">${esc(t("game.lasttrick"))}</button>
    <button class="small" data-action="panel" data-panel="rules" id="show-rules" aria-pressed="${S.panel === "rules"}">${esc(t("nav.rules"))}</button>`;
  const g = isG();
  const last = g ? lastTrickG(gctx()) : lastTrickHTML();
  const panel = S.panel === "rules" ? rulesPanelHTML() : S.panel === "last" ? last : "";
  const controls = controlsHTML();
  const parts = {
    "g-top": `<div class="topline">${g ? trumpG(gctx()) : trumpHTML()}<span class="spacer"></span>${panelButtons}</div>`,
    "g-board": g ? boardG(gctx()) : boardHTML(),
    "g-banner": bannerHTML(),
    "g-status": controls.status,
    "g-controls": controls.buttons,
    "g-hand": g ? handG(gctx()) : handHTML(),
    "g-side": panel + (g ? scoreG(gctx()) : scoreHTML()) + fairHTML(),
  };
  const moved = motionBefore(game); // where the cards are now: new ones move from there (motion.js)
  for (const [id, html] of Object.entries(parts)) {
    const el = game.querySelector(`#${id}`);
    if (el._html !== html) {
      el.innerHTML = html;
      el._html = html;
    }
  }
  motionAfter(game, moved, v);
}

// ---------------------------------------------------------------- actions

async function sit(seat) {
  const input = app.querySelector("#name");
  if (input) localStorage.setItem("hukum.name", input.value.trim());
  try {
    const { data } = await api("POST", `/api/tables/${S.code}/seats/${seat}`, { name: playerName() });
    localStorage.setItem(tokenKey(S.code), data.token);
    localStorage.setItem(`hukum.seat.${S.code}`, String(data.seat ?? seat));
    S.token = data.token;
    S.message = null;
    S.watch = false;
    stopTable(); // a watcher's connection, or the polling: the seat's connection replaces it
    await refreshTable();
    connect();
  } catch (err) {
    flash("error", errorText(err));
    await refreshTable();
    render();
  }
}

async function tableAction(path) {
  try {
    await api("POST", `/api/tables/${S.code}/${path}`, { token: S.token });
    S.message = null;
  } catch (err) {
    flash("error", errorText(err));
  }
  await refreshTable();
  render();
}

async function copyInvite() {
  const input = app.querySelector("#invite-link");
  try {
    await navigator.clipboard.writeText(inviteURL());
  } catch {
    input?.select();
    document.execCommand?.("copy");
  }
  S.copied = true;
  render();
}

/** A click on a card of my hand: choose it (or unchoose it); a card that may not be played
 * now is not chosen, and the page says why instead. Nothing changes while a move awaits
 * the server's answer. */
function selectCard(code) {
  if (S.sending !== null) return;
  if (isG()) {
    const v = S.view;
    const why = v.turn === v.seat && v.phase !== "over" ? pickG(v, S.picked, code, t) : cardReason(code);
    if (why) say("warn", why);
    else S.message = null;
  } else if (S.selected === code) {
    S.selected = null;
    S.message = null;
  } else {
    const why = cardReason(code);
    if (why) say("warn", why);
    else {
      S.selected = code;
      S.message = null;
    }
  }
  render();
}

/** The move the chosen cards make, if the rules allow it now and no move awaits an
 * answer; else null. */
function readyMove() {
  const v = S.view;
  if (!v || S.sending !== null || v.turn !== v.seat) return null;
  if (isG()) return chosenMove(v, S.picked);
  return S.selected && isLegalCard(S.selected) ? cardMove(S.selected) : null;
}

function playSelected() {
  const move = readyMove();
  if (move) sendMove(move);
}

async function verifyDeal(n) {
  const v = S.view;
  const seed = S.seeds[n];
  if (!seed || !dealOver(n)) return;
  const commitment = S.commitments[n] ?? v.commitment;
  const result = { hash: false, server: null };
  try {
    if (!crypto?.subtle) throw new Error(t("fair.nocrypto"));
    const bytes = new TextEncoder().encode(`hukum-deal:${seed}`);
    const digest = await crypto.subtle.digest("SHA-256", bytes);
    const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
    result.hash = hex === commitment;
  } catch (e) {
    result.error = String(e.message ?? e);
  }
  try {
    const q = new URLSearchParams({
      commitment,
      seed,
      rules: JSON.stringify(S.table.rules ?? {}),
      dealer: String(S.dealers[n] ?? v.dealer),
      game: isG() ? "ganjifa" : "mindi",
    });
    const { data } = await api("GET", `/api/verify?${q}`);
    result.server = data;
  } catch (err) {
    result.error = errorText(err);
  }
  S.verify[n] = result;
  render();
}

/** The arrow keys: choose the next (or previous) card that may be played, as a click would;
 * none (e.g. another player's turn): say why. */
function moveSelection(step) {
  const v = S.view;
  if (!v || S.sending !== null) return;
  const g = isG();
  const hand = g ? sortG(v.hand ?? []) : sortHand(v.hand ?? []);
  const ok = g ? choosable(v) : null;
  const pool = hand.filter((c) => (g ? ok.has(c) : isLegalCard(c)));
  if (!pool.length) {
    const why = hand.length ? cardReason(hand[0]) : null;
    if (why) {
      say("warn", why);
      render();
    }
    return;
  }
  const current = g ? ([...S.picked].at(-1) ?? null) : S.selected;
  const i = pool.indexOf(current);
  const next = i < 0 ? pool[step > 0 ? 0 : pool.length - 1] : pool[(i + step + pool.length) % pool.length];
  if (g) S.picked = new Set([next]);
  else S.selected = next;
  render();
  app.querySelector(".hand .card.selected")?.focus();
}

app.addEventListener("click", (e) => {
  const el = e.target.closest("[data-action]");
  if (!el || el.disabled) return;
  const action = el.dataset.action;
  switch (action) {
    case "play-now":
      playNow();
      break;
    case "play-ganjifa":
      ganjifa(true);
      break;
    case "ganjifa-room":
      ganjifa(false);
      break;
    case "clear":
      if (S.sending !== null) break;
      S.picked.clear();
      render();
      break;
    case "pick-dukal":
      if (S.sending !== null) break;
      S.picked = new Set(el.dataset.cards.split(" "));
      S.message = null;
      render();
      break;
    case "sit":
      sit(Number(el.dataset.seat));
      break;
    case "bots":
      tableAction("bots");
      break;
    case "start":
      tableAction("start");
      break;
    case "copy":
      copyInvite();
      break;
    case "card":
      selectCard(el.dataset.card);
      break;
    case "play":
      playSelected();
      break;
    case "reveal":
      sendMove("reveal");
      break;
    case "hint":
      askHint();
      break;
    case "announce":
      sendMove(`announce ${el.dataset.suit}`);
      break;
    case "next":
      S.nextSent = true;
      send({ type: "next_deal" });
      render();
      break;
    case "take-back":
      send({ type: "take_back" });
      break;
    case "rematch":
      if (send({ type: "rematch" }) !== null) S.rematchSent = true;
      render();
      break;
    case "go-rematch":
      keepRematchToken();
      go(rematchPath());
      break;
    case "watch":
      go(`/t/${S.code}?watch=1`);
      break;
    case "panel":
      S.panel = S.panel === el.dataset.panel ? null : el.dataset.panel;
      render();
      break;
    case "analyse":
      openDealBoard(Number(el.dataset.deal));
      break;
    case "verify":
      verifyDeal(Number(el.dataset.deal));
      break;
    case "lobby":
      e.preventDefault();
      go("/");
      break;
    default:
      return;
  }
});

document.querySelector("header.top").addEventListener("click", (e) => {
  if (e.target.closest("[data-action=lobby]")) {
    e.preventDefault();
    go("/");
  }
});

app.addEventListener("submit", (e) => {
  e.preventDefault();
  if (e.target.id === "create-form") createRoom();
  if (e.target.id === "join-form") joinRoom();
});

app.addEventListener("input", (e) => {
  if (e.target.id === "name") localStorage.setItem("hukum.name", e.target.value.trim());
});

app.addEventListener("change", (e) => {
  if (e.target.id === "preset" && S.rulesMeta) {
    app.querySelector("#custom-options").innerHTML = customOptionsHTML(e.target.value);
  }
  if (e.target.id === "opt-players") playersChosen(e.target);
});

document.getElementById("lang").addEventListener("change", (e) => {
  setLang(e.target.value);
  render();
});

document.addEventListener("keydown", (e) => {
  if (S.page !== "table" || !S.view) return;
  const tag = e.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  if (e.key === "ArrowRight" || e.key === "ArrowDown") {
    e.preventDefault();
    moveSelection(1);
  } else if (e.key === "ArrowLeft" || e.key === "ArrowUp") {
    e.preventDefault();
    moveSelection(-1);
  } else if (e.key === "Enter") {
    if (S.selected || S.picked.size) {
      e.preventDefault();
      playSelected();
    }
  } else if (e.key === "Escape") {
    if (S.sending !== null) return;
    S.selected = null;
    S.picked.clear();
    render();
  }
});

setInterval(() => {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify({ type: "ping" }));
}, 25000);

window.addEventListener("popstate", route);
initBoard(bctx());
setLang(getLang());
route();
