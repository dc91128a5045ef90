// A table's page and the server: the table's JSON (GET, and polling without a seat), the
// WebSocket of a seat or a watcher (docs/protocol.md), what is sent (moves, hints) and what
// each message from the server changes.
import { t } from "../i18n.js";
import { go, render } from "../router.js";
import { S } from "../state.js";
import { api, errorText } from "../widgets/api.js";
import { yourTurn } from "../widgets/attention.js";
import { message } from "../widgets/message.js";
import { cardReason, ctx, drawing, mySeat, seated, suspendedText, waitText, watching } from "./context.js";

const CODE_RE = /^[23456789abcdefghjkmnpqrstuvwxyz]{4,16}$/;

export function tokenKey(code) {
  return `hukum.token.${code}`;
}

/** Whether `code` may be a table's code. */
export function isCode(code) {
  return CODE_RE.test(code);
}

/** Close the table's connection and stop polling. */
export function stopTable() {
  if (S.ws) {
    const ws = S.ws;
    S.ws = null;
    ws.close();
  }
  if (S.poll) clearInterval(S.poll);
  S.poll = null;
  yourTurn(false);
}

/** Whether the table waits for this seat's move (the tab's title says so when it does). */
function waitsForMe() {
  const v = S.view;
  return Boolean(v && !watching() && S.table?.status === "playing" && v.phase !== "over" && v.turn === v.seat && !S.absent.has(v.seat));
}

/** The rematch of this table has been made: a seated person's token holds the same seat
 * there (the server copied it), so the page keeps it under the new code too. */
export function keepRematchToken() {
  const next = S.table?.rematch;
  if (!next || !S.token || !isCode(next)) return;
  if (localStorage.getItem(tokenKey(next)) !== S.token) {
    localStorage.setItem(tokenKey(next), S.token);
    const seat = mySeat();
    if (seat !== null) localStorage.setItem(`hukum.seat.${next}`, String(seat));
  }
}

/** The page of the rematch's table: to play it (a seated person), or to watch it. */
export function rematchPath() {
  const next = S.table?.rematch;
  return seated() ? `/t/${next}` : `/t/${next}?watch=1`;
}

/** A message's public table, keeping `you` (the seat this player holds by their session,
 * which only GET /api/tables/<code> tells, never a message). */
function withYou(table) {
  if (!table || "you" in table) return table;
  return { ...table, you: S.table?.you ?? null };
}

function syncAbsent() {
  for (const s of S.table?.seats ?? []) {
    if (s.absent === true) S.absent.add(s.seat);
    else if (s.absent === false) S.absent.delete(s.seat);
  }
}

export async function refreshTable() {
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
    else S.message = message("error", errorText(err), { code: err.code });
  }
  render();
}

export function startPolling() {
  if (S.poll) clearInterval(S.poll);
  const poll = setInterval(async () => {
    if (S.page !== "table" || S.ws) return;
    if (!seated()) await refreshTable();
    // The player holds a seat here now (taken on another device): play it here too; not
    // after a refusal to sit (`barred`: a suspended player).
    if (S.poll === poll && S.page === "table" && !S.ws && seated() && S.barred !== S.code) {
      clearInterval(poll);
      S.poll = null;
      connect();
    }
  }, 1500);
  S.poll = poll;
}

export function connect() {
  if ((!seated() && !watching()) || S.page !== "table") return;
  const code = S.code;
  // The token goes in the first message, never in the URL (logs and proxies keep URLs).
  // A seat held by the player's session alone sends none: the session cookie says whose it
  // is. A watcher sends none: it holds no seat.
  const hello = S.token ? { type: "hello", token: S.token } : seated() ? { type: "hello" } : { type: "hello", watch: true };
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
      // The token (or the session) holds no seat at this table (any more): forget it.
      if (S.token) localStorage.removeItem(tokenKey(code));
      S.token = null;
      if (S.table) S.table.you = null;
      startPolling();
      refreshTable();
      return;
    }
    if (e.code === 4403 && watching()) {
      // The room does not allow watchers: follow it as before, by polling.
      S.watch = false;
      S.message = message("error", () => t("err.no_spectators"));
      startPolling();
      refreshTable();
      return;
    }
    if (e.code === 4403) {
      // Refused a seat (a moderator suspended the player; its error message says why):
      // follow the table by polling, and do not ask again.
      S.barred = code;
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
export function send(msg) {
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) {
    S.message = message("error", () => t("game.disconnected"));
    render();
    return null;
  }
  msg.ref = ++S.ref;
  S.pending[msg.ref] = msg;
  S.ws.send(JSON.stringify(msg));
  return msg.ref;
}

