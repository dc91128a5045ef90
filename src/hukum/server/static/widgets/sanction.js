// What moderation says to the player (docs/protocol.md, "Fair play"): a banner under the
// header with a moderator's warning, or a suspension (why, and until when) or a closed
// account, from GET /api/me/sanctions; and for a moderator, the header's link to the
// moderation page. A warning may be put away; a suspension stays while it lasts.
import { getLang, t } from "../i18n.js";
import { api } from "./api.js";
import { esc } from "./html.js";

let mine = { sanctions: [], moderator: false };

/** A stored time in the page's language. */
export function when(iso) {
  try {
    return new Date(iso).toLocaleString(getLang(), { dateStyle: "medium", timeStyle: "short" });
  } catch {
    return iso;
  }
}

function putAway() {
  try {
    return new Set(JSON.parse(localStorage.getItem("hukum.warnings.seen") || "[]"));
  } catch {
    return new Set();
  }
}

/** Ask the server what moderation says to this browser's player (none without a session). */
export async function loadSanctions() {
  try {
    const { data } = await api("GET", "/api/me");
    if (!data.player) {
      mine = { sanctions: [], moderator: false };
    } else {
      const found = await api("GET", "/api/me/sanctions");
      mine = { sanctions: found.data.sanctions ?? [], moderator: data.player.moderator === true };
    }
  } catch {
    return; // offline, or an old server: nothing to say
  }
  drawSanction();
}

function text(s) {
  if (s.kind === "suspend") return t("sanction.suspend", { until: when(s.until), reason: s.reason });
  if (s.kind === "close") return t("sanction.close", { reason: s.reason });
  return t("sanction.warn", { reason: s.reason });
}

/** Draw the banner and the moderator's link, in the page's language. */
export function drawSanction() {
  let box = document.getElementById("sanction");
  if (!box) {
    box = document.createElement("div");
    box.id = "sanction";
    box.className = "sanction";
    box.setAttribute("role", "alert");
    document.querySelector("main")?.before(box);
    box.addEventListener("click", (e) => {
      const id = e.target.closest("[data-warning]")?.dataset.warning;
      if (!id) return;
      const seen = putAway();
      seen.add(Number(id));
      localStorage.setItem("hukum.warnings.seen", JSON.stringify([...seen]));
      drawSanction();
    });
  }
  const seen = putAway();
  const shown = mine.sanctions.filter((s) => s.kind !== "warn" || !seen.has(s.id));
  box.hidden = !shown.length;
  box.innerHTML = shown
    .map((s) => {
      const close = s.kind === "warn" ? ` <button class="small" data-warning="${s.id}">${esc(t("sanction.ok"))}</button>` : "";
      return `<p class="sanction-${esc(s.kind)}" data-kind="${esc(s.kind)}">${esc(text(s))}${close}</p>`;
    })
    .join("");
  let link = document.getElementById("nav-moderation");
  if (mine.moderator && !link) {
    link = document.createElement("a");
    link.id = "nav-moderation";
    link.className = "nav";
    link.href = "/moderation";
    document.getElementById("nav-howto")?.before(link);
  }
  if (link) {
    link.hidden = !mine.moderator;
    link.textContent = t("mod.title");
  }
}

/** Once, at start: what moderation says now, and again whenever the page is looked at. */
export function startSanctions() {
  loadSanctions();
  document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && loadSanctions());
}
