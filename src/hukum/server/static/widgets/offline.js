// Installable, and honest without a network (issue 40 item 14): the service worker
// (/sw.js: the page and its static files kept, so that it opens at once and offline), and
// the banner that says the connection is gone. The table's page reconnects by itself
// (table/connection.js) once it is back.
import { t } from "../i18n.js";

/** Once, at start: register the service worker; watch the network. */
export function startOffline() {
  window.addEventListener("online", drawOffline);
  window.addEventListener("offline", drawOffline);
  if (!("serviceWorker" in navigator)) return;
  // A new release's worker takes over an open page: load the page again, so that the page
  // and its modules are of one release. The first worker (no controller yet) changes nothing.
  const before = navigator.serviceWorker.controller;
  navigator.serviceWorker.addEventListener("controllerchange", () => before && location.reload());
  navigator.serviceWorker.register("/sw.js").catch(() => {}); // the page works without it
}

/** The banner, in the page's language, shown while the browser has no network. */
export function drawOffline() {
  const banner = document.getElementById("offline");
  if (!banner) return;
  banner.hidden = navigator.onLine;
  banner.textContent = t("offline.banner");
}
