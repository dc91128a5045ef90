// The page's addresses (history API, real URLs): each route is a pattern ("/t/:code") and a
// page module; the router opens the page whose pattern matches the address, on a link's
// click, go(path), back and forward. A page module is
//   { open(params), leave?(), render(), click?(e), submit?(e), input?(e), change?(e), keydown?(e) }
// open() shows it (params: the pattern's :names, decoded), leave() stops what it runs
// (connections, timers), render() draws it again (e.g. in another language), and the event
// handlers get the events of <main id="app"> (keydown: of the document) while it is shown.

const routes = [];
let fallback = null;
let current = null;
let shell = () => {};

/** Route `pattern` to `page`; "*" is the page of any other address. */
export function route(pattern, page) {
  if (pattern === "*") {
    fallback = page;
    return;
  }
  const keys = [];
  const source = pattern.replace(/:([a-z]+)/g, (_, key) => {
    keys.push(key);
    return "([^/]+)";
  });
  routes.push({ re: new RegExp(`^${source}/?$`), keys, page });
}

/** The page of `path` and its params, or null (no route, no fallback). */
export function match(path) {
  for (const r of routes) {
    const m = path.match(r.re);
    if (m) return { page: r.page, params: Object.fromEntries(r.keys.map((k, i) => [k, decodeURIComponent(m[i + 1])])) };
  }
  return fallback ? { page: fallback, params: {} } : null;
}

/** Open the page of the address shown, in the shell drawn for it (a page need not draw
 * the shell itself: the header's language menu, player and links are drawn here). */
function dispatch() {
  current?.page.leave?.();
  current = match(location.pathname);
  shell();
  current?.page.open(current.params);
}

/** Go to `path` (a new entry in the history). */
export function go(path) {
  history.pushState(null, "", path);
  dispatch();
}

/** Draw the shell and the page shown again. */
export function render() {
  shell();
  current?.page.render();
}

/** The page module shown. */
export function currentPage() {
  return current?.page ?? null;
}

/** A click on a link of this site (a route's, same origin, no new tab asked) goes there in
 * the page. */
function followLink(e) {
  const a = e.target.closest?.("a[href]");
  if (!a || e.defaultPrevented || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
  if (a.target || a.hasAttribute("download")) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || !routes.some((r) => r.re.test(url.pathname))) return;
  e.preventDefault();
  go(url.pathname + url.search);
}

/** Start: `drawShell` draws what is round every page; the page of the address opens. */
export function startRouter(drawShell) {
  shell = drawShell;
  window.addEventListener("popstate", dispatch);
  document.addEventListener("click", followLink);
  dispatch();
}
