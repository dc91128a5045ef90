// What the page knows. What belongs to one table is made by `tableState`, afresh whenever a
// page is opened (enterTable): nothing of one table (its seeds, checks, messages, panel,
// hint) survives the move to another, e.g. a rematch's.

/** Everything the page knows of table `code`, as it is before the page has heard of it. */
function tableState(code) {
  return {
    code,
    token: null,
    table: null,
    tableJSON: "",
    view: null,
    last: 0,
    selected: null, // Mindi: the card chosen for the next move
    picked: new Set(), // Ganjifa: the cards chosen for the next move (a card, a Dukal, an answer)
    message: null, // widgets/message.js: {kind, text (a string or a function giving it), code, rules}
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

/** The page's state; `page` names the page shown ("lobby", "table", "board", …). */
export const S = {
  page: null,
  ref: 0,
  ws: null,
  wsState: "idle",
  poll: null,
  ...tableState(null),
};

/** Open page `page` on table `code` (null: no table) with nothing of any table before. */
export function enterTable(page, code) {
  Object.assign(S, tableState(code));
  S.page = page;
}
