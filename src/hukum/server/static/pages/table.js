// The table's page, /t/<code> (?watch=1: watching without a seat): the room before the
// match, then the game; what a click or a key does there.
import { boardPath } from "../board.js";
import { t } from "../i18n.js";
import { go, render } from "../router.js";
import { S, enterTable } from "../state.js";
import { api, errorText } from "../widgets/api.js";
import { esc } from "../widgets/html.js";
import { message } from "../widgets/message.js";
import { tableName, typedName } from "../widgets/me.js";
import { loadRulesMeta } from "../widgets/rules.js";
import {
  askHint, connect, keepRematchToken, rematchPath, refreshTable, send, sendMove, startPolling, stopTable, tokenKey,
} from "../table/connection.js";
import { away, cardReason, ctx, drawing, readyMove, seated, suspendedText } from "../table/context.js";
import { renderGame, verifyDeal } from "../table/game.js";
import { openTalk, talkClick, talkSubmit } from "../table/talk.js";
import { inviteURL, renderRoom } from "../table/room.js";

const app = document.getElementById("app");

function playerName() {
  return tableName() || t("lobby.name.placeholder");
}

async function open({ code }) {
  enterTable("table", code);
  S.token = localStorage.getItem(tokenKey(code));
  // Someone without a seat may watch a room that allows it: /t/<code>?watch=1.
  S.watch = !S.token && new URLSearchParams(location.search).get("watch") === "1";
  render();
  loadRulesMeta().then(() => S.page === "table" && S.panel === "rules" && render());
  openTalk(code);
  await refreshTable();
  if (S.code !== code) return;
  // A seat this player holds by their session (e.g. taken on another device) is played here.
  if (seated()) S.watch = false;
  if (S.watch && S.table && !S.table.spectators) {
    S.watch = false;
    S.message = message("error", () => t("err.no_spectators"));
    render();
  }
  if (seated() || S.watch) connect();
  else startPolling();
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
  if (S.table.status === "waiting" || !S.view) renderRoom(app);
  else renderGame(app);
}

// ---------------------------------------------------------------- actions

/** A refusal of the lobby's API in the page's words: a suspension with its reason and end. */
function refusalText(err) {
  return err?.code === "suspended" ? suspendedText(err) : errorText(err);
}

async function sit(seat) {
  const input = app.querySelector("#name");
  if (input) typedName(input.value);
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
    S.message = message("error", refusalText(err));
    await refreshTable();
    render();
  }
}

async function tableAction(path) {
  try {
    // Without a token, the session of the player whose seat it is asks.
    await api("POST", `/api/tables/${S.code}/${path}`, S.token ? { token: S.token } : {});
    S.message = null;
  } catch (err) {
    S.message = message("error", refusalText(err));
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
 * now (or any, while a computer plays my seat) is not chosen, and the page says why
 * instead. Nothing changes while a move awaits the server's answer. */
function selectCard(code) {
  if (S.sending !== null) return;
  const why = away() ? cardReason(code) : drawing().pick(ctx, code);
  S.message = why ? message("warn", why) : null;
  render();
}

function playSelected() {
  const move = readyMove();
  if (move) sendMove(move);
}

/** The arrow keys: choose the next (or previous) card that may be played, as a click would;
 * none (e.g. another player's turn): say why. */
function moveSelection(step) {
  const v = S.view;
  if (!v || S.sending !== null) return;
  const d = drawing();
  const hand = d.sort(v.hand ?? []);
  const pool = away() ? [] : hand.filter((c) => d.choosable(ctx, c));
  if (!pool.length) {
    const why = hand.length ? cardReason(hand[0]) : null;
    if (why) {
      S.message = message("warn", why);
      render();
    }
    return;
  }
  const i = pool.indexOf(d.chosen(ctx));
  const next = i < 0 ? pool[step > 0 ? 0 : pool.length - 1] : pool[(i + step + pool.length) % pool.length];
  d.choose(ctx, next);
  render();
  app.querySelector(".hand .card.selected")?.focus();
}

function click(e) {
  if (talkClick(e)) return;
  const el = e.target.closest("[data-action]");
  if (!el || el.disabled) return;
  switch (el.dataset.action) {
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
      go(boardPath(S.code, Number(el.dataset.deal))); // the deal's analysis board, in this tab
      break;
    case "verify":
      verifyDeal(Number(el.dataset.deal));
      break;
    case "lobby":
      e.preventDefault();
      go("/");
      break;
    case "play-again":
      go(`/play/${encodeURIComponent(el.dataset.pool)}`);
      break;
    default:
  }
}

function keydown(e) {
  if (!S.view) return;
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
}

function input(e) {
  if (e.target.id === "name") typedName(e.target.value);
}

export default { open, leave: stopTable, render: renderTable, click, keydown, input, submit: talkSubmit };