/** Send a move, once: until the server answers it (its ack or error) or the table moves on
 * (this seat's move event, a resync, a lost connection), no other move is sent and the
 * buttons that send one are disabled. One click, one move. */
export function sendMove(move) {
  if (S.sending !== null) return;
  S.sending = send({ type: "move", move, event: S.last }); // the turn it answers
  render();
}

/** Whether this seat may ask for a suggested move (docs/protocol.md, "hints"), as the server
 * decides it: the room allows hints, or every other seat is a computer player. */
export function hintsAllowed() {
  if (!seated() || watching() || !S.table || S.table.status !== "playing") return false;
  const me = mySeat();
  return S.table.hints === true || (S.table.seats ?? []).every((s) => s.seat === me || s.kind === "bot");
}

/** Ask the server for a suggested move for this turn (one at a time). */
export function askHint() {
  if (S.hintAsked !== null || S.sending !== null) return;
  S.hint = null;
  S.hintAsked = send({ type: "hint" });
  render();
}

/** The server's suggestion: if it is for the turn on the table now, choose its cards (the
 * player still presses Play) and keep it for its one-line reason; an older one is dropped. */
function takeHint(msg) {
  if (msg.event !== S.last || !S.view || S.view.turn !== S.view.seat) return;
  S.hint = { event: msg.event, move: msg.move, why: msg.why, reason: msg.reason };
  S.message = null;
  drawing().takeHint(ctx, msg.move);
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

/** A refusal from the server as the page's message: the page's own sentence, naming people
 * (never a 0-based seat) in the page's language; the code and the rule ids stay in the
 * message's data (data-code, data-rule-ids). */
function refusalMessage(err, sent) {
  const code = err.code ?? "";
  const rules = Array.isArray(err.rule_ids) ? err.rule_ids : [];
  let text;
  if (code === "not_your_turn" && "turn" in err) {
    text = err.turn === null ? () => t("why.between") : waitText(err.turn, S.view?.phase);
  } else if (code === "suspended") {
    text = suspendedText(err);
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
      if (S.message?.code === "network") S.message = null; // the server is reached again
      S.last = msg.event ?? S.last;
      S.table = withYou(msg.table ?? S.table);
      S.view = msg.view ?? null;
      syncAbsent();
      keepRematchToken();
      noteDeal(S.view, raw);
      break;
    case "event":
      if (msg.event <= S.last) return;
      if (msg.kind === "said" && S.hint?.event === S.last) S.hint.event = msg.event; // talk leaves the turn as it was
      S.last = msg.event;
      if (msg.table) S.table = withYou(msg.table);
      if ("view" in msg) S.view = msg.view;
      syncAbsent();
      if (msg.kind === "said") document.dispatchEvent(new CustomEvent("hukum:said", { detail: msg })); // table/talk.js
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
      if (msg.kind === "rematched" && seated() && S.table?.rematch) {
        // Everybody asked: the same seats play again at the new table, at once.
        go(rematchPath());
        return;
      }
      break;
    case "presence":
      // Who is connected now, told between events (docs/protocol.md, "presence").
      if (msg.event < S.last || !S.table?.seats) return;
      for (const s of S.table.seats) {
        if (typeof msg.connected?.[s.seat] === "boolean") s.connected = msg.connected[s.seat];
      }
      break;
    case "ack": {
      const sent = S.pending[msg.ref];
      delete S.pending[msg.ref];
      if (msg.ref === S.sending) S.sending = null;
      // Unchoose what was just played (so that a second click cannot send it again). The
      // ack can also come after the events that gave the turn back (bots play at once):
      // a card chosen since then, for that turn, stays chosen.
      if (sent?.type === "move" && S.view) drawing().played(ctx, sent.move);
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
  yourTurn(waitsForMe(), S.view ? `${S.view.deal_number}:${S.view.hand?.length}` : null);
  render();
}

// Keep the connection alive through proxies that close idle ones.
setInterval(() => {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify({ type: "ping" }));
}, 25000);
