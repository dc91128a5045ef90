// Cards move: a played card travels from the hand (or its player's seat) to the trick, and
// a finished trick gathers to its winner. The page draws each state at once (table/game.js's
// renderGame); this module only animates the change afterwards, FLIP-fashion: `before`
// notes where things are, the page draws the new state, `after` plays each card that is
// new since the drawing before from its old place to its new one. Nothing waits for an
// animation: the state shown and the hand's buttons are the new ones from the first frame,
// and the moving cards take no clicks. A card that was already on the board (after a
// reload, a resync or another language) does not move again. With reduced motion nothing
// moves: the player's `motion` preference (widgets/me.js, on <html> as data-motion) says
// "reduce" or "full", or "system", which follows prefers-reduced-motion.


/** How long (ms) a card takes from the hand or a seat to the trick. */
export const FLY = 260;
/** How long (ms) a finished trick lies whole before it gathers. */
export const HOLD = 320;
/** How long (ms) a finished trick takes to gather to its winner. */
export const GATHER = 320;
const EASE_OUT = "cubic-bezier(0.2, 0.7, 0.3, 1)";
const EASE_IN = "cubic-bezier(0.5, 0, 0.8, 0.4)";

/** The most card backs drawn for one hand; Ganjifa draws one for every four cards. */
const MOST_BACKS = 13;

/** Each card flying to the trick (element -> {keyframes, born, animation}): its path and
 * when it set off, by the clock (an animation may start a frame or two after it is made), so
 * that a card drawn again on its way goes on from where it was and lands when it would have. */
const flights = new WeakMap();

/** The copies of finished tricks on their way to the winner: one layer under the trick,
 * moved into each new drawing of the board, so that a redraw does not cut them short. */
let layer = null;

