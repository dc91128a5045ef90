// The browser front end of `hukum serve` (docs/architecture.md, "The front end"): the
// shell round every page, and the pages' addresses. Talks docs/protocol.md.
import { LANGS, getLang, setLang, t } from "./i18n.js";
import account from "./pages/account.js";
import board from "./pages/board.js";
import challenge from "./pages/challenge.js";
import { dayBoard, weekBoard } from "./pages/challenge-leaderboard.js";
import howToPlay, { howToPlayLink } from "./pages/how-to-play.js";
import leaderboard from "./pages/leaderboard.js";
import lobby from "./pages/lobby.js";
import moderation from "./pages/moderation.js";
import newRoom from "./pages/new-room.js";
import party from "./pages/party.js";
import profile from "./pages/profile.js";
import queue from "./pages/queue.js";
import report from "./pages/report.js";
import settings from "./pages/settings.js";
import table from "./pages/table.js";
import { currentPage, render, route, startRouter } from "./router.js";
import { drawAttention, startAttention } from "./widgets/attention.js";
import { me, onMe, pref, savePrefs, startMe } from "./widgets/me.js";
import { drawOffline, startOffline } from "./widgets/offline.js";
import { drawSanction, startSanctions } from "./widgets/sanction.js";

// A page: its module (pages/) and one line here.
route("/", lobby);
route("/rooms/new", newRoom);
route("/t/:code", table);
route("/t/:code/deals/:number", board);
route("/t/:code/report", report);
route("/how-to-play", howToPlay);
route("/settings", settings);
route("/account", account);
route("/moderation", moderation);
route("/play/:pool", queue);
route("/party/:party", party);
route("/leaderboard/:pool", leaderboard);
route("/u/:username", profile);
route("/profile", profile);
route("/challenge", challenge);
route("/challenge/week/:week", weekBoard);
route("/challenge/:day", challenge);
route("/challenge/:day/leaderboard", dayBoard);
route("*", lobby);

const app = document.getElementById("app");

/** The header's player: their display name (as text, whatever it holds), a link to their
 * account, and the settings' link. */
function drawPlayer() {
  const player = me();
  const link = document.getElementById("nav-me");
  link.hidden = !player;
  document.getElementById("me-name").textContent = player?.name ?? "";
  link.title = t("me.account");
  const gear = document.getElementById("nav-settings");
  gear.setAttribute("aria-label", t("settings.title"));
  gear.title = t("settings.title");
  gear.toggleAttribute("aria-current", location.pathname === "/settings");
}

/** The header round every page: the title, the language, the player, the switches of
 * "your turn" (widgets/attention.js) and the offline banner (widgets/offline.js). */
function renderShell() {
  document.documentElement.lang = getLang();
  drawAttention(t("app.title"));
  drawOffline();
  drawSanction();
  document.getElementById("brand-title").textContent = t("app.title");
  document.getElementById("lang-label").textContent = t("lang.label");
  howToPlayLink(document.getElementById("nav-howto"));
  const sel = document.getElementById("lang");
  sel.setAttribute("aria-label", t("lang.label"));
  sel.innerHTML = Object.entries(LANGS)
    .map(([code, name]) => `<option value="${code}" ${code === getLang() ? "selected" : ""}>${name}</option>`)
    .join("");
  drawPlayer();
}

// The events of the page shown go to its module.
for (const type of ["click", "submit", "input", "change"]) app.addEventListener(type, (e) => currentPage()?.[type]?.(e));
document.addEventListener("keydown", (e) => currentPage()?.keydown?.(e));

// The language chosen in the header is the player's preference (kept on the server).
document.getElementById("lang").addEventListener("change", (e) => {
  setLang(e.target.value);
  render();
  savePrefs({ lang: getLang() }).catch(() => {});
});

// The player's preferences, as last known here and then as the server says (another
// device may have changed them): the language draws the page again, the rest is <html>'s
// attributes (widgets/me.js).
onMe(() => {
  if (pref("lang") && pref("lang") !== getLang()) {
    setLang(pref("lang"));
    render();
  } else {
    drawPlayer();
    drawAttention(t("app.title"));
    currentPage()?.meChanged?.();
  }
});

setLang(pref("lang") ?? getLang());
startAttention();
startOffline();
startSanctions();
startRouter(renderShell);
startMe();
