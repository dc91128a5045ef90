// The analysis board's page, /t/<code>/deals/<n>: board.js, given what it asks of the
// table's page (its `ctx`: the state, words, names and teams of the table's seats).
import { initBoard, openBoard, renderBoard } from "../board.js";
import { t } from "../i18n.js";
import { go, render } from "../router.js";
import { S, enterTable } from "../state.js";
import { ctx as table, drawing, mySeat, myTeam, seatName, teamName } from "../table/context.js";
import { api, errorText } from "../widgets/api.js";
import { esc } from "../widgets/html.js";

const app = document.getElementById("app");

/** What the analysis board needs from here. */
const ctx = {
  S, t, esc, api, errorText, seatName, teamName, mySeat, myTeam, go, render, app,
  outcomeText: (o) => drawing().outcomeText(table, o),
};

initBoard(ctx);

export default {
  open({ code, number }) {
    enterTable("board", code);
    openBoard(ctx, code, number);
  },
  render: () => renderBoard(ctx),
};
