// What the board says about the deal: the move just made and (where the server analyses the
// deal) the result perfect play gave the mover's team before and after it, mistakes marked
// with the better moves; what the analysis covers; every move, trick by trick; the result.
import { B, judged, moveAt, moves } from "./state.js";

/** A forecast of the analysis ({tens, winner, kind}) from one team's side, e.g. "wins 3–1". */
function standingText(t, f, team) {
  const mine = f.tens[team];
  const theirs = f.tens[1 - team];
  const text = t(`analysis.${f.winner === team ? "wins" : "loses"}.${f.kind}`, { a: mine, b: theirs });
  return mine === theirs ? text + t("analysis.tiebreak") : text;
}

/** What a move cost its team, from the forecasts before and after it (as hukum.analysis.verdict). */
function verdictText(t, before, after, team) {
  const parts = [];
  const lost = before.tens[team] - after.tens[team];
  if (before.winner === team && after.winner !== team) parts.push(t("analysis.lost.win"));
  else if (before.kind !== after.kind && before.winner === after.winner) {
    const side = before.winner === team ? "win" : "loss";
    parts.push(t("analysis.turned", { a: t(`analysis.${side}.${before.kind}`), b: t(`analysis.${side}.${after.kind}`) }));
  }
  if (lost === 1) parts.push(t("analysis.lost.mindi"));
  else if (lost > 1) parts.push(t("analysis.lost.mindis", { n: lost }));
  if (!parts.length) parts.push(t("analysis.lost.tiebreak"));
  return parts.join(", ");
}

/** The first trick the analysis covers (tricks before it were beyond the solver's budget),
 * or null when no analysis is at hand. */
function firstAnalysedTrick() {
  const data = B.analysis?.data;
  if (!data) return null;
  return data.moves.length ? data.moves[0].trick : null;
}

/** The move just made: who made it, and (with an analysis) the result perfect play gave the
 * mover's team before and after it, a mistake marked with what was better. */
export function verdictHTML(ctx) {
  const { t, esc, seatName, teamName } = ctx;
  const game = B.game;
  const last = moveAt(B.move);
  if (!last) {
    // The deal as dealt: with the analysis, what perfect play gives from its first move on.
    const first = B.analysis?.data?.moves[0];
    if (!first) return "";
    const team = ctx.myTeam() ?? first.seat % 2;
    return `<p class="bd-start" id="bd-start">${esc(t("analysis.start", { n: first.trick, team: teamName(team), standing: standingText(t, first.before, team) }))}</p>`;
  }
  const who = `<span class="bd-who"><b>${esc(seatName(last.seat))}</b>: ${game.moveHTML(ctx, last.move)}</span>`;
  if (!B.analysis || B.analysis.error) return `<div class="bd-verdict">${who}</div>`;
  let badge;
  if (B.analysis.loading) badge = `<span class="bd-badge pending">${esc(t("board.analysing"))}</span>`;
  else {
    const m = judged();
    if (!m) badge = `<span class="bd-badge none" id="bd-badge">${esc(t("board.unanalysed"))}</span>`;
    else {
      const team = m.seat % 2;
      const change = `<span class="bd-team-name">${esc(teamName(team))}:</span> <span class="bd-before">${esc(standingText(t, m.before, team))}</span> → <span class="bd-after">${esc(standingText(t, m.after, team))}</span>`;
      if (!m.mistake) badge = `<span class="bd-badge good" id="bd-badge" data-mistake="false">✓ ${esc(t("board.best"))} · ${change}</span>`;
      else {
        const better = m.best.map((b) => game.moveHTML(ctx, b)).join(" ");
        badge = `<span class="bd-badge bad" id="bd-badge" data-mistake="true"><span class="bd-q">?</span> ${esc(t("board.mistake"))}: ${esc(verdictText(t, m.before, m.after, team))} · ${change}</span>
          <span class="bd-better" id="bd-better">${esc(t("analysis.better"))} ${better}</span>`;
      }
    }
  }
  return `<div class="bd-verdict">${who} ${badge}</div>`;
}

/** What the analysis covers, said plainly: still solving, tricks not analysed, or none for
 * this deal (the server's no_analysis, worded by the game's drawing). */
