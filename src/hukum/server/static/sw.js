// The service worker (issue 40 item 14): the page opens at once, and without a network,
// from the static files it keeps. server/app.py serves it at /sw.js (the root scope) with
// VERSION (a hash of the static files: a release that changes one replaces the cache) and
// FILES (the page and the static files) filled in.
//   - the page (a navigation): the network first, the kept page when there is none;
//   - /static/…: the kept file, else the network;
//   - everything else (/api, /ws, /docs): the network only, never kept.
const VERSION = "__HUKUM_VERSION__";
const FILES = ["__HUKUM_FILES__"];
const CACHE = `hukum-${VERSION}`;
/** What is never kept nor answered from the cache: the API, the sockets, the API's docs. */
const NETWORK_ONLY = /^\/(api|ws|docs|redoc|openapi\.json)(\/|$)/;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(FILES))
      .then(() => self.skipWaiting()),
  );
});

// The new version's cache replaces every older one.
self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith("hukum-") && key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

/** Every page address is served the same page (index.html, cached as "/"). */
async function page(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const kept = await caches.match("/", { cacheName: CACHE });
    if (kept) return kept;
    throw error;
  }
}

async function staticFile(request) {
  const kept = await caches.match(request, { cacheName: CACHE });
  return kept ?? fetch(request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || NETWORK_ONLY.test(url.pathname)) return;
  if (url.pathname.startsWith("/static/")) event.respondWith(staticFile(request));
  else if (request.mode === "navigate") event.respondWith(page(request));
});

// A click on "Your turn" (widgets/attention.js): back to the table's tab, or open it.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url ?? "/", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((tabs) => {
      const tab = tabs.find((c) => c.url === url) ?? tabs[0];
      return tab ? tab.focus() : self.clients.openWindow(url);
    }),
  );
});