function reduced() {
  const chosen = document.documentElement.dataset.motion;
  if (chosen === "reduce" || chosen === "full") return chosen === "reduce";
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

/** Another player's hand, face down: a small fan of backs, as many as the cards held, or
 * one for every `backs.per` (Ganjifa's 40: one for every four, the count beside it says how
 * many); `backs` is the game's (games/: {svg(), per, round}). `below`: under the seat's
 * label (a seat at the board's top edge), else above it. */
export function backsHTML(count, backs, below) {
  if (typeof count !== "number" || count <= 0) return "";
  const shown = Math.min(MOST_BACKS, Math.ceil(count / backs.per));
  const step = shown > 1 ? Math.min(6, 56 / (shown - 1)) : 0;
  const back = backs.svg();
  const cards = [];
  for (let i = 0; i < shown; i++) {
    const angle = (i - (shown - 1) / 2) * step * (below ? -1 : 1); // a fan below opens downwards
    cards.push(`<span class="back" style="transform:rotate(${angle.toFixed(1)}deg)">${back}</span>`);
  }
  const classes = ["backs", below ? "below" : "above", ...(backs.round ? ["round"] : [])];
  return `<div class="${classes.join(" ")}" data-count="${count}" aria-hidden="true">${cards.join("")}</div>`;
}

/** The cards of a card on the board: Mindi's one, or the cards of a Ganjifa move
 * ("dukal Ma2 Ma3 Ma4", "give Ka1 Ku9"). */
function cardsOf(el) {
  if (el.dataset.card) return [el.dataset.card];
  return (el.dataset.move ?? "").split(" ").filter((w) => w && !/^[a-z]+$/.test(w));
}

function keyOf(el) {
  return `${el.dataset.seat}|${el.dataset.card ?? el.dataset.move}`;
}

function centre(r) {
  return { x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2 };
}

function union(rects) {
  return {
    left: Math.min(...rects.map((r) => r.left)),
    top: Math.min(...rects.map((r) => r.top)),
    right: Math.max(...rects.map((r) => r.right)),
    bottom: Math.max(...rects.map((r) => r.bottom)),
  };
}

/** Where things are before the page draws the new state: the cards on the board, my
 * hand's cards and each seat's label and fan of backs. Null when nothing will move (no
 * board yet, reduced motion). */
export function before(game) {
  const board = game?.querySelector("#board");
  const trick = board?.querySelector("#trick");
  if (!trick || reduced()) return null;
  const plays = new Map();
  for (const el of trick.querySelectorAll(".played")) {
    plays.set(keyOf(el), { el, flight: flights.get(el) });
  }
  const hand = new Map();
  for (const el of game.querySelectorAll("#hand .card[data-card]")) {
    const face = el.querySelector("svg") ?? el;
    hand.set(el.dataset.card, face.getBoundingClientRect());
  }
  const seats = new Map();
  for (const el of board.querySelectorAll(".seat[data-seat]")) {
    const backs = [...el.querySelectorAll(".backs .back svg")].map((b) => b.getBoundingClientRect());
    seats.set(Number(el.dataset.seat), {
      label: el.getBoundingClientRect(),
      backs: backs.length ? union(backs) : null,
      back: backs.length ? backs.at(-1).width : 0,
    });
  }
  return { plays, hand, seats };
}

/** The transform of a card moved by (dx, dy) and scaled by s from where the page put it
 * (`base`: its own transform, e.g. centred on its point). */
function shifted(base, dx, dy, s) {
  return `translate(${dx.toFixed(1)}px, ${dy.toFixed(1)}px) ${base} scale(${s.toFixed(3)})`;
}

function baseOf(el) {
  const t = getComputedStyle(el).transform;
  return t && t !== "none" ? t : "";
}

/** Where a card new on the board comes from: the cards of my hand that I played, else the
 * player's fan of backs (or label); as a box and the width of one card there. */
function origin(el, seat, me, was) {
  if (seat === me) {
    const rects = cardsOf(el)
      .map((c) => was.hand.get(c))
      .filter((r) => r && r.width > 0);
    if (rects.length) return { box: union(rects), width: rects[0].width };
  }
  const s = was.seats.get(seat);
  if (!s) return null;
  if (s.backs) return { box: s.backs, width: s.back };
  return { box: s.label, width: s.label.width * 0.3 };
}

/** The new state is drawn: move each card new on the board from where it was, go on with
 * the flights a redraw cut short, and gather a trick that has just ended to its winner. */
export function after(game, was, view) {
  const board = game?.querySelector("#board");
  const trick = board?.querySelector("#trick");
  if (!trick) {
    layer?.replaceChildren();
    return;
  }
  if (!layer) {
    layer = document.createElement("div");
    layer.className = "motion-layer";
    layer.setAttribute("aria-hidden", "true");
  }
  if (layer.parentNode !== board || layer.nextSibling !== trick) board.insertBefore(layer, trick);
  if (!was || reduced() || typeof trick.animate !== "function") return;
  const me = view?.seat;
  // Measure everything first, then animate: a started animation moves what it animates.
  const plans = [...trick.querySelectorAll(".played")].map((el) => {
    const plan = { el, box: el.getBoundingClientRect(), base: baseOf(el), keyframes: null, elapsed: 0 };
    const before = was.plays.get(keyOf(el));
    if (before) {
      const f = before.flight;
      if (f && before.el !== el && performance.now() - f.born < FLY) plan.resume = f;
      return plan;
    }
    plan.fresh = true;
    const from = origin(el, Number(el.dataset.seat), me, was);
    if (!from) return plan;
    const face = el.querySelector("svg")?.getBoundingClientRect() ?? plan.box;
    const a = centre(from.box);
    const b = centre(plan.box);
    const s = face.width > 0 ? from.width / face.width : 1;
    plan.keyframes = [
      { transform: shifted(plan.base, a.x - b.x, a.y - b.y, s) },
      { transform: shifted(plan.base, 0, 0, 1) },
    ];
    return plan;
  });
  const now = performance.now();
  for (const plan of plans) {
    let born = now;
    if (plan.resume) {
      ({ keyframes: plan.keyframes, born } = plan.resume);
      plan.elapsed = Math.min(FLY, now - born);
      plan.resume.animation.cancel(); // on the card drawn before, no longer in the page
    }
    if (!plan.keyframes) continue;
    const animation = plan.el.animate(plan.keyframes, { duration: FLY, easing: EASE_OUT });
    animation.currentTime = plan.elapsed;
    flights.set(plan.el, { keyframes: plan.keyframes, born, animation });
  }
  // A trick that ends now: its last card is new, and the board shows it as the last trick.
  if (trick.classList.contains("old") && plans.some((p) => p.fresh)) gather(board, plans, view);
}

/** Copies of the finished trick's cards lie on it, whole (under the trick, which shows
 * faded), until its last card has landed and a moment more; then they go to the winner's
 * seat (under dehla capture, to the pile when the trick stays there), shrinking and fading. */
function gather(board, plans, view) {
  const winner = view?.last_trick?.winner;
  const pile = board.querySelector(".pile");
  const target = pile ?? board.querySelector(`.seat[data-seat="${winner}"]`);
  if (!target) return;
  const goal = centre(target.getBoundingClientRect());
  let landing = 0;
  for (const p of plans) if (p.keyframes) landing = Math.max(landing, FLY - p.elapsed);
  const start = landing + HOLD; // from now
  for (const { el, box, base, keyframes: flight, elapsed } of plans) {
    const ghost = el.cloneNode(true);
    ghost.classList.add("ghost");
    ghost.removeAttribute("data-card");
    ghost.removeAttribute("data-move");
    ghost.dataset.to = pile ? "pile" : String(winner);
    layer.appendChild(ghost);
    const at = centre(box);
    const home = shifted(base, 0, 0, 1);
    const away = shifted(base, goal.x - at.x, goal.y - at.y, 0.35);
    const total = elapsed + start + GATHER;
    const frames = [];
    if (flight) {
      frames.push({ offset: 0, transform: flight[0].transform, opacity: 1, easing: EASE_OUT });
      frames.push({ offset: FLY / total, transform: home, opacity: 1 });
    } else frames.push({ offset: 0, transform: home, opacity: 1 });
    frames.push({ offset: (elapsed + start) / total, transform: home, opacity: 1, easing: EASE_IN });
    frames.push({ offset: 1, transform: away, opacity: 0 });
    const animation = ghost.animate(frames, { duration: total, fill: "forwards" });
    animation.currentTime = elapsed;
    const done = () => ghost.remove();
    animation.onfinish = done;
    animation.oncancel = done;
  }
}
