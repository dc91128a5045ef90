// "The field" on the analysis board of a daily challenge's deal (issue 42; docs/protocol.md
// "Daily challenge"), once its day has closed: at each decision of the challenge's player
// (shown at the position after it, with the board's verdict of the move made there),
// every legal card with the share of the field who played it from the same position (a bar
// and the count) and the solver's value of it (all hands known), the card played marked.
// Asked once per board, GET /api/challenge/<day>/deals/<n>/field?room=<code>; the board
// (board.js) draws fieldHTML(ctx) as one of its parts and draws again when the answer comes.
import { B, moveAt, moves } from "../board/state.js";

/** The challenge's player's seat. */
const SEAT = 0;

/** The field of the board shown: its key (code/n), and {loading} | {data} | {error} | null
 * (not a challenge's deal). */
const F = { key: null, state: null };

/** The challenge deal of a table, {day, number}, or null (not a challenge's table). The
 * table's public state names it "2026-12-07/3". */
function challengeOf(table) {
  const c = table?.challenge;
  if (!c) return null;
  if (typeof c === "object") return { day: c.day, number: c.number };
  const [day, number] = String(c).split("/");
  return day && number ? { day, number: Number(number) } : null;
}

async function load(ctx, key, challenge) {
  F.state = { loading: true };
  const room = encodeURIComponent(B.code);
  try {
    const { data } = await ctx.api("GET", `/api/challenge/${encodeURIComponent(challenge.day)}/deals/${challenge.number}/field?room=${room}`);
    if (F.key !== key) return;
    F.state = { data };
  } catch (err) {
    if (F.key !== key) return;
    F.state = { error: err };
  }
  ctx.render();
}

/** Team 0's tens, the winner and the kind of win of each solver value, 0 to 7 (as
 * hukum.bots.solver's Forecast.value). */
const RESULTS = [
  [0, 1, "whitewash"], [0, 1, "mendikot"], [1, 1, "win"], [2, 1, "win"],
  [2, 0, "win"], [3, 0, "win"], [4, 0, "mendikot"], [4, 0, "whitewash"],
];

/** A solver value (0 to 7, for team 0) as a forecast {tens, winner, kind, value}. */
function forecast(value) {
  if (typeof value !== "number" || !RESULTS[value]) return null;
  const [tens, winner, kind] = RESULTS[value];
  return { tens: [tens, 4 - tens], winner, kind, value };
}

/** The decisions of the answer, by move (moves made before each): {move, played, players,
 * cards: [{card, share, players, value}]}. */
function decisions() {
  const list = F.state?.data?.decisions ?? [];
  return new Map(
    list.map((d) => [
      d.move,
      {
        move: d.move,
        played: d.played,
        players: d.field,
        cards: d.legal.map((card) => {
          const share = d.share?.[card] ?? 0;
          return { card, share, players: Math.round(share * d.field), value: forecast(d.solver?.[card]) };
        }),
      },
    ]),
  );
}

/** The solver's value of a card as a forecast from the player's team's side: "wins 3–1". */
function valueText(t, f) {
  if (!f) return "–";
  const team = SEAT % 2;
  const mine = f.tens[team];
  const theirs = f.tens[1 - team];
  const text = t(`analysis.${f.winner === team ? "wins" : "loses"}.${f.kind}`, { a: mine, b: theirs });
  return mine === theirs ? text + t("analysis.tiebreak") : text;
}

/** A forecast's worth to the player's team, to find the best cards: winning first, then tens. */
function worth(f) {
  if (!f) return null;
  return SEAT % 2 === 0 ? f.value : 7 - f.value;
}

function tableHTML(ctx, d) {
  const { t, esc } = ctx;
  const played = d.played ?? moveAt(d.move + 1)?.move;
  const values = d.cards.map((c) => worth(c.value)).filter((v) => v !== null);
  const best = values.length > 1 ? Math.max(...values) : null;
  const rows = d.cards
    .map((c) => {
      const pct = Math.round((c.share ?? 0) * 1000) / 10;
      const isBest = best !== null && worth(c.value) === best;
      const classes = [c.card === played ? "bd-field-played" : "", isBest ? "bd-field-best" : ""].filter(Boolean).join(" ");
      const marks = `${c.card === played ? ` <small class="bd-field-mark">${esc(t("field.yours"))}</small>` : ""}`;
      return `<tr class="${classes}" data-card="${esc(c.card)}"><th scope="row" class="bd-field-card">${B.game.moveHTML(ctx, c.card)}${marks}</th>
        <td class="bd-field-share"><meter min="0" max="100" value="${pct}" aria-hidden="true"></meter> <span class="num">${esc(`${pct}%`)}</span> <small class="hint">(${esc(c.players ?? 0)})</small></td>
        <td class="bd-field-value">${isBest ? '<span aria-hidden="true">★ </span>' : ""}${esc(valueText(t, c.value))}</td></tr>`;
    })
    .join("");
  return `<p class="hint" id="bd-field-count">${esc(t(d.players === 1 ? "field.players.one" : "field.players", { n: d.players ?? 0 }))}</p>
    <table class="bd-field-table" id="bd-field-table"><thead><tr><th scope="col">${esc(t("field.card"))}</th>
    <th scope="col">${esc(t("field.share"))}</th><th scope="col">${esc(t("field.solver"))}</th></tr></thead><tbody>${rows}</tbody></table>
    <p class="hint" id="bd-field-note">${esc(t(d.cards.length > 1 && !d.cards.some((c) => c.value) ? "field.unsolved" : "field.note"))}</p>`;
}

/** The panel of the position shown: its decision's table, or the way to each decision. */
export function fieldHTML(ctx) {
  const { S, t, esc } = ctx;
  const challenge = challengeOf(S.table);
  const key = challenge ? `${B.code}/${B.n}` : null;
  if (key !== F.key) {
    F.key = key;
    F.state = null;
    if (challenge) load(ctx, key, challenge);
  }
  if (!challenge || !F.state) return "";
  let body;
  if (F.state.loading) body = `<p class="loading">${esc(t("field.loading"))}</p>`;
  else if (F.state.error) body = `<p class="hint" id="bd-field-error" data-code="${esc(F.state.error.code ?? "")}">${esc(ctx.errorText(F.state.error))}</p>`;
  else {
    const all = decisions();
    // The decision of the move just made (the board's verdict is of it too).
    const here = all.get(B.move - 1);
    const others = [...all.keys()]
      .map((m) => m + 1)
      .filter((m) => m <= moves().length)
      .map((m) => `<button type="button" class="small bd-field-go${m === B.move ? " current" : ""}" data-bd="go" data-move="${m}" aria-label="${esc(t("board.move", { n: m }))}"${m === B.move ? ' aria-current="step"' : ""}>${m}</button>`)
      .join("");
    const nav = others ? `<nav class="bd-field-nav" aria-label="${esc(t("field.decisions"))}"><span>${esc(t("field.decisions"))}:</span> ${others}</nav>` : "";
    body = here ? `${tableHTML(ctx, here)}${nav}` : `<p class="hint" id="bd-field-elsewhere">${esc(t("field.elsewhere"))}</p>${nav}`;
  }
  return `<section class="bd-field" id="bd-field-panel" aria-labelledby="bd-field-title"><h3 id="bd-field-title">${esc(t("field.title"))}</h3>${body}</section>`;
}