export function noteHTML(ctx) {
  const { S, t, esc, errorText } = ctx;
  const a = B.analysis;
  let text = "";
  let kind = "hint";
  if (!a) text = "";
  else if (a.loading) {
    const p = a.progress;
    if (a.busy) text = t("board.busy", { s: a.busy });
    else if (p?.status === "waiting") text = t(p.ahead === 1 ? "board.analysing.behind.one" : "board.analysing.behind", { n: p.ahead });
    else if (p?.status === "starting") text = t("board.analysing.starting");
    else if (p) text = t("board.analysing.progress", { k: p.tricks, n: p.of });
    else text = t("board.analysing.long");
  } else if (a.error) {
    const why = a.error.code === "no_analysis" ? B.game.noAnalysis(S.table.rules ?? {}) : null;
    if (why) text = t(why);
    else {
      kind = "warn";
      text = `${t("board.noanalysis")} ${errorText(a.error)}`;
    }
  } else {
    const first = firstAnalysedTrick();
    const notes = [];
    const missing = a.data.not_analysed;
    if (first === null) notes.push(t("board.notanalysed.all"));
    else if (missing.length === 1) notes.push(t("board.notanalysed.one"));
    else if (missing.length > 1) notes.push(t("board.notanalysed", { k: missing[missing.length - 1] }));
    const wrong = a.data.moves.filter((m) => m.mistake).length;
    if (first !== null) {
      const k = a.data.tricks;
      notes.push(t(wrong === 0 ? "analysis.none" : wrong === 1 ? "analysis.mistake" : "analysis.mistakes", { n: wrong, k }));
    }
    text = notes.join(" ");
  }
  if (!text) return "";
  return `<p class="bd-note ${kind}" id="bd-note-text" role="status">${esc(text)}</p>`;
}

/** Every move, trick by trick: a click goes to the position after it; mistakes marked. */
export function listHTML(ctx) {
  const { t, esc, seatName } = ctx;
  const game = B.game;
  const rows = [];
  for (const m of moves()) {
    if (!rows.length || rows.at(-1).trick !== m.trick) rows.push({ trick: m.trick, moves: [] });
    rows.at(-1).moves.push(m);
  }
  const items = rows
    .map((row) => {
      const end = row.moves.at(-1).number;
      const winner = B.data.positions[end].last_trick?.winner;
      const done = B.data.positions[end].tricks_played === row.trick;
      const leader = row.moves.find((m) => !/^(hide|announce)/.test(m.move))?.seat ?? row.moves[0].seat;
      const buttons = row.moves
        .map((m) => {
          const a = B.byNumber.get(m.number);
          const classes = ["bd-move"];
          if (m.number === B.move) classes.push("current");
          if (a?.mistake) classes.push("mistake");
          if (done && m.seat === winner && !/^(hide|announce|reveal)/.test(m.move)) classes.push("won");
          const label = `${t("board.move", { n: m.number })}: ${seatName(m.seat)}, ${game.moveWords(ctx, m.move)}${a?.mistake ? ` (${t("board.mistake")})` : ""}`;
          return `<button type="button" class="${classes.join(" ")}" id="bd-m-${m.number}" data-bd="go" data-move="${m.number}" data-seat="${m.seat}" aria-label="${esc(label)}" title="${esc(label)}"${m.number === B.move ? ' aria-current="step"' : ""}>${game.moveHTML(ctx, m.move)}${a?.mistake ? '<span class="bd-mark" aria-hidden="true">?</span>' : ""}</button>`;
        })
        .join("");
      return `<li class="bd-row" data-trick="${row.trick}"><span class="bd-tno">${row.trick}</span><span class="bd-lead">${esc(seatName(leader))}</span><span class="bd-row-moves">${buttons}</span></li>`;
    })
    .join("");
  return `<h3>${esc(t("board.moves"))}</h3><ol class="bd-moves" id="bd-moves">${items}</ol>`;
}

/** The deal's result, in its game's words. */
export function resultHTML(ctx) {
  const { t, esc } = ctx;
  const o = B.data.outcome;
  if (!o) return "";
  const r = B.game.resultText(ctx, o);
  return `<p class="bd-result" id="bd-result-text"><b>${esc(t("board.result"))}:</b> ${esc(r.head)} · ${esc(r.why)}</p>`;
}
